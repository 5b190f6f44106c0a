import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from 'prom-client';
import type { RowsIndexStats } from '../delivery/list/rows/rows-index.js';
import { EventLoopDelay } from './event-loop-delay.js';

export type CacheResult = 'hit_l1' | 'hit_l2' | 'miss' | 'bypass';

/** Outbox jobs of one kind and status and the enqueue time of the oldest (src/jobs/jobs-repo.ts answers these). */
export interface OutboxGroup {
  kind: string;
  status: string;
  count: number;
  oldestAt: string;
}

/** A PostgreSQL pool's clients: open, idle, and queries waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Counts and latencies of one route pattern, as plain numbers: the hot path never calls prom-client. */
class RouteStats {
  /** method → status → count */
  readonly counts = new Map<string, Map<number, number>>();
  /** Non-cumulative: buckets[i] counts observations ≤ LATENCY_BUCKETS[i] and above the one before. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * The Prometheus instruments of one app (GET /metrics), in a registry of its own so several apps in one process
 * (tests) never clash. Request counts, latencies and cache lookups are plain numbers on the hot path (a prom-client
 * `inc` hashes its labels on every call, a measurable share of a cache hit) and are handed to prom-client when
 * scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly routes = new Map<string, RouteStats>();
  private readonly lookups: Record<CacheResult, number> = { hit_l1: 0, hit_l2: 0, miss: 0, bypass: 0 };
  private readonly rateLimited: Counter<'scope'>;
  private readonly redisErrors: Counter<'op'>;
  private readonly redisUp: Gauge;
  private readonly jobAttempts: Counter<'kind' | 'outcome'>;
  private readonly jobFailures: Counter<'kind'>;
  private readonly loopDelay = new EventLoopDelay();

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const routes = this.routes;
    const lookups = this.lookups;
    new Counter({
      name: 'folio_http_requests_total',
      help: 'HTTP requests by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
      collect() {
        this.reset();
        for (const [route, stats] of routes)
          for (const [method, byStatus] of stats.counts)
            for (const [status, n] of byStatus) this.labels(route, method, String(status)).inc(n);
      },
    });
    // A histogram built from RouteStats at scrape time; prom-client formats any metric whose get() answers
    // this shape (the one its own Histogram answers). Its Metric type wants a class instance, hence the cast.
    const name = 'folio_http_request_duration_seconds';
    const help =
      'Time from receiving a request until its response is handed to the socket, by route pattern.';
    this.registry.registerMetric({
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({
        name,
        help,
        type: 'histogram',
        aggregator: 'sum',
        values: histogramValues(name, routes),
      }),
    } as unknown as Metric);
    new Counter({
      name: 'folio_cache_lookups_total',
      help: 'Response cache lookups by result: hit_l1, hit_l2, miss, bypass (draft, release, uncacheable).',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        for (const [result, n] of Object.entries(lookups)) this.labels(result).inc(n);
      },
    });
    this.rateLimited = new Counter({
      name: 'folio_rate_limit_rejections_total',
      help: 'Requests answered 429 rate_limited.',
      labelNames: ['scope'],
      registers,
    });
    this.redisErrors = new Counter({
      name: 'folio_redis_errors_total',
      help: 'Redis commands that failed or were skipped because Redis was unreachable (local fallback used).',
      labelNames: ['op'],
      registers,
    });
    this.redisUp = new Gauge({
      name: 'folio_redis_up',
      help: '1 while Redis is connected, 0 while it is not (absent when Redis is not configured).',
      registers: [],
    });
    this.jobAttempts = new Counter({
      name: 'folio_job_attempts_total',
      help: 'Outbox job attempts run by this process, by kind and outcome: done, retry (failed, tried again later), dead (failed, given up).',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.jobFailures = new Counter({
      name: 'folio_job_failures_total',
      help: 'Failed outbox job attempts of this process by kind (retry and dead outcomes); each also logs one warn line.',
      labelNames: ['kind'],
      registers,
    });
    const loopDelay = this.loopDelay;
    new Gauge({
      name: 'folio_event_loop_delay_seconds',
      help: 'How late the event loop ran a timer due every 10 ms, over the last 30-60 s, by quantile (1: the maximum). Above 0.02 s, one request held the loop while others waited.',
      labelNames: ['quantile'],
      registers,
      collect() {
        const d = loopDelay.stats();
        this.labels('0.5').set(d.p50);
        this.labels('0.99').set(d.p99);
        this.labels('1').set(d.max);
      },
    });
    new Gauge({
      name: 'folio_event_loop_delay_mean_seconds',
      help: 'Mean of folio_event_loop_delay_seconds over the same window.',
      registers,
      collect() {
        this.set(loopDelay.stats().mean);
      },
    });
    if (options.defaultMetrics !== false)
      collectDefaultMetrics({ register: this.registry, prefix: 'folio_' });
  }

  request(route: string, method: string, status: number, seconds: number): void {
    let stats = this.routes.get(route);
    if (stats === undefined) {
      stats = new RouteStats();
      this.routes.set(route, stats);
    }
    let byStatus = stats.counts.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      stats.counts.set(method, byStatus);
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[i] as number)) i++;
    stats.buckets[i] = (stats.buckets[i] as number) + 1;
    stats.sum += seconds;
    stats.count++;
  }

  cache(result: CacheResult): void {
    this.lookups[result]++;
  }

  rejected(scope: string): void {
    this.rateLimited.labels(scope).inc();
  }

  redisError(op: string): void {
    this.redisErrors.labels(op).inc();
  }

  /**
   * The list rows index of the app (src/delivery/list/rows/rows-index.ts), read when scraped: its tables and their
   * estimated heap, its loads by result, and the published lists of one type it answered or left to SQL.
   */
  listIndex(stats: () => RowsIndexStats): void {
    const registers = [this.registry];
    new Gauge({
      name: 'folio_list_index_bytes',
      help: 'Estimated heap of the list rows held in memory (LIST_INDEX_MB bounds it).',
      registers,
      collect() {
        this.set(stats().bytes);
      },
    });
    new Gauge({
      name: 'folio_list_index_tables',
      help: 'Tables of list rows held in memory (one per space, type and row locale).',
      registers,
      collect() {
        this.set(stats().tables);
      },
    });
    new Counter({
      name: 'folio_list_index_loads_total',
      help: 'Loads of a table of list rows by result: loaded, too_large (over LIST_INDEX_MB), failed.',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        for (const [result, n] of Object.entries(stats().loads)) this.labels(result).inc(n);
      },
    });
    new Counter({
      name: 'folio_list_index_lists_total',
      help: 'Published lists the rows index can answer, by what did: memory, or sql while it held no table for them.',
      labelNames: ['answer'],
      registers,
      collect() {
        this.reset();
        for (const [answer, n] of Object.entries(stats().lists)) this.labels(answer).inc(n);
      },
    });
  }

  /** An outbox job attempt ended (the job runner's observer). */
  attempted(kind: string, outcome: 'done' | 'retry' | 'dead'): void {
    this.jobAttempts.labels(kind, outcome).inc();
    if (outcome !== 'done') this.jobFailures.labels(kind).inc();
  }

  /**
   * The outbox as the store holds it, read when scraped (so every instance and worker reports the same, shared
   * queue): jobs waiting and given up by kind, and how long the oldest has waited. A store that does not answer
   * leaves the gauges empty for that scrape (`/readyz` says why).
   */
  outbox(read: () => Promise<readonly OutboxGroup[]>, now: () => number = Date.now): void {
    // The gauges of one scrape are collected together: they share the query in flight, never an older answer.
    let inFlight: Promise<readonly OutboxGroup[]> | null = null;
    const groups = (): Promise<readonly OutboxGroup[]> => {
      inFlight ??= read()
        .catch(() => [])
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    };
    const registers = [this.registry];
    new Gauge({
      name: 'folio_outbox_jobs',
      help: 'Outbox jobs by kind and status: pending (waiting or running) and dead (given up, kept for inspection).',
      labelNames: ['kind', 'status'],
      registers,
      async collect() {
        this.reset();
        for (const g of await groups()) this.labels(g.kind, g.status).set(g.count);
      },
    });
    new Gauge({
      name: 'folio_outbox_oldest_age_seconds',
      help: 'Age of the oldest outbox job by kind and status (pending: how long the queue is behind).',
      labelNames: ['kind', 'status'],
      registers,
      async collect() {
        this.reset();
        const at = now();
        for (const g of await groups()) {
          const t = Date.parse(g.oldestAt);
          if (!Number.isNaN(t)) this.labels(g.kind, g.status).set(Math.max(0, (at - t) / 1000));
        }
      },
    });
  }

  /** The PostgreSQL pool of the store, read when scraped (SQLite has one connection and no pool: not called). */
  pool(stats: () => PoolStats): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, pick: (s: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(stats()));
        },
      });
    gauge(
      'folio_db_pool_connections',
      'Connections the PostgreSQL pool holds open (at most 10).',
      (s) => s.total,
    );
    gauge('folio_db_pool_idle_connections', 'Open pool connections not in use.', (s) => s.idle);
    gauge(
      'folio_db_pool_waiting_requests',
      'Queries waiting for a pool connection (above 0 for long: the pool is the bottleneck).',
      (s) => s.waiting,
    );
  }

  /** Stops sampling the event loop (the app's onClose). */
  close(): void {
    this.loopDelay.close();
  }

  /** Registers the gauge on first use: installations without Redis do not report it. */
  redisState(up: boolean): void {
    if (!this.registry.getSingleMetric('folio_redis_up')) this.registry.registerMetric(this.redisUp);
    this.redisUp.set(up ? 1 : 0);
  }
}

function histogramValues(name: string, routes: Map<string, RouteStats>): MetricValue[] {
  const values: MetricValue[] = [];
  for (const [route, stats] of routes) {
    let cumulative = 0;
    LATENCY_BUCKETS.forEach((le, i) => {
      cumulative += stats.buckets[i] as number;
      values.push({ labels: { route, le }, value: cumulative, metricName: `${name}_bucket` });
    });
    values.push({ labels: { route, le: '+Inf' }, value: stats.count, metricName: `${name}_bucket` });
    values.push({ labels: { route }, value: stats.sum, metricName: `${name}_sum` });
    values.push({ labels: { route }, value: stats.count, metricName: `${name}_count` });
  }
  return values;
}
