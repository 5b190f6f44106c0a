// Browser sessions of the inbox: a management token exchanged once for an HttpOnly cookie. The session
// is only another way to present the token: every request reads the session and then the token it stands for
// from the store, so the scopes checked are the token's own, a revoked token (its row deleted, its sessions with
// it by foreign key) ends its sessions on every instance at once, and any instance behind a load balancer serves
// them. The token's value is never stored (its hash is, as in `tokens`); the session id is stored as its sha256.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { ManagementSessions } from '../auth/session-auth.js';
import { hashToken, sameHash } from '../auth/tokens.js';
import { forbidden } from '../errors/errors.js';
import type { Store } from '../store/open-store.js';
import { deriveKey } from '../store/secrets-repo.js';
import { findTokenByHash, type TokenRow } from '../store/tokens-repo.js';
import {
  deleteExpiredSessions,
  deleteSession,
  findLiveSession,
  insertSession,
  type SessionRow,
  touchSession,
} from './sessions-repo.js';

/**
 * The cookie's name: one per origin (path `/`, so it reaches both `/inbox/` and `/v1/spaces/…`). Over HTTPS
 * (PUBLIC_URL) `__Host-folio_inbox`: a browser accepts that name only with `Secure`, path `/` and no `Domain`, so
 * a sibling subdomain or a plain-HTTP page cannot plant or overwrite it. A browser refuses `Secure` cookies from
 * plain HTTP, so an installation without TLS (a laptop, a test) keeps the plain name.
 */
export const SESSION_COOKIE = 'folio_inbox';
export const SECURE_SESSION_COOKIE = '__Host-folio_inbox';
/** The header the inbox page sends on its own timed requests (polls): they never extend a session. */
export const BACKGROUND_HEADER = 'folio-background';
/** The header an unsafe request repeats the session's CSRF token in (a cross-site page can neither read nor set it). */
export const CSRF_HEADER = 'x-folio-csrf';
/** Idle limit: a session unused this long has ended (12 h). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** Absolute limit by default (INBOX_SESSION_MAX_AGE_HOURS): a session ends this long after sign-in, used or not. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** The idle limit is moved on at most this often per session (one write a minute, not one per request). */
const TOUCH_EVERY_MS = 60 * 1000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface SignedIn {
  /** The cookie's value (the session id): answered once, in `Set-Cookie`. */
  id: string;
  token: TokenRow;
  expiresAt: string;
}

export interface SessionOptions {
  /** The absolute lifetime of a session (INBOX_SESSION_MAX_AGE_HOURS). */
  maxAgeMs: number;
  /** PUBLIC_URL is https: the cookie is `__Host-folio_inbox`, always `Secure`. */
  https: boolean;
}

export class InboxSessions implements ManagementSessions {
  private readonly csrfKey: Buffer;
  /** The cookie's name (see SECURE_SESSION_COOKIE). */
  readonly cookieName: string;

  constructor(
    private readonly store: Store,
    masterKey: Buffer,
    private readonly clock: () => Date,
    private readonly options: SessionOptions = { maxAgeMs: SESSION_MAX_AGE_MS, https: false },
  ) {
    this.csrfKey = deriveKey(masterKey, 'inbox-csrf');
    this.cookieName = options.https ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  }

  /** The session's end if unused from `now` on: the idle limit, never past the absolute one. */
  private endAt(createdAt: string, now: Date): string {
    const idle = now.getTime() + SESSION_IDLE_MS;
    return new Date(Math.min(idle, Date.parse(createdAt) + this.options.maxAgeMs)).toISOString();
  }

  /** Sessions signed in before this have ended, however recently used. */
  private bornAfter(now: Date): string {
    return new Date(now.getTime() - this.options.maxAgeMs).toISOString();
  }

  /** Opens a session for a management token already checked by the caller; forgets expired sessions first. */
  async open(token: TokenRow): Promise<SignedIn> {
    const now = this.clock();
    await deleteExpiredSessions(this.store, now.toISOString(), this.bornAfter(now));
    const id = randomBytes(32).toString('base64url');
    const expiresAt = this.endAt(now.toISOString(), now);
    await insertSession(this.store, {
      idHash: hashToken(id),
      spaceId: token.spaceId,
      tokenId: token.id,
      tokenHash: token.hash,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt,
    });
    return { id, token, expiresAt };
  }

