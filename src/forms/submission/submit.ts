// The submission pipeline (spec 3.1, 3.2, 4.4 submission rules 1–3, 7.3): status → size → spam trap →
// validation → Turnstile → one transaction (capacity, record, `form.submitted` event). A filled trap on a
// Turnstile form is verified before it is kept. No HTTP here: the route parses the body and renders the outcome.

import { defaultLocale, localeChain } from '../../content/locales.js';
import { enqueueEvent } from '../../jobs/outbox-repo.js';
import { jobsEnqueued } from '../../jobs/wakeup.js';
import { enqueueNotifications } from '../notify/enqueue.js';
import { newId } from '../../lib/ids.js';
import {
  alreadySubmitted,
  type FolioError,
  formClosed,
  formFull,
  formNotOpen,
  notFound,
  submissionTooLarge,
  turnstileFailed,
  validationFailed,
} from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import type { SpaceRow } from '../../store/spaces-repo.js';
import { currentSpace } from '../delivery/current-space.js';
import {
  CONTROL_KEYS,
  MAX_VALUES_BYTES,
  controlList,
  controlString,
  isTrapFilled,
  rawFieldValues,
  submissionPage,
  userAgentOf,
  valuesSize,
  visitorLocale,
} from './controls.js';
import { DEFAULT_SUCCESS_MESSAGE, KEY_FORMAT, localizeField, resolveText } from '../definition/index.js';
import { submissionAddresses } from './addresses.js';
import { insertSubmissionAddresses } from './addresses-repo.js';
import type { FormSource, LoadedForm } from '../delivery/form-source.js';
import { readFormCounts } from '../authoring/forms-repo.js';
import {
  DEFAULT_HONEYPOT,
  fieldError,
  formStatus,
  hiddenValues,
  normalizeEmail,
  statusErrorCode,
  usesTurnstile,
  validateSubmission,
} from '../rules/index.js';
import type { FormField, FormSettings, SubmittedValue } from '../rules/index.js';
import {
  type ConsentRecord,
  type SubmissionRecord,
  claimCapacity,
  insertSubmission,
  isUniqueViolation,
} from './submissions-repo.js';
import type { TurnstileVerifier } from './turnstile.js';
import type { FieldError } from '../rules/codes.js';
import { type FileValue, claimSubmissionUploads, fileValuesOf, uploadProblems } from '../uploads/claims.js';
import { DAY_MS } from '../../lib/time.js';
import { DEFAULT_RETENTION_DAYS, SPAM_RETENTION_DAYS } from '../retention/periods.js';

export interface SubmitDeps {
  store: Store;
  forms: FormSource;
  turnstile: TurnstileVerifier;
}

export interface SubmitRequest {
  spaceId: string;
  formKey: string;
  body: Readonly<Record<string, unknown>>;
  referer: string | null;
  userAgent: string | null;
  /** Used only for siteverify's `remoteip` (spec 2.13); never stored. */
  remoteIp: string;
  now: Date;
  /**
   * A plain HTML post (no script between the visitor and the answer): a value in a field its conditions hide is
   * refused (`not_applicable`) unless `_drop` names it, since nobody else would tell the visitor it is not sent.
   */
  plain?: boolean;
}

export interface SubmitResult {
  ok: true;
  successMessage: string;
}

export interface Context {
  space: SpaceRow;
  form: LoadedForm;
  locale: string;
  chain: string[];
  now: Date;
}

