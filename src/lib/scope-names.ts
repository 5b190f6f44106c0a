/**
 * What a management token may do (spec 4.5: "Only roles with the `forms.read` permission see submissions"):
 *
 * | scope           | grants                                                                                  |
 * | --------------- | --------------------------------------------------------------------------------------- |
 * | `content.write` | the content management API: entries, assets, menus, redirects, lists, releases, webhooks |
 * | `forms.write`   | form definitions: create, replace, delete; deleting submissions (with `forms.read`)     |
 * | `forms.read`    | submissions: list, search, read, export, files, notes, status, assignment, spam folder |
 * | `forms.erase`   | `POST /forms/erase` (a visitor's right to be forgotten)                                 |
 * | `tokens.admin`  | the token API (list, create, revoke) and the activity log                               |
 *
 * A token stored without scopes (every token created before migration 0009) has them all.
 */
export const SCOPES = ['content.write', 'forms.write', 'forms.read', 'forms.erase', 'tokens.admin'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** A list of scopes from outside (CLI, API, the store's JSON): checked, de-duplicated, in registry order. */
export function parseScopes(value: unknown): { ok: true; scopes: Scope[] } | { ok: false; problem: string } {
  const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
  if (!Array.isArray(items) || items.length === 0)
    return { ok: false, problem: `must name at least one of ${SCOPES.join(', ')}` };
  const bad = items.find((s) => !isScope(s));
  if (bad !== undefined)
    return { ok: false, problem: `"${String(bad).slice(0, 40)}" is not a scope (${SCOPES.join(', ')})` };
  return { ok: true, scopes: SCOPES.filter((s) => items.includes(s)) };
}
