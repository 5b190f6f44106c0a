import pg from 'pg';
import type { Log } from '../observability/log.js';
import type { SpaceVersion } from './space-directory.js';

export interface PgCvListenerOptions {
  url: string;
  schema: string | undefined;
  onVersion: (version: SpaceVersion) => void;
  /** A token revocation committed (`NOTIFY folio_tokens`, migration 0010). */
  onTokenGen?: (spaceId: string, gen: number) => void;
  /** Called after every (re)connection: notifications sent while disconnected are lost, so catch up. */
  onConnected: () => void;
  log: Log;
}

/**
 * `LISTEN folio_cv` on a dedicated connection (the trigger of migration 0006 notifies on commit), and
 * `LISTEN folio_tokens` (revocations, migration 0010) when asked for. Reconnects
 * with a bounded backoff forever, so a restarted PostgreSQL needs no restart of Folio.
 */
export class PgCvListener {
  private client: pg.Client | null = null;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private schema = '';

  constructor(private readonly options: PgCvListenerOptions) {}

  start(): void {
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const { url, schema } = this.options;
    const client = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    });
    this.client = client;
    let gone = false;
    const lost = (err?: Error) => {
      if (gone) return;
      gone = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      if (this.closed) return;
      if (this.failures++ === 0)
        this.options.log.warn({ err: err?.message }, 'lost the cv notification channel; reconnecting');
      this.timer = setTimeout(
        () => void this.connect(),
        Math.min(100 * 2 ** Math.min(this.failures, 5), 2000),
      );
      this.timer.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      if (msg.channel === 'folio_cv' && msg.payload) this.handle(msg.payload);
      else if (msg.channel === 'folio_tokens' && msg.payload) this.handleTokens(msg.payload);
    });
    try {
      await client.connect();
      const res = await client.query<{ s: string }>('select current_schema() as s');
      this.schema = res.rows[0]?.s ?? 'public';
      await client.query('listen folio_cv');
      if (this.options.onTokenGen) await client.query('listen folio_tokens');
      if (this.closed) return void client.end().catch(() => {});
      if (this.failures > 0) this.options.log.info({}, 'cv notification channel is back');
      this.failures = 0;
      this.options.onConnected();
    } catch (err) {
      lost(err as Error);
    }
  }

  private handle(payload: string): void {
    // `<schema> <cv> <min_cv> <space id>`: the id goes last, so it may hold any character.
    const m = /^(\S+) (\d+) (\d+) (.+)$/s.exec(payload);
    if (!m || m[1] !== this.schema) return;
    this.options.onVersion({ id: m[4] as string, cv: Number(m[2]), minCv: Number(m[3]) });
  }

  private handleTokens(payload: string): void {
    // `<schema> <token_gen> <space id>` (migration 0010).
    const m = /^(\S+) (\d+) (.+)$/s.exec(payload);
    if (!m || m[1] !== this.schema) return;
    this.options.onTokenGen?.(m[3] as string, Number(m[2]));
  }
}
