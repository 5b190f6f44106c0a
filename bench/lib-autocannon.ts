import { createRequire } from 'node:module';

/** The part of autocannon's result the benches read (it ships no types). */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  '2xx': number;
  duration: number;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Requests each connection sends in turn, cycling (paths with their query, on `url`'s origin). */
  requests?: { method?: 'GET'; path: string }[];
}

/** autocannon, loaded through require (CommonJS without types), typed by what the benches use. */
export const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;
