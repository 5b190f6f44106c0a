/**
 * The server side of `npm run bench -- notify`, a child process so the load generator and the receivers never share
 * its event loop: `folio serve` on SQLite with the in-process job runner on, one space whose form mails two owners
 * and posts to a chat webhook, and a webhook endpoint for `form.submitted`.
 *   lib-notify-server.ts <dataDir> <smtpUrl> <chatUrl> <webhookUrl> [worker]
 * Prints `{ port }` when listening; on SIGTERM prints `{ maxRssMb, cpuMs, stored }` and exits.
 */
import { mkdirSync } from 'node:fs';
import { importBundle } from '../src/bundle/import-bundle.js';
import { openRuntime } from '../src/cli/runtime.js';
import { loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/server/app.js';
import { serveBenchChild } from './lib-serve.js';
import { notifyBundle } from './lib-notify-space.js';

const [dataDir, smtpUrl, chatUrl, webhookUrl] = process.argv.slice(2);
if (!dataDir || !smtpUrl || !chatUrl || !webhookUrl) {
  console.error('usage: lib-notify-server.ts <dataDir> <smtpUrl> <chatUrl> <webhookUrl>');
  process.exit(2);
}
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  LOG_LEVEL: 'warn',
  FOLIO_DEMO: 'false',
  // `worker` as the fifth argument: FOLIO_WORKER=off, a `folio worker` process runs the jobs (lib-notify-worker.ts).
  FOLIO_WORKER: process.argv[6] === 'worker' ? 'false' : 'true',
  SMTP_URL: smtpUrl,
  MAIL_FROM: 'Folio <forms@bench.example>',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_VISITOR_PER_MINUTE: '1000000000',
  RATE_LIMIT_FORM_PER_MINUTE: '1000000000',
  RATE_LIMIT_DELIVERY_PER_MINUTE: '100000000',
});
mkdirSync(dataDir, { recursive: true });
const rt = await openRuntime(config);
await importBundle(rt.store, rt.blobs, notifyBundle(chatUrl, webhookUrl), { baseDir: dataDir });
const app = await buildApp(rt);
await serveBenchChild(app, {}, async () => {
  const row = await rt.store.db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  await app.close();
  await rt.close();
  return { stored: Number(row.n) };
});