export async function submitForm(deps: SubmitDeps, req: SubmitRequest): Promise<SubmitResult> {
  const space = await currentSpace(deps.store, req.spaceId);
  const form =
    space && KEY_FORMAT.test(req.formKey) ? await deps.forms.load(space.id, req.formKey, space.cv) : null;
  if (!space || !form) throw notFound(`Form "${req.formKey}" not found.`);
  const locale = visitorLocale(space.settings, controlString(req.body, CONTROL_KEYS.locale));
  const ctx: Context = { space, form, locale, chain: localeChain(space.settings, locale), now: req.now };
  const def = form.definition;
  const settings = def.settings;

  await checkStatus(deps.store, ctx);
  if (valuesSize(req.body, def.fields) > MAX_VALUES_BYTES) {
    throw submissionTooLarge(`Submitted values add up to more than ${MAX_VALUES_BYTES} bytes.`);
  }

  const record = {
    spaceId: space.id,
    form: def.key,
    page: submissionPage(req.body, req.referer),
    locale,
    userAgent: userAgentOf(req.userAgent),
    createdAt: req.now.toISOString(),
    formCv: space.cv,
  };
  // spec 3.2: a filled spam trap answers like a success; the submission is kept in the spam folder, uncounted.
  if (isTrapFilled(req.body, settings.honeypot ?? DEFAULT_HONEYPOT)) {
    // On a Turnstile form the challenge comes first: without it any script could have its
    // body (up to 32 KB of values) kept for 30 days. The 422 tells a bot nothing a missing token does not.
    await verifyTurnstile(deps, settings, req);
    const spam: SubmissionRecord = {
      ...record,
      id: newId('sub'),
      folder: 'spam',
      values: rawFieldValues(req.body, def.fields),
      consent: {},
      uniqueKey: null,
      deleteAfter: new Date(req.now.getTime() + SPAM_RETENTION_DAYS * DAY_MS).toISOString(),
    };
    // Its addresses too: erase reaches the spam folder (spec 4.5).
    await deps.store.db.transaction().execute(async (tx) => {
      await insertSubmission(tx, spam, def.fields);
      await insertSubmissionAddresses(
        tx,
        spam.spaceId,
        spam.id,
        submissionAddresses(def.fields, spam.values),
      );
    });
    return success(ctx);
  }

  const result = validateSubmission(form.checked, req.body, {
    now: req.now,
    timeZone: space.settings.timeZone,
  });
  const unsent = req.plain === true ? notSent(form.checked.fields, req.body) : { untold: false, errors: {} };
  if (!result.ok || unsent.untold) {
    throw invalidFields(inFieldOrder(def.fields, { ...(result.ok ? {} : result.errors), ...unsent.errors }));
  }
  // spec 3.3, 4.4: file fields name uploads of this form and field that no submission has claimed yet.
  const files = fileValuesOf(def.fields, result.values);
  if (files.length > 0) {
    const problems = await uploadProblems(deps.store.db, {
      spaceId: space.id,
      formKey: def.key,
      files,
      now: req.now,
    });
    if (Object.keys(problems).length > 0) throw invalidFields(problems);
  }
  // Verified after validation, so a typo does not spend the visitor's single-use token.
  await verifyTurnstile(deps, settings, req);

  const values = { ...result.values };
  const unique = settings.uniqueField ? values[settings.uniqueField] : undefined;
  const stored: SubmissionRecord = {
    ...record,
    id: newId('sub'),
    folder: 'inbox',
    values,
    consent: consentWording(ctx, values),
    // One visitor, one identity; case, fullwidth forms and invisible characters make no new one.
    uniqueKey: typeof unique === 'string' ? normalizeEmail(unique) : null,
    deleteAfter: new Date(
      req.now.getTime() + (settings.retentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS,
    ).toISOString(),
  };
  await store(deps, ctx, stored, files);
  return success(ctx);
}

/** spec 4.4: on a form that uses Turnstile, 422 `turnstile_failed` unless siteverify accepts the token. */
async function verifyTurnstile(deps: SubmitDeps, settings: FormSettings, req: SubmitRequest): Promise<void> {
  if (!usesTurnstile(settings)) return;
  const outcome = await deps.turnstile.verify(
    settings.turnstileSecret ?? '',
    controlString(req.body, CONTROL_KEYS.turnstile),
    req.remoteIp,
  );
  if (!outcome.ok) throw turnstileFailed();
}

/**
 * spec 2.11 drops values of hidden fields; a plain post has no script to say so, so such a value is refused with
 * `not_applicable` (the form comes back with it in sight) until the visitor posts again naming it in `_drop`.
 * While other answers still fail, the told ones stay marked too, so the page keeps saying so (and keeps `_drop`).
 */
function notSent(
  fields: readonly FormField[],
  body: Readonly<Record<string, unknown>>,
): { untold: boolean; errors: Record<string, FieldError> } {
  const told = new Set(controlList(body, CONTROL_KEYS.drop));
  const errors: Record<string, FieldError> = {};
  let untold = false;
  for (const key of hiddenValues({ fields }, body)) {
    errors[key] = fieldError('not_applicable');
    if (!told.has(key)) untold = true;
  }
  return { untold, errors };
}

/** Errors keyed in the order of the form's fields, so redirects and pages list them top to bottom. */
function inFieldOrder(
  fields: readonly FormField[],
  errors: Readonly<Record<string, FieldError>>,
): Record<string, FieldError> {
  const out: Record<string, FieldError> = {};
  for (const field of fields) {
    const e = errors[field.key];
    if (Object.hasOwn(errors, field.key) && e !== undefined) out[field.key] = e;
  }
  return out;
}

function invalidFields(errors: Readonly<Record<string, FieldError>>): FolioError {
  return validationFailed('Some fields are not valid.', {
    details: { fields: { ...errors } },
  });
}

/** spec 3.1: 409 when not open; the message is the form's closed message when it has one. */
export async function checkStatus(store: Store, ctx: Context): Promise<void> {
  const settings = ctx.form.definition.settings;
  const max = settings.maxSubmissions ?? null;
  // The count matters only with a capacity; the transaction enforces it again without races.
  const count =
    max === null
      ? 0
      : ((await readFormCounts(store, ctx.space.id, [ctx.form.definition.key])).get(
          ctx.form.definition.key,
        ) ?? 0);
  const code = statusErrorCode(formStatus(settings, { now: ctx.now, nonSpamCount: count }));
  if (code !== null) throw CLOSED[code](closedMessage(ctx) ?? undefined);
}

/** The 409s of a form that takes no submissions; without a closed message, the registry's. */
const CLOSED = { form_not_open: formNotOpen, form_closed: formClosed, form_full: formFull } as const;

function closedMessage(ctx: Context): string | null {
  // The chain of localeChain already ends at the default locale (spec 1 item 3).
  return resolveText(ctx.form.definition.settings.closedMessage, ctx.chain);
}

function success(ctx: Context): SubmitResult {
  const message = resolveText(ctx.form.definition.settings.successMessage, ctx.chain);
  return { ok: true, successMessage: message ?? DEFAULT_SUCCESS_MESSAGE };
}

/** spec 2.10: the consent wording the visitor agreed to, in their language, for each consent given. */
function consentWording(ctx: Context, values: Record<string, SubmittedValue>): Record<string, ConsentRecord> {
  const out: Record<string, ConsentRecord> = {};
  const defaultCode = defaultLocale(ctx.space.settings);
  for (const field of ctx.form.definition.fields) {
    if (field.type !== 'consent' || values[field.key] !== true) continue;
    const shown = localizeField(field, {
      localeChain: ctx.chain,
      defaultLocale: defaultCode,
      lists: ctx.form.lists,
    });
    out[field.key] = { label: shown.label ?? '', ...(shown.link ? { link: shown.link } : {}) };
  }
  return out;
}

/**
 * One transaction: record, `form.submitted` event and capacity commit together (DESIGN.md "Forms"). The capacity
 * is claimed last, so the counter row's lock is held only for the claim and the commit.
 */
async function store(
  deps: SubmitDeps,
  ctx: Context,
  record: SubmissionRecord,
  files: readonly FileValue[],
): Promise<void> {
  const max = ctx.form.definition.settings.maxSubmissions ?? null;
  try {
    await deps.store.db.transaction().execute(async (tx) => {
      await insertSubmission(tx, record, ctx.form.definition.fields);
      await insertSubmissionAddresses(
        tx,
        record.spaceId,
        record.id,
        submissionAddresses(ctx.form.definition.fields, record.values),
      );
      const lost = await claimSubmissionUploads(tx, {
        spaceId: record.spaceId,
        formKey: record.form,
        files,
        submissionId: record.id,
        now: ctx.now,
      });
      // Another submission claimed an upload between the check and this transaction.
      if (Object.keys(lost).length > 0) throw invalidFields(lost);
      // Ids only: the webhook reads the values, page and language from the stored submission
      // when it is sent, so nothing of the visitor outlives the submission in the outbox.
      await enqueueEvent(
        tx,
        record.spaceId,
        'form.submitted',
        { form: record.form, submissionId: record.id, submittedAt: record.createdAt, cv: ctx.space.cv },
        { submissionId: record.id },
      );
      // spec 3.2, 4.4 rule 6: owner emails, chat post and confirmation commit with the submission.
      await enqueueNotifications(tx, {
        spaceId: record.spaceId,
        submissionId: record.id,
        form: ctx.form.definition,
        values: record.values,
        locale: record.locale,
        cv: ctx.space.cv,
      });
      if (max !== null && !(await claimCapacity(tx, record.spaceId, record.form, max))) {
        throw formFull(closedMessage(ctx) ?? undefined);
      }
    });
    // Committed: the in-process runner sends the event and notifications now, not at its next poll.
    jobsEnqueued(deps.store);
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw alreadySubmitted();
    }
    throw err;
  }
}
