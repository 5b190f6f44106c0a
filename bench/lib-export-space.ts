/**
 * The data of `npm run bench -- export`: one space with a management token and a contact form, and its
 * submissions generated in bulk straight into the store (the submit path is `bench -- submissions`' subject).
 */
import { newId } from '../src/lib/ids.js';
import type { Store } from '../src/store/open-store.js';

export const EXPORT_SPACE = 'spc_bench_export';
export const EXPORT_TOKEN = 'folio_mgt_BenchExportToken000000000001';
export const EXPORT_FORM = 'contact';

export const EXPORT_BUNDLE = {
  format: 'folio-bundle@1',
  space: { id: EXPORT_SPACE, name: 'Bench export', locales: [{ code: 'en', default: true }] },
  tokens: [{ kind: 'management', value: EXPORT_TOKEN }],
  forms: [
    {
      key: EXPORT_FORM,
      name: 'Contact',
      fields: [
        { key: 'name', type: 'text', label: 'Name', required: true, maxLength: 100 },
        { key: 'email', type: 'email', label: 'Email', required: true },
        {
          key: 'topic',
          type: 'select',
          label: 'Topic',
          options: [
            { value: 'sales', label: 'Sales' },
            { value: 'support', label: 'Support' },
            { value: 'press', label: 'Press' },
          ],
        },
        {
          key: 'tags',
          type: 'checkboxes',
          label: 'Interests',
          options: ['cms', 'forms', 'api', 'hosting'].map((v) => ({ value: v, label: v })),
        },
        { key: 'message', type: 'textarea', label: 'Message', maxLength: 2000 },
        { key: 'newsletter', type: 'checkbox', label: 'Newsletter' },
        { key: 'consent', type: 'consent', label: 'I agree to the storage of my data.' },
      ],
      settings: {},
    },
  ],
};

const WORDS = [
  'analytical',
  'engine',
  'punched',
  'cards',
  'Bernoulli',
  'numbers',
  'loom',
  'note',
  'G',
  'table',
];
const TOPICS = ['sales', 'support', 'press'];
const TAGS = ['cms', 'forms', 'api', 'hosting'];

/**
 * The values of the i-th submission: about 300 bytes, a comma or quote in every few messages (CSV quoting), a
 * formula-looking one now and then (neutralising); no line breaks, so a download's rows can be counted by line.
 */
export function benchValues(i: number): Record<string, unknown> {
  const words = Array.from({ length: 24 + (i % 12) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]);
  let message = words.join(' ');
  if (i % 5 === 0) message = `Hello, ${message}`;
  if (i % 7 === 0) message = `${message} "quoted"`;
  if (i % 97 === 0) message = `=${message}`;
  return {
    name: `Person ${i}`,
    email: `person${i}@example.com`,
    topic: TOPICS[i % TOPICS.length],
    tags: TAGS.filter((_, k) => (i >> k) & 1),
    message,
    newsletter: i % 3 === 0,
    consent: true,
  };
}

const CONSENT = JSON.stringify({ consent: { label: 'I agree to the storage of my data.' } });

/** Inserts `count` submissions, `batch` rows per INSERT, in one transaction (seconds for 100k on either engine). */
export async function generateSubmissions(store: Store, count: number, batch = 1000): Promise<void> {
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  await store.db.transaction().execute(async (tx) => {
    for (let from = 0; from < count; from += batch) {
      const rows = [];
      for (let i = from; i < Math.min(count, from + batch); i++) {
        const createdAt = new Date(start + i * 60_000).toISOString();
        rows.push({
          id: newId('sub'),
          space_id: EXPORT_SPACE,
          form_key: EXPORT_FORM,
          folder: i % 50 === 0 ? ('spam' as const) : ('inbox' as const),
          values: JSON.stringify(benchValues(i)),
          page: '/contact',
          locale: 'en',
          user_agent: 'Mozilla/5.0 (bench)',
          consent: CONSENT,
          unique_key: null,
          created_at: createdAt,
          delete_after: '2099-01-01T00:00:00.000Z',
          status: i % 4 === 0 ? ('done' as const) : ('new' as const),
          assignee: i % 10 === 0 ? 'Grace' : null,
        });
      }
      await tx.insertInto('submissions').values(rows).execute();
    }
  });
}
