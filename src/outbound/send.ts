import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostLimiter } from './host-limit.js';
import { guardedLookup, isInternalAddress } from './target.js';

export interface SendResult {
  /** The receiver's status code; null when no response came (refused, timed out, not allowed). */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The target is not allowed (internal address): retrying cannot help. */
  forbidden: boolean;
}

const MAX_RESPONSE = 64 * 1024;

/**
 * One POST of a webhook body: no redirects followed (a 3xx is a failure), a hard timeout, the response body
 * read up to 64 KB and discarded, and a fresh connection each time (nothing kept open between attempts). At most
 * `PER_HOST_LIMIT` posts per host are in flight in the process (./host-limit.ts); one that waited `timeoutMs` for
 * a slot fails without sending, and is retried.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return postOnce(url, body, headers, opts);
  }
  const started = Date.now();
  const release = await hostLimiter.acquire(host, opts.timeoutMs);
  if (release === null)
    return {
      status: null,
      error: `no free connection slot for ${host} within ${opts.timeoutMs} ms`,
      forbidden: false,
      durationMs: Date.now() - started,
    };
  try {
    return await postOnce(url, body, headers, opts);
  } finally {
    release();
  }
}

function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = Date.now();
  const result = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Date.now() - started,
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(result({ status: null, error: 'invalid URL', forbidden: true }));
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!opts.allowPrivate && isIP(host) !== 0 && isInternalAddress(host)) {
      return resolve(
        result({ status: null, error: `${host} is a private network address`, forbidden: true }),
      );
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
        agent: false,
        lookup: guardedLookup(opts.allowPrivate),
        signal: AbortSignal.timeout(opts.timeoutMs),
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE) res.destroy();
        });
        const done = () => resolve(result({ status: res.statusCode ?? null, error: null, forbidden: false }));
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      resolve(
        result({
          status: null,
          error: timedOut ? `timed out after ${opts.timeoutMs} ms` : err.message,
          forbidden: err.code === 'EPRIVATE',
        }),
      );
    });
    req.end(body);
  });
}
