/** The space `npm run bench -- submissions` loads: one public token and one contact form. */
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
      settings: { successMessage: { en: 'Thanks!' } },
    },
  ],
};
