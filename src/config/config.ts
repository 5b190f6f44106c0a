import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { bool, type Env, int, read, url } from './env-values.js';
import { trustProxyConfig } from './trust-proxy.js';

export type StoreConfig =
  | { engine: 'sqlite'; file: string }
  | {
      engine: 'postgres';
      url: string;
      schema?: string;
      /**
       * DATABASE_NAMED_STATEMENTS (default on): hot fixed-shape reads run as named prepared statements, planned once
       * per connection. Off behind a pooler in transaction mode that does not keep them (PgBouncer before 1.21).
       */
      namedStatements?: boolean;
    };

/** Where blobs live (DESIGN.md "two deployment modes"): the data directory, or an S3-compatible bucket. */
export type BlobsConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      /** S3_ENDPOINT; null: the provider's default endpoint for the region (AWS). */
      endpoint: string | null;
      bucket: string;
      region: string;
      accessKeyId: string | null;
      secretAccessKey: string | null;
      /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO, s3rver, Ceph). */
      forcePathStyle: boolean;
    };

/** How notification email leaves (spec 4.4 rule 6): SMTP when SMTP_URL is set, else `.eml` files in the data dir. */
export interface MailConfig {
  /** SMTP_URL, e.g. `smtps://user:pass@smtp.example.com:465`; null writes `.eml` files to `outboxDir`. */
  readonly smtpUrl: string | null;
  /** MAIL_FROM: the sender of every message, e.g. `Folio <forms@example.com>`. */
  readonly from: string;
  /** DATA_DIR/outbox-mail: where messages go without SMTP. */
  readonly outboxDir: string;
  /** SMTP_CONNECTIONS: the most SMTP connections the pool of one worker holds open at once (default 5). */
  readonly smtpConnections?: number;
  /** MAIL_FILE_LINK_SECONDS: how long file links in owner emails open without a token (600–604800, default 3 days). */
  readonly fileLinkSeconds?: number;
  /** FILE_LINK_SECRET: signs the links in owner emails (default: the master key); rotating it revokes them all. */
  readonly fileLinkSecret?: string | null;
  /** MAIL_FROM was not set: `from` is made up from PUBLIC_URL's host (the startup warns when that is no domain). */
  readonly fromIsDefault?: boolean;
}

/**
 * Where semantic search (spec 1.4, 4.2 `/search`) gets its vectors: the offline model shipped in an npm package
 * (default), or an OpenAI-compatible HTTP endpoint when EMBEDDINGS_URL is set.
 */
export type EmbeddingsConfig =
  | { readonly provider: 'local'; readonly timeoutMs: number }
  | {
      readonly provider: 'http';
      /** EMBEDDINGS_URL: the embeddings endpoint itself, e.g. `https://api.openai.com/v1/embeddings`. */
      readonly url: string;
      /** EMBEDDINGS_MODEL, sent as `model`; stored with every vector, so changing it re-embeds. */
      readonly model: string;
      /** EMBEDDINGS_API_KEY, sent as a bearer token; null sends none (a local server). */
      readonly apiKey: string | null;
      readonly timeoutMs: number;
    };

