/** The space `npm run bench -- notify` loads: a form mailing two owners and posting to chat, and a webhook. */
export const NOTIFY_TOKEN = 'folio_pub_BenchNotifyToken00000000001';
export const NOTIFY_SPACE = 'spc_notify';

export function notifyBundle(chatUrl: string, webhookUrl: string) {
  return {
    format: 'folio-bundle@1',
    space: { id: NOTIFY_SPACE, name: 'Notify bench', locales: [{ code: 'en', default: true }] },
    tokens: [{ kind: 'public', value: NOTIFY_TOKEN }],
    webhooks: [{ url: webhookUrl, events: ['form.submitted'] }],
    forms: [
      {
        key: 'contact',
        name: 'Contact',
        fields: [
          { key: 'name', type: 'text', label: 'Name', required: true, maxLength: 100 },
          { key: 'email', type: 'email', label: 'Email', required: true },
          { key: 'message', type: 'textarea', label: 'Message', maxLength: 2000 },
        ],
        settings: {
          successMessage: { en: 'Thanks!' },
          notify: ['owner@example.com', 'sales@example.com'],
          chatWebhookUrl: chatUrl,
        },
      },
    ],
  };
}
