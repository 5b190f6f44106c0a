import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostLimiter, PER_HOST_LIMIT } from './host-limit.js';
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
 * How long a connection to a receiver stays open without a post: under the 5 s after which Node's own HTTP servers
 * close an idle one (a post on a connection the receiver is closing fails, and its job is retried). A receiver that
 * announces a shorter `Keep-Alive: timeout` is held to it less 1 s (Node's agent reads the hint).
 */
const IDLE_CONNECTION_MS = 4_000;

/**
 * Connections kept between posts, per protocol and per address rule: a burst of submissions posts to the same
 * chat and webhook receivers hundreds of times, and a new TCP connection (with TLS, a handshake) per post cost
 * more CPU than the post (about 200 µs more per post on loopback without TLS). A connection is checked by the
 * guarded lookup when it opens; the agents of the two rules are apart, so one never lends the other a connection.
 * Idle connections do not keep the process alive (Node's agent unrefs them).
 */
const agents = new Map<string, HttpAgent>();

function agentFor(protocol: string, allowPrivate: boolean): HttpAgent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const options = {
      keepAlive: true,
      timeout: IDLE_CONNECTION_MS,
      maxSockets: PER_HOST_LIMIT,
      maxFreeSockets: PER_HOST_LIMIT,
      scheduling: 'lifo' as const,
    };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * One POST of a webhook body: no redirects followed (a 3xx is a failure), a hard timeout, the response body
 * read up to 64 KB and discarded, on a connection kept from an earlier post to the same host when one is idle. At
 * most `PER_HOST_LIMIT` posts per host are in flight in the process (./host-limit.ts); one that waited `timeoutMs`
 * for a slot fails without sending, and is retried.
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
        agent: agentFor(target.protocol, opts.allowPrivate),
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