export interface Config {
  readonly port: number;
  readonly host: string;
  /**
   * REQUEST_TIMEOUT_MS: a request's line, headers and body must all arrive within it (Node's requestTimeout),
   * else 408. Long enough for the largest upload (50 MB assets) over a slow link.
   */
  readonly requestTimeoutMs: number;
  /** BODY_TIMEOUT_MS: how long a request body may stop arriving before 408 (a trickled body). */
  readonly bodyTimeoutMs: number;
  readonly dataDir: string;
  readonly store: StoreConfig;
  readonly redisUrl: string | null;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Public base URL used in asset URLs and printed examples; defaults to http://<host>:<port>. */
  readonly publicUrl: string;
  /**
   * TRUST_PROXY: which proxies' X-Forwarded-For is believed, read from the right (docs/api.md "Who the visitor
   * is"): false (none: the socket's peer is the visitor), a hop count (that many proxies in front), or the proxies'
   * addresses and CIDR ranges. Never "any": the left-most entry is whatever the client wrote.
   */
  readonly trustProxy: false | number | readonly string[];
  /**
   * Per-visitor keys (src/ratelimit/visitors.ts): VISITOR_IPV6_PREFIX, the bits of an IPv6 address that name one
   * visitor (default 64: a host gets a whole /64), and VISITOR_CLAIMS_PER_MINUTE, the distinct visitors one
   * server-side token may name in `Folio-Visitor-Ip` per minute (default 600).
   */
  readonly visitors: { readonly ipv6Prefix: number; readonly claimsPerMinute: number };
  /** INBOX_SESSION_MAX_AGE_HOURS: an inbox session ends this long after sign-in, used or not (default 7 days). */
  readonly inboxSessionMaxAgeHours: number;
  /** Oldest published history kept, in cache versions behind the current one (DESIGN.md: pruning). */
  readonly keepVersions: number;
  /** Load the demo bundle when the store has no space (FOLIO_DEMO=true, or `serve --demo`: npm start). */
  readonly demo: boolean;
  /** Master key for signing (cursors, URLs) and keyed hashes; default: a key generated once in the store. */
  readonly secret: string | null;
  /** FOLIO_WORKER: run the outbox job runner inside `folio serve` (off when `folio worker` processes run it). */
  readonly worker: boolean;
  /** FOLIO_FAST_HITS: answer clean response-cache hits before Fastify (src/server/fast-hit.ts); 0 turns it off. */
  readonly fastHits: boolean;
  /**
   * JOB_LEASE_SECONDS: how long a claimed outbox job stays with its worker; a worker that died (SIGKILL, a lost
   * machine) holds its jobs this long before another runs them. Above every handler's timeout (webhooks: 10 s).
   */
  readonly jobLeaseSeconds: number;
  /**
   * JOB_CONCURRENCY: the most outbox jobs one runner has in hand at once (default 32); each receiver is bounded
   * further (SMTP_CONNECTIONS, a per-host limit for webhooks and chat posts).
   */
  readonly jobConcurrency?: number;
  /**
   * WORKER_METRICS_PORT: `folio worker` serves `/healthz` and `/metrics` on this port (on HOST); unset, no port
   * (0 picks a free one and prints it).
   */
  readonly workerMetricsPort: number | null;
  /** WEBHOOK_ALLOW_PRIVATE: let webhook endpoints be loopback or private-network addresses (off: SSRF guard). */
  readonly webhookAllowPrivate: boolean;
  /** Forms (spec 4.4, 8): Turnstile's siteverify URL and timeout, and the submission rate limits per minute. */
  readonly turnstileVerifyUrl: string;
  /** EMBEDDINGS_*: the embedding provider of semantic search; EMBEDDINGS_TIMEOUT_MS bounds every call. */
  readonly embeddings: EmbeddingsConfig;
  /**
   * Derived images: IMAGE_CACHE_MAX_MB, what they may take in the blob store in all (bytes here);
   * IMAGE_VARIANTS_PER_ASSET, how many one asset keeps (least recently used evicted past either); and
   * IMAGE_DERIVATIONS_PER_MINUTE, new variants one visitor may have made per minute (0: no limit).
   */
  readonly images: {
    readonly cacheMaxBytes: number;
    readonly variantsPerAsset: number;
    readonly derivationsPerMinute: number;
  };
  /** SEARCH_INDEX_MAX_MB: memory for the in-process vector indexes of semantic search (least recently used dropped). */
  readonly searchIndexMaxMb: number;
  /** SEARCH_QUEUE_MAX: query embeddings waiting for the model per process; past it 503 with Retry-After. */
  readonly searchQueueMax: number;
  /** ENTRY_CACHE_MB: parsed published entry versions kept in memory for uncached delivery (0: off). */
  readonly entryCacheMb: number;
  /** RENDER_CACHE_MB: rendered published entries with their JSON, per cv, for uncached lists (0: off). */
  readonly renderCacheMb: number;
  /** LIST_INDEX_MB: list rows each process holds in memory, so lists count and page without SQL (0: off). */
  readonly listIndexMb: number;
  readonly turnstileTimeoutMs: number;
  readonly rateLimitVisitorPerMinute: number;
  readonly rateLimitFormPerMinute: number;
  /** Prefix of every Redis key and channel (REDIS_PREFIX), so installations can share one Redis. */
  readonly redisPrefix: string;
  /** The response cache (src/cache/): L1 byte bound, lifetime of current-cv entries, of pinned ones in L2. */
  readonly cache: {
    readonly l1MaxBytes: number;
    readonly ttlSeconds: number;
    readonly pinnedTtlSeconds: number;
  };
  /**
   * What shared caches are told (docs/operations.md "CDN"): CDN_TAG_HEADER, the header the purge tags go in
   * (`surrogate-key` for Fastly and Varnish, `cache-tag` for Cloudflare, `both`, or `none`), and CDN_MAX_AGE, how
   * long a shared cache may keep a current answer when purges by tag are wired (null: as long as browsers, 10 s).
   */
  readonly cdn: CdnConfig;
  /** Requests per minute per token on the delivery API (spec 8: 1,200). */
  readonly rateLimitPerMinute: number;
  /**
   * RATE_LIMIT_SHARE_PER_MINUTE: each visitor's share of a token with origins (a token published in a
   * site's pages), counted beside the token's own limit, so one client cannot spend a site's budget.
   * 0: no share, the token's limit alone. Tokens without origins (server-side rendering) have none.
   */
  readonly rateLimitVisitorSharePerMinute: number;
  /** Bound on cv staleness when no publish notification arrives (the fallback poll of src/cluster/). */
  readonly cvPollMs: number;
  /** WORKERS: processes `folio serve` runs on one port (`auto`: one per core; src/cluster/worker-pool.ts). */
  readonly workers: number;
  /** ACTIVITY_RETENTION_DAYS: activity log entries older than this are swept. */
  readonly activityRetentionDays: number;
  readonly blobs: BlobsConfig;
  readonly mail: MailConfig;
}

