import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors/errors.js';
import { type Scope, SCOPES } from '../lib/scope-names.js';
import type { TokenRow } from '../store/tokens-repo.js';

// The names and what each grants live in a leaf (src/lib/scope-names.ts): the store checks stored scopes with them.
export { isScope, parseScopes, type Scope, SCOPES } from '../lib/scope-names.js';

/** The token's scopes: null (stored without) is every scope. */
export function scopesOf(token: Pick<TokenRow, 'scopes'>): readonly Scope[] {
  return token.scopes ?? SCOPES;
}

export function hasScope(token: Pick<TokenRow, 'scopes'> | null, scope: Scope): boolean {
  return token !== null && scopesOf(token).includes(scope);
}

/** 403 `forbidden` unless the request's management token has every scope named. */
export function requireScopes(request: FastifyRequest, ...needed: Scope[]): void {
  const token = request.managementToken;
  const missing = needed.filter((s) => !hasScope(token, s));
  if (missing.length > 0) {
    throw forbidden(`This token lacks the scope ${missing.join(' and ')}.`, {
      details: { missingScopes: missing },
    });
  }
}

/**
 * 403 `forbidden` unless the request's management token has at least one of the scopes named (reads that several
 * roles need: the inbox reads form definitions for their labels). `details.anyOf` says one of them is enough.
 */
export function requireAnyScope(request: FastifyRequest, ...anyOf: Scope[]): void {
  const token = request.managementToken;
  if (anyOf.some((s) => hasScope(token, s))) return;
  throw forbidden(`This token lacks the scope ${anyOf.join(' or ')}.`, {
    details: { missingScopes: anyOf, anyOf: true },
  });
}

/**
 * Routing answers is reading them: a change that sends visitors' answers somewhere they did not go
 * before (a webhook endpoint receiving `form.submitted`; a form's `notify`, `notifyRules`, `chatWebhookUrl` or
 * `confirmationEmail`) needs `forms.read` besides the scope of the change itself. `routing` names what the change
 * would route; empty, it routes nothing new and needs nothing more.
 */
export function requireRoutingScope(
  token: Pick<TokenRow, 'scopes'> | null,
  routing: readonly string[],
): void {
  if (routing.length === 0 || hasScope(token, 'forms.read')) return;
  throw forbidden(
    `Routing answers is reading them: this change of ${routing.join(', ')} sends visitors' answers somewhere, which needs the scope forms.read as well.`,
    { details: { missingScopes: ['forms.read'], routing } },
  );
}
