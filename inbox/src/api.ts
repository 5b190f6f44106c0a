// Calls to Folio from the page: the management API and /inbox/session, with the session cookie (sent by the
// browser, never seen here) and the session's CSRF token on unsafe methods. Answers are read through the
// checkers of read.ts, not cast.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = undefined,
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSessionEnded: () => void = () => {};

export function useSession(csrf: string, ended: () => void): void {
  csrfToken = csrf;
  onSessionEnded = ended;
}

export function forgetSession(): void {
  csrfToken = '';
}

async function errorOf(res: Response): Promise<ApiError> {
  let code = 'http_error';
  let message = `The server answered ${res.status}.`;
  let details: unknown;
  try {
    const body: unknown = await res.json();
    const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    if (typeof error === 'object' && error !== null) {
      const e = error as { code?: unknown; message?: unknown; details?: unknown };
      if (typeof e.code === 'string') code = e.code;
      if (typeof e.message === 'string') message = e.message;
      details = e.details;
    }
  } catch {
    // Not the envelope (a proxy's page): the status says enough.
  }
  return new ApiError(res.status, code, message, details);
}

/**
 * One call; JSON in and out. A 401 on the management API means the session ended (sign-out, expiry, revocation).
 * `background`: the page's own timed request (a poll), not a person's: it says so in `Folio-Background`, and the
 * server then leaves the session's idle limit where it was, so an open tab nobody uses still ends.
 */
export async function call(
  method: string,
  path: string,
  body?: unknown,
  opts: { background?: boolean } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.background === true) headers['folio-background'] = '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== '') headers['x-folio-csrf'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Folio could not be reached. Check the connection and try again.');
  }
  if (!res.ok) {
    const error = await errorOf(res);
    if (res.status === 401 && path.startsWith('/v1/')) onSessionEnded();
    throw error;
  }
  return res.json();
}

/** `/v1/spaces/<space>` and the rest, each segment encoded. */
export function spacePath(spaceId: string, ...segments: string[]): string {
  return ['/v1/spaces', spaceId, ...segments].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}

export function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}
