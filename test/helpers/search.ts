import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/**
 * An OpenAI-compatible embeddings endpoint on loopback for the HTTP provider's tests: bag-of-words vectors
 * (each word hashed to one of 64 dimensions), so texts sharing words are close. `hang` never answers.
 */
export async function startEmbeddingsServer(mode: 'ok' | 'hang' = 'ok'): Promise<{
  url: string;
  requests: { model: unknown; inputs: number; authorization: string | undefined }[];
  close(): Promise<void>;
}> {
  const requests: { model: unknown; inputs: number; authorization: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (mode === 'hang') return;
      const body = JSON.parse(raw) as { model: unknown; input: string[] };
      requests.push({
        model: body.model,
        inputs: body.input.length,
        authorization: req.headers.authorization,
      });
      const data = body.input.map((text, index) => {
        const v = new Array<number>(64).fill(0);
        for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
          v[createHash('md5').update(w).digest()[0]! % 64]! += 1;
        v[63] = v[63]! + 0.01;
        return { object: 'embedding', index, embedding: v };
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data, model: body.model }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/embeddings`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
