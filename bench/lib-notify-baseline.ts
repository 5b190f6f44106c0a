/**
 * The baseline of `npm run bench -- notify`, in a process of its own so its CPU is measured as Folio's is: a bare
 * nodemailer pool (as many connections as Folio's default SMTP_CONNECTIONS) sending two emails per tick at `rate`
 * ticks/s for `seconds`, the first tick at `startAt` (epoch ms, so the parent knows every tick's time).
 *   lib-notify-baseline.ts <smtpUrl> <rate> <seconds> <startAt>
 * Prints `{ port: 0 }` when ready; when every send settled, `{ cpuMs, failed }` (CPU time from the first tick).
 */
import nodemailer from 'nodemailer';
import { DEFAULT_SMTP_CONNECTIONS } from '../src/forms/notify/mailer.js';

const [smtpUrl, rateArg, secondsArg, startArg] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const startAt = Number(startArg);
if (!smtpUrl || !(rate > 0) || !(seconds > 0) || !(startAt > 0)) {
  console.error('usage: lib-notify-baseline.ts <smtpUrl> <rate> <seconds> <startAt>');
  process.exit(2);
}
const transport = nodemailer.createTransport({
  url: smtpUrl,
  pool: true,
  maxConnections: DEFAULT_SMTP_CONNECTIONS,
  maxMessages: 100,
});
console.log(JSON.stringify({ port: 0 }));
const now = () => performance.timeOrigin + performance.now();
await new Promise((r) => setTimeout(r, Math.max(0, startAt - now())));
const cpuAtStart = process.cpuUsage();
let failed = 0;
const sends: Promise<unknown>[] = [];
const total = Math.round(rate * seconds);
for (let i = 0; i < total; i++) {
  const wait = startAt + (i * 1000) / rate - now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  for (const to of ['owner@example.com', 'sales@example.com'])
    sends.push(
      transport
        .sendMail({
          from: 'Folio <forms@bench.example>',
          to,
          subject: 'New submission: Contact',
          text: `New submission to the form "Contact" (contact).\n\nName: Ada Lovelace\nEmail: ada@example.com\nMessage: [[bench:${i}]] Hello! I would like to know more about the analytical engine.\n`,
        })
        .catch(() => void (failed += 1)),
    );
}
await Promise.all(sends);
const cpu = process.cpuUsage(cpuAtStart);
transport.close();
console.log(JSON.stringify({ cpuMs: Math.round((cpu.user + cpu.system) / 1000), failed }));
process.exit(0);
