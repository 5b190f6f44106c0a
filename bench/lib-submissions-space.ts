/** The space `npm run bench -- submissions` loads: one public token and one contact form that notifies. */
export const BENCH_TOKEN = 'folio_pub_BenchSubmissionsToken0000001';
export const BENCH_SPACE = 'spc_bench';

export const BUNDLE = {
  format: 'folio-bundle@1',
  space: { id: BENCH_SPACE, name: 'Bench', locales: [{ code: 'en', default: true }] },
  tokens: [{ kind: 'public', value: BENCH_TOKEN }],
  forms: [
    {
      key: 'contact',
      name: 'Contact',
      fields: [
        { key: 'name', type: 'text', label: 'Name', required: true, maxLength: 100 },
        { key: 'email', type: 'email', label: 'Email', required: true },
        { key: 'message', type: 'textarea', label: 'Message', maxLength: 2000 },
        { key: 'consent', type: 'consent', label: 'I agree.' },
      ],
      // Notifications on: every accepted submission enqueues two owner emails, a routed one and a chat
      // post in its transaction; sending is the job runner's, off the request path.
      settings: {
        successMessage: { en: 'Thanks!' },
        notify: ['owner@example.com', 'sales@example.com'],
        notifyRules: [
          {
            when: { match: 'all', rules: [{ field: 'consent', op: 'equals', value: true }] },
            to: ['crm@example.com'],
          },
        ],
        chatWebhookUrl: 'https://hooks.example.com/services/T000/B000/XXXX',
      },
    },
  ],
};
