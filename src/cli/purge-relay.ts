// `folio purge-relay`: a small receiver for Folio's own webhooks that purges a CDN by tag. It verifies each
// delivery's Standard Webhooks signature, then sends one purge per target carrying the event's `data.keys` (a
// publish's difference, a revoked token's tag), and answers 2xx only once every target purged, so Folio retries a
// purge that did not land. Made for Varnish with vmod xkey (deploy/varnish/folio.vcl); any cache that purges by a
// header of keys fits (docs/operations.md "CDN").

import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { ConfigError } from '../config/config.js';

export interface PurgeRelayConfig {
  host: string;
  port: number;
  /** The endpoint's signing secret (`whsec_…`), as Folio gave it when the webhook was registered. */
  secret: string;
  /** Where purges go: each cache's address (http or https). */
  targets: readonly URL[];
  /** The method of a purge request (Varnish: PURGE) and the header its keys go in (xkey: `xkey-purge`). */
  method: string;
  header: string;
  /** Bound on each purge request. */
  timeoutMs: number;
}

type Env = Record<string, string | undefined>;

/** PURGE_RELAY_* from the environment (a secret also from PURGE_RELAY_SECRET_FILE); a bad value names itself. */
export function loadPurgeRelayConfig(env: Env, readFile: (path: string) => string): PurgeRelayConfig {
  const get = (name: string): string | undefined => {
    const direct = env[name];
    if (direct !== undefined && direct !== '') return direct;
    const file = env[`${name}_FILE`];
    return file === undefined || file === '' ? undefined : readFile(file).trim();
  };
  const secret = get('PURGE_RELAY_SECRET');
  if (secret === undefined || !/^whsec_[A-Za-z0-9+/=]{16,}$/.test(secret))
    throw new ConfigError('PURGE_RELAY_SECRET', "must be the webhook's signing secret (whsec_…)");
  const targets = (get('PURGE_RELAY_TARGETS') ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t) => {
      let url: URL;
      try {
        url = new URL(t);
      } catch {
        throw new ConfigError('PURGE_RELAY_TARGETS', `holds "${t}", which is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new ConfigError('PURGE_RELAY_TARGETS', `holds "${t}": http(s) URLs only`);
      return url;
    });
  if (targets.length === 0)
    throw new ConfigError('PURGE_RELAY_TARGETS', 'must name the caches to purge (comma-separated URLs)');
  const port = Number(get('PURGE_RELAY_PORT') ?? '8787');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError('PURGE_RELAY_PORT', 'must be a port number (0: any free port)');
  const header = get('PURGE_RELAY_HEADER') ?? 'xkey-purge';
  const method = get('PURGE_RELAY_METHOD') ?? 'PURGE';
  if (!/^[A-Za-z0-9-]{1,64}$/.test(header))
    throw new ConfigError('PURGE_RELAY_HEADER', 'must be a header name');
  if (!/^[A-Z]{1,16}$/.test(method)) throw new ConfigError('PURGE_RELAY_METHOD', 'must be an HTTP method');
  return {
    host: get('PURGE_RELAY_HOST') ?? '127.0.0.1',
    port,
    secret,
    targets,
    method,
    header,
    timeoutMs: 5000,
  };
}

/** Keys per purge request: Varnish reads request headers up to 8 KB by default. */
const MAX_HEADER_BYTES = 6000;

/** The keys in chunks whose joined length stays under MAX_HEADER_BYTES. */
function chunks(keys: readonly string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const key of keys) {
    if (current !== '' && current.length + 1 + key.length > MAX_HEADER_BYTES) {
      out.push(current);
      current = '';
    }
    current = current === '' ? key : `${current} ${key}`;
  }
  if (current !== '') out.push(current);
  return out;
}

function purge(config: PurgeRelayConfig, target: URL, keys: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      { method: config.method, headers: { [config.header]: keys }, timeout: config.timeoutMs },
      (res) => {
        res.resume();
        res.on('end', () => {
          const ok = res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300;
          if (ok) resolve();
          else reject(new Error(`${target.host} answered ${res.statusCode}`));
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${target.host} did not answer in ${config.timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end();
  });
}

/** A webhook body's `data.keys`, checked (strings only); null when the body is no event. */
export function keysOf(body: string): { type: string; keys: string[] } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || !('type' in parsed) || typeof parsed.type !== 'string')
    return null;
  const data = 'data' in parsed && typeof parsed.data === 'object' && parsed.data !== null ? parsed.data : {};
  const raw = 'keys' in data && Array.isArray(data.keys) ? (data.keys as unknown[]) : [];
  // A key is a tag as Folio writes them: no whitespace or commas, which would split it.
  const keys = raw.filter((k): k is string => typeof k === 'string' && /^[^\s,]{1,512}$/.test(k));
  return { type: parsed.type, keys };
}

/** Reads a request body up to `max` bytes; null past it. */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(null);
        req.destroy();
      } else parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export interface PurgeRelay {
  server: Server;
  /** Events purged so far (for operators' logs and tests). */
  purged: number;
  close(): Promise<void>;
}

/** Starts the relay; `log` gets one line per event. */
export async function startPurgeRelay(
  config: PurgeRelayConfig,
  log: (line: string) => void = (line) => console.log(line),
): Promise<PurgeRelay> {
  const webhook = new Webhook(config.secret);
  const relay: PurgeRelay = {
    server: createServer((req, res) => {
      void (async () => {
        const answer = (status: number, text: string) =>
          res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
        if (req.method !== 'POST') return answer(405, 'POST a webhook delivery here.');
        const body = await readBody(req, 1024 * 1024);
        if (body === null) return answer(413, 'The body is over 1 MB.');
        try {
          webhook.verify(body, {
            'webhook-id': String(req.headers['webhook-id'] ?? ''),
            'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
            'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
          });
        } catch {
          return answer(401, 'The signature does not verify.');
        }
        const event = keysOf(body);
        if (event === null) return answer(400, 'Not an event.');
        if (event.keys.length === 0) return answer(204, '');
        const started = performance.now();
        try {
          for (const keys of chunks(event.keys))
            await Promise.all(config.targets.map((target) => purge(config, target, keys)));
        } catch (err) {
          log(
            `purge-relay: ${event.type}: purge failed (${err instanceof Error ? err.message : err}); Folio retries`,
          );
          return answer(502, 'A purge did not land.');
        }
        relay.purged++;
        log(
          `purge-relay: ${event.type}: ${event.keys.length} keys purged at ${config.targets.length} cache(s) in ${(performance.now() - started).toFixed(0)} ms`,
        );
        return answer(204, '');
      })().catch(() => res.destroy());
    }),
    purged: 0,
    close: () => new Promise((resolve) => relay.server.close(() => resolve())),
  };
  await new Promise<void>((resolve, reject) => {
    relay.server.once('error', reject);
    relay.server.listen(config.port, config.host, () => resolve());
  });
  return relay;
}
