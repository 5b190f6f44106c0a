/**
 * Whether an error means the store cannot be reached (rather than a bug): connection refused, reset or timed
 * out, PostgreSQL's connection-exception and shutdown states, SQLite's busy or I/O failures. Such a request
 * answers 503 `unavailable` (the service degrades, it does not break), never a 500.
 */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
]);

const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|driver has already been destroyed/i;

export function isStoreUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (MESSAGES.test(e.message)) return true;
    // AggregateError (a host with several addresses refused on each)
    if (e instanceof AggregateError && e.errors.some((inner) => isStoreUnavailable(inner))) return true;
  }
  return false;
}
