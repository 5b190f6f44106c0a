import type { FastifyInstance } from 'fastify';
import { peakRssMb } from './lib-peak-rss.js';

/**
 * The server side of a bench child (bench/lib-child.ts starts it): listens on a free loopback port and prints
 * `{ port, …info }`; on SIGTERM runs `onStop`, prints `{ maxRssMb, cpuMs, …what onStop answered }` (CPU time since
 * listening, which machine load does not inflate) and exits. It also exits when its stdin closes: the bench that
 * started it is gone.
 */
export async function serveBenchChild(
  app: FastifyInstance,
  info: Record<string, unknown>,
  onStop: () => Promise<object | void>,
): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const cpuAtListen = process.cpuUsage();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(JSON.stringify({ port, ...info }));
  endWithParent();
  process.once('SIGTERM', () => {
    void (async () => {
      const extra = (await onStop()) ?? {};
      const cpu = process.cpuUsage(cpuAtListen);
      const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
      console.log(JSON.stringify({ maxRssMb: peakRssMb(), cpuMs, ...extra }));
      process.exit(0);
    })();
  });
}

/**
 * Exits when stdin closes. The bench that started this server holds its stdin open (lib-child.ts): when it closes,
 * the bench has gone (killed, crashed) without stopping the server, which left running would hold its port and CPU
 * through the next bench's figures.
 */
export function endWithParent(): void {
  process.stdin.once('close', () => process.exit(0));
  process.stdin.resume();
}
