// Plain HTML posts that come back whole: when a post without JavaScript fails, the values the visitor typed are
// kept server-side for ten minutes under a random id, which the error redirect carries (`&draft=<id>`); the site
// reads them back with the form's public token and shows them again — on every reload of that page within the ten
// minutes, so a reload never empties the form. Never file
// fields (they cannot come back into a file input), never posts to a Turnstile form (no challenge was passed, and
// such forms cannot be sent without JavaScript anyway), never a spam post (it is answered as a success).

import { randomBase62 } from '../../lib/ids.js';
import type { Store } from '../../store/open-store.js';
import { currentSpace } from '../delivery/current-space.js';
import type { FormSource } from '../delivery/form-source.js';
import { type FormField, isSubmittedType, usesTurnstile } from '../rules/index.js';
import { findDraft, insertDraft } from './drafts-repo.js';

/** How long a draft can be read (docs/operations.md "Privacy"). */
export const DRAFT_TTL_MS = 10 * 60_000;
/** `drf_` and 24 base62 characters: 142 random bits. */
export const DRAFT_ID = /^drf_[0-9A-Za-z]{24}$/;

/** The codes whose posts keep a draft: the visitor can fix them by editing what they typed. */
export const DRAFT_CODES: ReadonlySet<string> = new Set(['validation_failed', 'already_submitted']);

/** A kept value: what a form control can show again. */
export type DraftValue = string | boolean | string[];

function keptValue(value: unknown): DraftValue | undefined {
  if (typeof value === 'string') return value.length <= 10_000 ? value : undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (Array.isArray(value) && value.length <= 100 && value.every((v) => typeof v === 'string'))
    return value.map(String);
  return undefined;
}

/** The non-file values of the form's fields in a body; other keys (controls, the trap, unknown names) are left. */
export function draftValues(
  body: Readonly<Record<string, unknown>>,
  fields: readonly FormField[],
): Record<string, DraftValue> {
  const out: Record<string, DraftValue> = {};
  for (const field of fields) {
    if (!isSubmittedType(field.type) || field.type === 'file' || !Object.hasOwn(body, field.key)) continue;
    const value = keptValue(body[field.key]);
    if (value !== undefined) out[field.key] = value;
  }
  return out;
}

/** Keeps a draft of a failed post and answers its id; null when nothing is kept (see above). */
export async function keepDraft(
  deps: { store: Store; forms: FormSource },
  post: { spaceId: string; formKey: string; body: Readonly<Record<string, unknown>>; now: Date },
): Promise<string | null> {
  const space = await currentSpace(deps.store, post.spaceId);
  const form = space ? await deps.forms.load(space.id, post.formKey, space.cv) : null;
  if (!space || !form || usesTurnstile(form.definition.settings)) return null;
  const values = draftValues(post.body, form.definition.fields);
  if (Object.keys(values).length === 0) return null;
  const id = `drf_${randomBase62(24)}`;
  await insertDraft(
    deps.store.db,
    {
      id,
      spaceId: space.id,
      formKey: form.definition.key,
      values: JSON.stringify(values),
      expiresAt: new Date(post.now.getTime() + DRAFT_TTL_MS),
    },
    post.now,
  );
  return id;
}

/** Reads a draft (it stays until its ten minutes are over); null when unknown or expired. */
export async function readDraft(
  store: Store,
  key: { spaceId: string; formKey: string; id: string },
  now: Date,
): Promise<Record<string, DraftValue> | null> {
  if (!DRAFT_ID.test(key.id)) return null;
  const text = await findDraft(store.db, key, now);
  if (text === null) return null;
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const out: Record<string, DraftValue> = {};
  for (const [k, v] of Object.entries(parsed)) {
    const value = keptValue(v);
    if (value !== undefined) out[k] = value;
  }
  return out;
}