  /** The request's live session and its token; null without one (no cookie, unknown, expired, token revoked). */
  async current(
    request: FastifyRequest,
  ): Promise<{ id: string; session: SessionRow; token: TokenRow } | null> {
    const id = this.sessionIdOf(request);
    if (id === null) return null;
    const now = this.clock();
    const idHash = hashToken(id);
    const session = await findLiveSession(this.store, idHash, now.toISOString(), this.bornAfter(now));
    // Looked up by hash; compared once more in constant time before it is trusted (as tokens are).
    if (!session || !sameHash(session.idHash, idHash)) return null;
    const token = await findTokenByHash(this.store, session.tokenHash);
    if (!token || token.id !== session.tokenId || token.kind !== 'management') return null;
    // Only a person's request moves the idle limit on: the page's own polls say so in a header, and an open tab
    // nobody looks at must not keep its session alive.
    const background = request.headers[BACKGROUND_HEADER] !== undefined;
    if (!background && now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_EVERY_MS) {
      const expiresAt = this.endAt(session.createdAt, now);
      await touchSession(this.store, idHash, now.toISOString(), expiresAt);
      session.lastSeenAt = now.toISOString();
      session.expiresAt = expiresAt;
    }
    return { id, session, token };
  }

  /**
   * The management auth's cookie path: refuses cross-site requests and unsafe ones without the CSRF header
   * (before the store is asked), then answers the session's token.
   */
  async authenticate(request: FastifyRequest): Promise<TokenRow | null> {
    const id = this.sessionIdOf(request);
    if (id === null) return null;
    refuseCrossSite(request);
    if (!SAFE_METHODS.has(request.method) && !this.csrfMatches(id, request.headers[CSRF_HEADER]))
      throw forbidden(`A request made with the inbox session needs its CSRF token in ${CSRF_HEADER}.`);
    return (await this.current(request))?.token ?? null;
  }

  async close(request: FastifyRequest): Promise<boolean> {
    const id = this.sessionIdOf(request);
    return id === null ? false : deleteSession(this.store, hashToken(id));
  }

  /** The session's CSRF token: an HMAC of its id, so nothing more is stored and every instance derives the same. */
  csrfToken(id: string): string {
    return createHmac('sha256', this.csrfKey).update(id).digest('base64url');
  }

  csrfMatches(id: string, presented: unknown): boolean {
    if (typeof presented !== 'string') return false;
    const a = Buffer.from(this.csrfToken(id));
    const b = Buffer.from(presented);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** The session id from the request's cookie, when it has the shape of one. */
  sessionIdOf(request: FastifyRequest): string | null {
    const header = request.headers.cookie;
    if (typeof header !== 'string' || !header.includes(this.cookieName)) return null;
    const value = parseCookies(header)[this.cookieName];
    return value !== undefined && SESSION_ID.test(value) ? value : null;
  }

  /**
   * `Set-Cookie` for a new session: HttpOnly, SameSite=Strict, Secure over HTTPS (always with the `__Host-` name);
   * no Max-Age (the limits are the server's).
   */
  cookie(request: FastifyRequest, id: string): string {
    return serializeCookie(this.cookieName, id, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.options.https || request.protocol === 'https',
      path: '/',
    });
  }

  /** `Set-Cookie` that makes the browser forget the session. */
  clearedCookie(request: FastifyRequest): string {
    return serializeCookie(this.cookieName, '', {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.options.https || request.protocol === 'https',
      path: '/',
      maxAge: 0,
    });
  }
}

/**
 * Cross-site requests are refused (403): a browser says where a request comes from in `Sec-Fetch-Site` (only
 * `same-origin`, or `none` for a typed address, pass) and, on posts, in `Origin` (it must be this host). The
 * SameSite=Strict cookie keeps other sites' requests from carrying the session anyway; this holds for browsers
 * that send it regardless and for sibling subdomains, which count as the same site.
 */
export function refuseCrossSite(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none')
    throw forbidden('Cross-site requests to the inbox are refused.');
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== `${request.protocol}://${request.host}`)
    throw forbidden('Cross-site requests to the inbox are refused.');
}
