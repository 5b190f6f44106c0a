// Authoring checks of form settings (spec 2.12, 4.4 submission rules 4 and 6, limits of spec 8).

import { isValidDate } from '../rules/dates.js';
import { isEmail, isHttpUrl } from '../rules/field-checks.js';
import { checkCondition } from './check-condition.js';
import type { FieldRef } from './check-condition.js';
import { at, isObject } from './issues.js';
import type { Obj, Issues } from './issues.js';

/** spec 8 limits. */
export const MAX_NOTIFY_ADDRESSES = 10;
export const MAX_ROUTED_RECIPIENTS = 20;

const SETTINGS_KEYS = new Set([
  'active',
  'opensAt',
  'closesAt',
  'maxSubmissions',
  'uniqueField',
  'successMessage',
  'closedMessage',
  'honeypot',
  'turnstileSiteKey',
  'turnstileSecret',
  'retentionDays',
  'notify',
  'notifyRules',
  'chatWebhookUrl',
  'confirmationEmail',
  'trustVisitorIp',
  'notifySubject',
  'notifyIntro',
]);

// ISO 8601 with a time zone designator; at most millisecond precision (the spec's timestamp form).
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-](\d{2}):(\d{2}))$/;

export function isTimestamp(text: string): boolean {
  const m = TIMESTAMP.exec(text);
  if (!m || !isValidDate(m[1] ?? '')) return false;
  const n = (group: number): number => Number(m[group] ?? 0);
  return (
    n(2) <= 23 && n(3) <= 59 && n(4) <= 59 && n(6) <= 23 && n(7) <= 59 && !Number.isNaN(Date.parse(text))
  );
}

export interface SettingsCheckContext {
  issues: Issues;
  locales: readonly string[];
  fields: ReadonlyMap<string, FieldRef>;
}

export interface CheckedSettings {
  turnstile: boolean;
  honeypot: string | undefined;
}

export function checkSettings(ctx: SettingsCheckContext, settings: Obj): CheckedSettings {
  const { issues } = ctx;
  const path = 'settings';
  issues.unknownKeys(settings, path, SETTINGS_KEYS, 'form settings');
  issues.boolean(settings, 'active', path);
  checkSchedule(issues, settings, path);
  issues.nullable(settings, 'maxSubmissions', () =>
    issues.number(settings, 'maxSubmissions', path, { integer: true, min: 1 }),
  );
  issues.number(settings, 'retentionDays', path, { integer: true, min: 1 });
  issues.nullable(settings, 'chatWebhookUrl', () => {
    const url = issues.string(settings, 'chatWebhookUrl', path);
    if (url !== undefined && !isHttpUrl(url))
      issues.add(at(path, 'chatWebhookUrl'), 'must be an http(s) link');
    return url;
  });

  const unique = issues.nullable(settings, 'uniqueField', () => issues.string(settings, 'uniqueField', path));
  if (typeof unique === 'string' && ctx.fields.get(unique)?.type !== 'email') {
    issues.add(at(path, 'uniqueField'), `must name an email field ("${unique}" is not one)`);
  }

  // Honour `Folio-Visitor-Ip` from server-side tokens for this form (src/ratelimit/visitors.ts).
  issues.boolean(settings, 'trustVisitorIp', path);
  // The owner email's subject and intro, per locale, with placeholders.
  for (const key of ['notifySubject', 'notifyIntro'] as const) {
    checkLocaleMap(ctx, settings[key], at(path, key));
    const map = settings[key];
    if (typeof map === 'object' && map !== null)
      for (const [locale, text] of Object.entries(map))
        if (typeof text === 'string' && text.length > (key === 'notifySubject' ? 200 : 2000))
          issues.add(at(at(path, key), locale), 'is too long');
  }
  checkLocaleMap(ctx, settings['successMessage'], at(path, 'successMessage'));
  checkLocaleMap(ctx, settings['closedMessage'], at(path, 'closedMessage'));
  const honeypot = issues.string(settings, 'honeypot', path);
  if (honeypot !== undefined && !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(honeypot)) {
    issues.add(at(path, 'honeypot'), 'must be a letter followed by up to 63 letters, digits, _ or -');
  }

  const turnstile = checkTurnstile(issues, settings, path);
  checkRecipients(ctx, settings, path);
  checkConfirmationEmail(ctx, settings, path, turnstile);
  return { turnstile, honeypot };
}

function checkSchedule(issues: Issues, settings: Obj, path: string): void {
  const stamp = (key: string): string | null | undefined =>
    issues.nullable(settings, key, () => {
      const value = issues.string(settings, key, path);
      if (value === undefined || isTimestamp(value)) return value;
      issues.add(at(path, key), 'must be an ISO 8601 timestamp such as 2026-01-31T09:00:00.000Z');
      return undefined;
    });
  const opensAt = stamp('opensAt');
  const closesAt = stamp('closesAt');
  if (
    typeof opensAt === 'string' &&
    typeof closesAt === 'string' &&
    Date.parse(opensAt) >= Date.parse(closesAt)
  ) {
    issues.add(at(path, 'opensAt'), 'must be before closesAt');
  }
}

