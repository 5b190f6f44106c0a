/**
 * `folio worker` for `npm run bench -- notify` (the documented deployment with FOLIO_WORKER=off on the server):
 * the job runner alone, in a process of its own, on the server's SQLite file.
 *   lib-notify-worker.ts <dataDir> <smtpUrl>
 * Prints `{ port: 0 }` when running; on SIGTERM stops the runner (jobs in hand finish), prints `{ cpuMs }`, exits.
 */
import { openRuntime } from '../src/cli/runtime.js';
import { loadConfig } from '../src/config/config.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { peakRssMb } from './lib-peak-rss.js';

const [dataDir, smtpUrl] = process.argv.slice(2);
if (!dataDir || !smtpUrl) {
  console.error('usage: lib-notify-worker.ts <dataDir> <smtpUrl>');
  process.exit(2);
}
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  LOG_LEVEL: 'warn',
  SMTP_URL: smtpUrl,
  MAIL_FROM: 'Folio <forms@bench.example>',
  WEBHOOK_ALLOW_PRIVATE: 'true',
});
const rt = await openRuntime(config);
const runner = createJobRunner({
  store: rt.store,
  blobs: rt.blobs,
  config,
  log: { error: (details, message) => console.error(message, details) },
});
runner.start();
const cpuAtStart = process.cpuUsage();
console.log(JSON.stringify({ port: 0 }));
process.once('SIGTERM', () => {
  void (async () => {
    await runner.stop();
    await rt.close();
    const cpu = process.cpuUsage(cpuAtStart);
    console.log(JSON.stringify({ maxRssMb: peakRssMb(), cpuMs: Math.round((cpu.user + cpu.system) / 1000) }));
    process.exit(0);
  })();
});
