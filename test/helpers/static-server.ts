import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/** The media types a static site of plain files needs. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a folder as any static host does, and nothing more: a file, `<dir>/index.html` for a folder, `404.html`
 * with status 404 for the rest; GET and HEAD only, the query ignored. No rendering, no server-side code.
 */
export async function serveStatic(root: string, port = 0): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    let file = join(root, path);
    if (!file.startsWith(root + sep) && file !== root) file = join(root, '404.html');
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    const found = existsSync(file) && statSync(file).isFile();
    const served = found ? file : join(root, '404.html');
    res.writeHead(found ? 200 : 404, {
      'content-type': TYPES[extname(served)] ?? 'application/octet-stream',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(served).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