/** successMessage, closedMessage, confirmation email texts: locale → text, locales of the space. */
function checkLocaleMap(ctx: SettingsCheckContext, value: unknown, path: string, required = false): void {
  if (value === undefined) {
    if (required) ctx.issues.add(path, 'is required');
    return;
  }
  if (!isObject(value) || (required && Object.keys(value).length === 0)) {
    ctx.issues.add(
      path,
      `must be an object mapping locale to text${required ? ', with at least one locale' : ''}`,
    );
    return;
  }
  for (const [locale, text] of Object.entries(value)) {
    if (!ctx.locales.includes(locale)) {
      ctx.issues.add(
        at(path, locale),
        `unknown locale "${locale}" (space locales: ${ctx.locales.join(', ')})`,
      );
    } else if (typeof text !== 'string' || text.trim() === '')
      ctx.issues.add(at(path, locale), 'must be a non-empty string');
  }
}

/** spec 2.12: both keys or neither; returns whether the form uses Turnstile. */
function checkTurnstile(issues: Issues, settings: Obj, path: string): boolean {
  const key = (name: string): string | null =>
    issues.nullable(settings, name, () => issues.string(settings, name, path, { nonEmpty: true })) ?? null;
  const siteKey = key('turnstileSiteKey');
  const secret = key('turnstileSecret');
  if ((siteKey === null) !== (secret === null)) {
    issues.add(
      at(path, siteKey === null ? 'turnstileSiteKey' : 'turnstileSecret'),
      'turnstileSiteKey and turnstileSecret must be set together',
    );
  }
  return siteKey !== null && secret !== null;
}

/** Email list members: valid addresses without repeats. Returns how many entries the list has. */
function checkAddresses(issues: Issues, list: unknown, path: string, max: number | null): number {
  if (!Array.isArray(list)) {
    issues.add(path, 'must be an array of email addresses');
    return 0;
  }
  if (max !== null && list.length > max) issues.add(path, `allows at most ${max} addresses (spec 8)`);
  const seen = new Set<string>();
  list.forEach((address, i) => {
    if (typeof address !== 'string' || !isEmail(address)) issues.add(at(path, i), 'must be an email address');
    else if (seen.has(address.toLowerCase())) issues.add(at(path, i), `duplicate address "${address}"`);
    else seen.add(address.toLowerCase());
  });
  return list.length;
}

// spec 4.4 rule 6 / 8: up to 10 notification addresses; routing rules add recipients by conditions. The cap of 20
// is per submission (only the rules that match add theirs; src/forms/notify/recipients.ts applies it), so authoring
// caps each list on its own and never the sum of every rule.
function checkRecipients(ctx: SettingsCheckContext, settings: Obj, path: string): void {
  const { issues } = ctx;
  if (settings['notify'] !== undefined) {
    checkAddresses(issues, settings['notify'], at(path, 'notify'), MAX_NOTIFY_ADDRESSES);
  }
  const rules = settings['notifyRules'];
  if (rules === undefined) return;
  const rulesPath = at(path, 'notifyRules');
  if (!Array.isArray(rules)) {
    issues.add(rulesPath, 'must be an array of { when, to }');
    return;
  }
  rules.forEach((rule, i) => {
    const p = at(rulesPath, i);
    if (!isObject(rule)) {
      issues.add(p, 'must be an object with when and to');
      return;
    }
    issues.unknownKeys(rule, p, new Set(['when', 'to']), 'notification rules');
    // Routing runs on the validated submission, so `when` may name any submitted field.
    checkCondition(issues, rule['when'], at(p, 'when'), ctx.fields, Number.POSITIVE_INFINITY);
    const count = checkAddresses(issues, rule['to'], at(p, 'to'), MAX_ROUTED_RECIPIENTS);
    if (Array.isArray(rule['to']) && count === 0) issues.add(at(p, 'to'), 'must name at least one address');
  });
}

// spec 4.4 rule 6: a confirmation email needs Turnstile and an email field.
function checkConfirmationEmail(
  ctx: SettingsCheckContext,
  settings: Obj,
  path: string,
  turnstile: boolean,
): void {
  const value = settings['confirmationEmail'];
  if (value === undefined || value === null) return;
  const p = at(path, 'confirmationEmail');
  if (!isObject(value)) {
    ctx.issues.add(p, 'must be an object with subject and body, or null');
    return;
  }
  ctx.issues.unknownKeys(value, p, new Set(['subject', 'body']), 'confirmation emails');
  checkLocaleMap(ctx, value['subject'], at(p, 'subject'), true);
  checkLocaleMap(ctx, value['body'], at(p, 'body'), true);
  if (!turnstile) ctx.issues.add(p, 'a confirmation email requires Turnstile (spec 4.4 rule 4)');
  if (![...ctx.fields.values()].some((f) => f.type === 'email'))
    ctx.issues.add(p, 'a confirmation email requires an email field');
}
