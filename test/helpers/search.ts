import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/**
 * An OpenAI-compatible embeddings endpoint on loopback for the HTTP provider's tests: bag-of-words vectors
 * (each word hashed to one of 64 dimensions), so texts sharing words are close. `hang` never answers; `held`
 * answers once `release()` is called (`held` counts the requests waiting).
 */
export async function startEmbeddingsServer(mode: 'ok' | 'hang' | 'held' = 'ok'): Promise<{
  url: string;
  requests: { model: unknown; inputs: number; authorization: string | undefined }[];
  held(): number;
  release(): void;
  close(): Promise<void>;
}> {
  const requests: { model: unknown; inputs: number; authorization: string | undefined }[] = [];
  let waiting: (() => void)[] | null = mode === 'held' ? [] : null;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (mode === 'hang') return;
      if (waiting !== null) {
        waiting.push(() => answer(raw, req.headers.authorization, res));
        return;
      }
      answer(raw, req.headers.authorization, res);
    });
  });
  const answer = (raw: string, authorization: string | undefined, res: ServerResponse) => {
    const body = JSON.parse(raw) as { model: unknown; input: string[] };
    requests.push({ model: body.model, inputs: body.input.length, authorization });
    const data = body.input.map((text, index) => {
      const v = new Array<number>(64).fill(0);
      for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
        v[createHash('md5').update(w).digest()[0]! % 64]! += 1;
      v[63] = v[63]! + 0.01;
      return { object: 'embedding', index, embedding: v };
    });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ object: 'list', data, model: body.model }));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/embeddings`,
    requests,
    held: () => waiting?.length ?? 0,
    release() {
      const answers = waiting ?? [];
      waiting = null;
      for (const send of answers) send();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
