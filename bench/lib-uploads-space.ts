import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';

/** The space `npm run bench -- uploads` loads: one public token and a form with a file field. */
export const UPLOADS_TOKEN = 'folio_pub_BenchUploadsToken00000000001';
export const UPLOADS_SPACE = 'spc_bench_uploads';

export const UPLOADS_BUNDLE = {
  format: 'folio-bundle@1',
  space: { id: UPLOADS_SPACE, name: 'Bench uploads', locales: [{ code: 'en', default: true }] },
  tokens: [{ kind: 'public', value: UPLOADS_TOKEN }],
  forms: [
    {
      key: 'apply',
      name: 'Apply',
      fields: [
        { key: 'email', type: 'email', label: 'Email' },
        { key: 'cv', type: 'file', label: 'CV', accept: ['application/pdf'] },
      ],
      // Cloudflare's documented always-pass test secret: answered without a network call.
      settings: {
        turnstileSiteKey: '1x00000000000000000000AA',
        turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
      },
    },
  ],
};
