// Authoring forms through the management API (spec 4.5, 2.10–2.12, 3.4): validate with precise JSON paths,
// then store and publish in one transaction (saving a form bumps cv).

import { isDeepStrictEqual } from 'node:util';
import { recordActivity } from '../../activity/activity-repo.js';
import { requireRoutingScope } from '../../auth/scopes.js';
import { conflict, notFound } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { withPublish } from '../../content/publish-log.js';
import { getSpace, type SpaceRow } from '../../store/spaces-repo.js';
import { hasUnstorableText } from '../submission/controls.js';
import { invalid } from '../../content/context.js';
import { validateFormDefinition } from '../definition/index.js';
import {
  deleteAuthoredForm,
  getAuthoredForm,
  listKeysAt,
  publishForm,
  unpublishForm,
  upsertAuthoredForm,
} from './forms-repo.js';
import type { FormDefinition, FormSettings } from '../rules/index.js';
import type { TokenRow } from '../../store/tokens-repo.js';
import { listSubmissions } from '../submission/submissions-repo.js';

async function spaceOf(store: Store, spaceId: string): Promise<SpaceRow> {
  const space = await getSpace(store, spaceId);
  if (!space) throw notFound(`Space "${spaceId}" not found.`);
  return space;
}

/** Checks a definition against the space (its locales and published option lists). */
export async function checkDefinition(
  store: Store,
  space: SpaceRow,
  input: unknown,
): Promise<FormDefinition> {
  // PostgreSQL's text and jsonb reject NUL and unpaired surrogates: refuse them here instead of failing there.
  if (hasUnstorableText(input)) {
    const message = 'must not contain NUL characters or unpaired surrogates';
    throw invalid('form definition', [{ path: '', message }]);
  }
  const result = validateFormDefinition(input, {
    listKeys: await listKeysAt(store, space.id, space.cv),
    locales: space.settings.locales.map((l) => l.code),
  });
  if (result.ok) return result.form;
  throw invalid('form definition', result.errors);
}

/** The settings that send a visitor's answers somewhere: by email, to a chat, back to the visitor. */
export const ROUTING_SETTINGS = ['notify', 'notifyRules', 'chatWebhookUrl', 'confirmationEmail'] as const;

/** A routing setting's value with "none" spelled one way: left out, `[]` and `null` all route nothing. */
function routingValue(settings: FormSettings, key: (typeof ROUTING_SETTINGS)[number]): unknown {
  const value = settings[key];
  if (value === undefined || value === null) return null;
  return Array.isArray(value) && value.length === 0 ? null : value;
}

/**
 * The routing settings a save changes (`settings.notify`, …): against the stored definition, or against none for a
 * new form, so a form created with routing needs `forms.read` and a replace that keeps the same values does not.
 */
export function routingChanges(before: FormDefinition | null, after: FormDefinition): string[] {
  return ROUTING_SETTINGS.filter(
    (key) => !isDeepStrictEqual(routingValue(before?.settings ?? {}, key), routingValue(after.settings, key)),
  ).map((key) => `settings.${key}`);
}

/** Who saves: the management token (its id goes into the activity log; its scopes decide routing changes). */
export type FormCaller = Pick<TokenRow, 'id' | 'scopes'>;

export interface SaveResult {
  form: FormDefinition;
  cv: number;
  created: boolean;
}

/**
 * `create` fails with 409 when the key exists; `replace` creates or replaces the form at `key` (the body's key,
 * when given, must be the same). The existence check runs inside the publish transaction, whose cv bump locks
 * the space row, so two creates of one key cannot both succeed. With a `caller` (the management token) the activity
 * log records `form.created` or `form.updated` in the same transaction, and a change of the routing settings needs
 * its `forms.read` (403 otherwise), decided against the stored definition read under that lock.
 */
export async function saveForm(
  store: Store,
  spaceId: string,
  input: unknown,
  mode: { kind: 'create' } | { kind: 'replace'; key: string },
  caller?: FormCaller,
): Promise<SaveResult> {
  const space = await spaceOf(store, spaceId);
  let body = input;
  if (mode.kind === 'replace' && typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const given = (input as Record<string, unknown>).key;
    if (given !== undefined && given !== mode.key) {
      throw invalid('form definition', [{ path: 'key', message: `must be "${mode.key}" (the URL's key)` }]);
    }
    body = { ...input, key: mode.key };
  }
  const form = await checkDefinition(store, space, body);
  const { cv, result } = await withPublish(store, space.id, async (tx, cv) => {
    let routing: string[] = [];
    if (caller !== undefined) {
      const stored = await getAuthoredForm(store, space.id, form.key, tx);
      if (stored !== null && mode.kind === 'create') throw conflict(`Form "${form.key}" already exists.`);
      routing = routingChanges(stored, form);
      requireRoutingScope(caller, routing);
    }
    const existed = await upsertAuthoredForm(tx, space.id, form, new Date().toISOString());
    if (existed && mode.kind === 'create') throw conflict(`Form "${form.key}" already exists.`);
    await publishForm(tx, space.id, cv, form);
    if (caller !== undefined) {
      const action = existed ? 'form.updated' : 'form.created';
      // Which routing settings changed (names, never the addresses or URLs): who sent answers where.
      const details = routing.length === 0 ? { cv } : { cv, routing: routing.join(',') };
      await recordActivity(tx, { spaceId: space.id, actor: caller.id, action, subject: form.key, details });
    }
    return !existed;
  });
  return { form, cv, created: result };
}

/**
 * Deletes a form (a publish: entries' form fields then deliver `definition: null`). Its submissions, their
 * uploads and its capacity counter stay: each submission keeps its own `delete_after` (spec 3.2) and is listed
 * and swept like any other (src/forms/retention).
 */
export async function deleteForm(
  store: Store,
  spaceId: string,
  key: string,
  actor?: string,
): Promise<{ cv: number }> {
  const space = await spaceOf(store, spaceId);
  const { cv } = await withPublish(store, space.id, async (tx, cv) => {
    if (!(await deleteAuthoredForm(tx, space.id, key))) throw notFound(`Form "${key}" not found.`);
    await unpublishForm(tx, space.id, key, cv);
    if (actor !== undefined) {
      const action = 'form.deleted';
      await recordActivity(tx, { spaceId: space.id, actor, action, subject: key, details: { cv } });
    }
  });
  return { cv };
}

/**
 * A definition as a token without `forms.write` reads it (inbox screens need its labels): the credentials in it are
 * left out, since a secret is a write-level thing. `turnstileSecret` signs challenges; `chatWebhookUrl` is a bearer
 * credential (whoever holds a Slack-style incoming webhook URL may post to the channel).
 */
export function withoutSecrets(form: FormDefinition): FormDefinition {
  if (!('turnstileSecret' in form.settings) && !('chatWebhookUrl' in form.settings)) return form;
  const { turnstileSecret: _secret, chatWebhookUrl: _chat, ...settings } = form.settings;
  return { ...form, settings };
}

/**
 * What `GET …/forms/<key>/submissions` answers 404 for: neither an authored form nor any stored submission under
 * the key. A deleted form's submissions stay reachable until their retention ends (spec 3.2).
 */
export async function hasFormOrSubmissions(store: Store, spaceId: string, key: string): Promise<boolean> {
  if (await getAuthoredForm(store, spaceId, key)) return true;
  for (const folder of ['inbox', 'spam'] as const) {
    const page = await listSubmissions(store, spaceId, key, { folder, limit: 1, after: null });
    if (page.items.length > 0) return true;
  }
  return false;
}