export const CDN_TAG_HEADERS = ['surrogate-key', 'cache-tag', 'both', 'none'] as const;
export type CdnTagHeader = (typeof CDN_TAG_HEADERS)[number];

export interface CdnConfig {
  readonly tagHeader: CdnTagHeader;
  readonly maxAge: number | null;
}

export { ConfigError } from './config-error.js';

function cdnConfig(env: Env): CdnConfig {
  const raw = read(env, 'CDN_TAG_HEADER')?.toLowerCase() ?? 'surrogate-key';
  const tagHeader = CDN_TAG_HEADERS.find((h) => h === raw);
  if (tagHeader === undefined)
    throw new ConfigError('CDN_TAG_HEADER', `must be one of ${CDN_TAG_HEADERS.join(', ')}, got "${raw}"`);
  const maxAge = read(env, 'CDN_MAX_AGE') === undefined ? null : int(env, 'CDN_MAX_AGE', 10, 1, 31_536_000);
  return { tagHeader, maxAge };
}

/** WORKERS: a count from 1 to 64, or `auto` for one per core the process may use. */
function workerCount(env: Env): number {
  if (read(env, 'WORKERS')?.toLowerCase() === 'auto') return Math.min(64, availableParallelism());
  return int(env, 'WORKERS', 1, 1, 64);
}

function secret(env: Env): string | null {
  const raw = read(env, 'FOLIO_SECRET');
  if (raw === undefined) return null;
  if (raw.length < 32) throw new ConfigError('FOLIO_SECRET', 'must be at least 32 characters');
  return raw;
}

