import { createServer, type Server } from 'node:http';
import type { Metrics } from './metrics.js';

/** A running `folio worker`'s operator port: where it listens, and how to stop it. */
export interface WorkerEndpoints {
  port: number;
  close(): Promise<void>;
}

/**
 * `/healthz` and `/metrics` of `folio worker` (WORKER_METRICS_PORT), which has no HTTP app of its own: a plain
 * Node server, so a worker whose job loop is healthy but whose store is gone still answers liveness, and the
 * scrape shows the outbox the store holds and this process's attempts. Outside any auth, as the app's: bind it
 * where only monitoring reaches.
 */
export async function serveWorkerEndpoints(
  metrics: Metrics,
  listen: { port: number; host: string },
): Promise<WorkerEndpoints> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      response
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ ok: true }));
      return;
    }
    if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) =>
          response
            .writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' })
            .end(text),
        () => response.writeHead(500).end(),
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : listen.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