function blobsConfig(env: Env, dataDir: string): BlobsConfig {
  const bucket = read(env, 'S3_BUCKET');
  if (bucket === undefined) return { kind: 'local', dir: resolve(dataDir, 'blobs') };
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ConfigError(
      'S3_BUCKET',
      `must be a bucket name (3–63 lower-case letters, digits, dots, hyphens)`,
    );
  const accessKeyId = read(env, 'S3_ACCESS_KEY_ID') ?? null;
  const secretAccessKey = read(env, 'S3_SECRET_ACCESS_KEY') ?? null;
  if ((accessKeyId === null) !== (secretAccessKey === null))
    throw new ConfigError(
      accessKeyId === null ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY',
      'must be set together with its pair (or neither, for the SDK default credentials)',
    );
  return {
    kind: 's3',
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']) ?? null,
    bucket,
    region: read(env, 'S3_REGION') ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

/** A mailbox, optionally with a display name: `forms@example.com` or `Folio <forms@example.com>`. */
const MAILBOX = /^(?:[^<>\r\n]{0,200}<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

function mailConfig(env: Env, dataDir: string, publicUrl: string): MailConfig {
  const given = read(env, 'MAIL_FROM');
  const from = given ?? `Folio <folio@${new URL(publicUrl).hostname || 'localhost'}>`;
  if (!MAILBOX.test(from))
    throw new ConfigError('MAIL_FROM', `must be an address like "Folio <forms@example.com>"`);
  return {
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']) ?? null,
    from,
    outboxDir: resolve(dataDir, 'outbox-mail'),
    smtpConnections: int(env, 'SMTP_CONNECTIONS', 5, 1, 100),
    fileLinkSeconds: int(env, 'MAIL_FILE_LINK_SECONDS', 3 * 24 * 60 * 60, 600, 7 * 24 * 60 * 60),
    fileLinkSecret: read(env, 'FILE_LINK_SECRET') ?? null,
    fromIsDefault: given === undefined,
  };
}

function embeddingsConfig(env: Env): EmbeddingsConfig {
  const timeoutMs = int(env, 'EMBEDDINGS_TIMEOUT_MS', 10_000, 100, 600_000);
  const endpoint = url(env, 'EMBEDDINGS_URL', ['http:', 'https:']);
  if (endpoint === undefined) {
    for (const name of ['EMBEDDINGS_MODEL', 'EMBEDDINGS_API_KEY'])
      if (read(env, name) !== undefined) throw new ConfigError(name, 'needs EMBEDDINGS_URL');
    return { provider: 'local', timeoutMs };
  }
  const model = read(env, 'EMBEDDINGS_MODEL');
  if (model === undefined || !/^[\x21-\x7e]{1,200}$/.test(model))
    throw new ConfigError(
      'EMBEDDINGS_MODEL',
      'must name the model (printable ASCII, no spaces) with EMBEDDINGS_URL',
    );
  return {
    provider: 'http',
    url: endpoint,
    model,
    apiKey: read(env, 'EMBEDDINGS_API_KEY') ?? null,
    timeoutMs,
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Loads, validates and freezes the configuration once; fails fast naming the variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const dataDir = resolve(read(env, 'DATA_DIR') ?? './data');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']) ?? null;
  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const publicUrl = (
    url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`
  ).replace(/\/+$/, '');
  const trustProxy = trustProxyConfig(read(env, 'TRUST_PROXY'));
  const schema = read(env, 'DATABASE_SCHEMA');
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new ConfigError('DATABASE_SCHEMA', 'must be a lower-case SQL identifier');
  const store: StoreConfig = databaseUrl
    ? {
        engine: 'postgres',
        url: databaseUrl,
        ...(schema === undefined ? {} : { schema }),
        namedStatements: bool(env, 'DATABASE_NAMED_STATEMENTS', true),
      }
    : { engine: 'sqlite', file: resolve(dataDir, 'folio.sqlite') };
  return Object.freeze({
    port,
    host,
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 120_000, 1000, 3_600_000),
    bodyTimeoutMs: int(env, 'BODY_TIMEOUT_MS', 10_000, 1000, 3_600_000),
    dataDir,
    store,
    redisUrl,
    logLevel,
    publicUrl,
    trustProxy,
    visitors: Object.freeze({
      ipv6Prefix: int(env, 'VISITOR_IPV6_PREFIX', 64, 16, 128),
      claimsPerMinute: int(env, 'VISITOR_CLAIMS_PER_MINUTE', 600, 1, 1_000_000),
    }),
    inboxSessionMaxAgeHours: int(env, 'INBOX_SESSION_MAX_AGE_HOURS', 168, 1, 8760),
    keepVersions: int(env, 'KEEP_VERSIONS', 1000, 1, 1_000_000_000),
    demo: bool(env, 'FOLIO_DEMO', false),
    secret: secret(env),
    worker: bool(env, 'FOLIO_WORKER', true),
    fastHits: bool(env, 'FOLIO_FAST_HITS', true),
    jobLeaseSeconds: int(env, 'JOB_LEASE_SECONDS', 60, 15, 86_400),
    jobConcurrency: int(env, 'JOB_CONCURRENCY', 32, 1, 1000),
    workerMetricsPort:
      read(env, 'WORKER_METRICS_PORT') === undefined ? null : int(env, 'WORKER_METRICS_PORT', 0, 0, 65535),
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    turnstileVerifyUrl:
      url(env, 'TURNSTILE_VERIFY_URL', ['http:', 'https:']) ??
      'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    turnstileTimeoutMs: int(env, 'TURNSTILE_TIMEOUT_MS', 5000, 100, 60_000),
    embeddings: Object.freeze(embeddingsConfig(env)),
    images: Object.freeze({
      cacheMaxBytes: int(env, 'IMAGE_CACHE_MAX_MB', 1024, 1, 1_048_576) * 1024 * 1024,
      variantsPerAsset: int(env, 'IMAGE_VARIANTS_PER_ASSET', 100, 1, 100_000),
      derivationsPerMinute: int(env, 'IMAGE_DERIVATIONS_PER_MINUTE', 60, 0, 1_000_000),
    }),
    searchIndexMaxMb: int(env, 'SEARCH_INDEX_MAX_MB', 1024, 16, 1_048_576),
    searchQueueMax: int(env, 'SEARCH_QUEUE_MAX', 16, 1, 100_000),
    entryCacheMb: int(env, 'ENTRY_CACHE_MB', 64, 0, 65_536),
    renderCacheMb: int(env, 'RENDER_CACHE_MB', 32, 0, 65_536),
    listIndexMb: int(env, 'LIST_INDEX_MB', 128, 0, 65_536),
    rateLimitVisitorPerMinute: int(env, 'RATE_LIMIT_VISITOR_PER_MINUTE', 10, 1, 1_000_000_000),
    rateLimitFormPerMinute: int(env, 'RATE_LIMIT_FORM_PER_MINUTE', 30, 1, 1_000_000_000),
    redisPrefix: read(env, 'REDIS_PREFIX') ?? 'folio:',
    cache: Object.freeze({
      l1MaxBytes: int(env, 'CACHE_L1_MAX_MB', 128, 1, 65_536) * 1024 * 1024,
      ttlSeconds: int(env, 'CACHE_TTL_SECONDS', 60, 1, 31_536_000),
      pinnedTtlSeconds: int(env, 'CACHE_PINNED_TTL_SECONDS', 86_400, 1, 31_536_000),
    }),
    cdn: Object.freeze(cdnConfig(env)),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_DELIVERY_PER_MINUTE', 1200, 1, 100_000_000),
    rateLimitVisitorSharePerMinute: int(env, 'RATE_LIMIT_SHARE_PER_MINUTE', 300, 0, 100_000_000),
    cvPollMs: int(env, 'CV_POLL_MS', 1000, 50, 3_600_000),
    workers: workerCount(env),
    activityRetentionDays: int(env, 'ACTIVITY_RETENTION_DAYS', 365, 1, 36_500),
    blobs: Object.freeze(blobsConfig(env, dataDir)),
    mail: Object.freeze(mailConfig(env, dataDir, publicUrl)),
  });
}
