// enhanceForm: the browser half of the renderer. On markup from renderForm it adds live showIf, validation on blur
// and submit with the very rules module the server runs (src/forms/rules, bundled, never re-implemented: spec 7.4
// "Server-side validation applies the same rules a renderer applies"), steps, file uploads before the submission,
// a JSON submit, and the answer's errors shown by their fields. On a page a failed plain post led back to, it
// shows that post's errors and values (`?error=&fields=&draft=`), as a server-side site would have. Without it the
// form still posts as plain HTML.

import {
  type FieldErrorParams,
  fieldError,
  hiddenValues,
  isEmptyValue,
  labelled,
  matchesAccept,
  validateFieldValue,
  validateSubmission,
  visibleFields,
} from '../../../src/forms/rules/index.js';
import { readConfig } from './config.js';
import {
  type FieldParts,
  collectFields,
  focusTarget,
  hasFieldError,
  rawValue,
  selectedFiles,
  setShown,
  setValue,
  showFieldError,
} from './dom.js';
import { readDraft, readFormResult } from './round-trip.js';
import { safeHttpUrl } from '../../../src/forms/render/html.js';
import { DATA } from '../../../src/forms/render/ids.js';
import {
  type Messages,
  formErrorMessage,
  messageFor,
  resolveMessages,
  text,
  variantOf,
} from '../../../src/forms/render/messages.js';
import { type Failure, type SendOptions, postSubmission, uploadFile, uploadUrl } from './send.js';
import { type Steps, setupSteps } from './steps.js';
import { TURNSTILE_SCRIPT, TurnstileTokens } from './turnstile.js';

export interface EnhanceOptions {
  /** overrides of the messages and UI words (merged over those renderForm embedded) */
  messages?: Messages;
  /** the space's time zone for `today` in date bounds; default the one renderForm was given, else the browser's */
  timeZone?: string;
  now?: () => Date;
  turnstileScriptUrl?: string;
  fetch?: typeof fetch;
  /** per request; default 30 s, then `network_error` */
  timeoutMs?: number;
  /** called after a successful submission (before a `_redirect`, if any) */
  onSuccess?: (successMessage: string) => void;
}

export interface EnhancedForm {
  /** Checks every shown field, shows the errors, and says whether all passed. */
  validate(): boolean;
}

interface ShownError {
  code: string;
  params?: FieldErrorParams | undefined;
}

/** How long a submission waits for a Turnstile token before giving up with `turnstile_failed`. */
const TOKEN_WAIT_MS = 30_000;
/** spec 8: a file is at most 10 MB (or its field's maxSize when smaller). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const enhanced = new WeakMap<HTMLFormElement, EnhancedForm>();

export function enhanceForm(form: HTMLFormElement, options: EnhanceOptions = {}): EnhancedForm {
  const done = enhanced.get(form);
  if (done) return done;
  const config = readConfig(form);
  const def = config.form;
  // With JavaScript, what needs it works: its notes go (and their mentions in aria-describedby), its controls come
  // on; the no-JavaScript condition rules step aside for the live ones.
  for (const note of form.querySelectorAll(`[${DATA.noJs}]`)) {
    if (note.id !== '')
      for (const e of form.querySelectorAll<HTMLElement>('[aria-describedby]')) {
        const rest = (e.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .filter((t) => t !== '' && t !== note.id);
        if (rest.length > 0) e.setAttribute('aria-describedby', rest.join(' '));
        else e.removeAttribute('aria-describedby');
      }
    note.remove();
  }
  form.setAttribute(DATA.enhanced, '');
  for (const control of form.querySelectorAll<HTMLElement>(`[${DATA.needsJs}]`)) {
    control.removeAttribute('disabled');
    control.removeAttribute('hidden');
  }
  const doc = form.ownerDocument;
  const view = doc.defaultView ?? window;
  // The catalog renderForm chose (the form's locale along the space's fallbacks), with the site's overrides.
  const messages: Messages = resolveMessages(config.localeChain ?? [def.locale], {
    ...config.messages,
    ...options.messages,
  });
  const timeZone = options.timeZone ?? config.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const now = options.now ?? (() => new Date());
  const sendOptions: SendOptions = {
    fetch: options.fetch ?? view.fetch.bind(view),
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const parts = collectFields(form, def, config.prefix);
  const alertBox = form.querySelector<HTMLElement>(`[${DATA.alert}]`);
  const statusBox = form.querySelector<HTMLElement>(`[${DATA.status}]`);
  const turnstileBox = form.querySelector<HTMLElement>(`[${DATA.turnstile}]`);
  // Loaded only for forms that use Turnstile (spec 2.9 `turnstile`).
  const tokens =
    def.turnstile && def.turnstileSiteKey && turnstileBox
      ? new TurnstileTokens(
          turnstileBox,
          def.turnstileSiteKey,
          options.turnstileScriptUrl ?? config.turnstileScriptUrl ?? TURNSTILE_SCRIPT,
        )
      : null;
  const uploaded = new WeakMap<File, string>();
  let visible = new Set<string>();
  let steps: Steps | null = null;
  let submitted = false;
  let busy = false;
  /** The hidden answers the visitor was last told will not be sent (a second send goes without them). */
  let toldUnsent = '';

  // Our checks and messages replace the browser's, so the codes are the server's (spec 7.4).
  form.noValidate = true;

  // spec 2.10 hidden `fromQuery`: a query parameter of the page.
  const query = new URLSearchParams(view.location.search);
  for (const p of parts.values()) {
    const name = p.field.type === 'hidden' ? p.field.fromQuery : undefined;
    const value = name === undefined ? null : query.get(name);
    const control = p.controls[0];
    if (value !== null && control) control.value = value;
  }

  // Files are validated as syntactic ids before they are uploaded; real ids replace them when sending.
  const pendingIds = (p: FieldParts) =>
    selectedFiles(p).map((_, i) => `fup_pending${String(i).padStart(4, '0')}`);
  const values = (fileIds: (p: FieldParts) => string[]) => {
    // Prototype-less, as the rules' own records: no key of a definition can reach a prototype.
    const out = Object.create(null) as Record<string, unknown>;
    for (const [key, p] of parts) {
      const v = rawValue(p, fileIds);
      if (v !== undefined) out[key] = v;
    }
    return out;
  };
  const ctx = () => ({ now: now(), timeZone });

  const applyVisibility = () => {
    visible = new Set(visibleFields(def, values(pendingIds)).map((f) => f.key));
    for (const [key, p] of parts) {
      setShown(p, visible.has(key));
      if (!visible.has(key)) showFieldError(p, null);
    }
    steps?.refresh();
  };

  /** What the server's upload checks would say about the chosen files (size first, as it streams; then type). */
  const fileError = (p: FieldParts): ShownError | null => {
    const max = Math.min(MAX_FILE_BYTES, p.field.maxSize ?? MAX_FILE_BYTES);
    for (const file of selectedFiles(p)) {
      if (file.size > max) return fieldError('file_too_large', { max });
      // The browser's declared type; the server checks the file's content as well (spec 4.4 rule 5).
      if (!matchesAccept(p.field.accept, file.type, file.name))
        return fieldError('file_type', { accept: (p.field.accept ?? []).join(', ') });
    }
    return null;
  };

  const show = (p: FieldParts, e: ShownError | null) =>
    showFieldError(
      p,
      e && {
        code: e.code,
        message: messageFor(e.code, { params: e.params, variant: variantOf(p.field.type), messages }),
      },
    );

  const checkOne = (p: FieldParts) => {
    const result = validateFieldValue(p.field, rawValue(p, pendingIds), ctx());
    show(p, result.ok ? (p.field.type === 'file' ? fileError(p) : null) : result.error);
  };

  /** The errors of every shown field inside `scope` (a step, or the whole form). */
  const errorsIn = (scope: HTMLElement): Map<string, ShownError> => {
    const result = validateSubmission(def, values(pendingIds), ctx());
    const errors = new Map<string, ShownError>();
    for (const [key, p] of parts) {
      if (!visible.has(key) || !scope.contains(p.wrapper)) continue;
      const e = result.ok ? undefined : result.errors[key];
      const local = e ?? (p.field.type === 'file' ? fileError(p) : null);
      if (local) errors.set(key, local);
    }
    return errors;
  };

  const setAlert = (message: string | null, errors: ReadonlyMap<string, ShownError> = new Map()) => {
    if (!alertBox) return;
    alertBox.replaceChildren();
    if (message === null) return;
    const p = doc.createElement('p');
    p.textContent = message;
    alertBox.append(p);
    const items = [...errors].flatMap(([key, e]) => {
      const field = parts.get(key);
      const target = field && focusTarget(field);
      if (!field || !target) return [];
      const a = doc.createElement('a');
      a.href = `#${target.id}`;
      a.textContent = labelled(
        field.field.label ?? key,
        messageFor(e.code, { params: e.params, variant: variantOf(field.field.type), messages }),
      );
      a.addEventListener('click', (event) => {
        event.preventDefault();
        steps?.reveal(target);
        target.focus();
      });
      const li = doc.createElement('li');
      li.append(a);
      return [li];
    });
    if (items.length > 0) {
      const ul = doc.createElement('ul');
      ul.className = 'folio-error-list';
      ul.append(...items);
      alertBox.append(ul);
    }
  };

  /**
   * Answers in fields that other answers have since hidden are not sent (spec 2.11): the visitor is told once, by
   * name, before the form goes without them.
   */
  const tellUnsent = (): boolean => {
    const unsent = hiddenValues(def, values(pendingIds));
    const key = unsent.join(' ');
    if (unsent.length === 0 || key === toldUnsent) return false;
    toldUnsent = key;
    setAlert(messageFor('validation_failed', { variant: 'not_applicable', messages }));
    const ul = doc.createElement('ul');
    ul.className = 'folio-error-list';
    for (const k of unsent) {
      const li = doc.createElement('li');
      li.textContent = labelled(parts.get(k)?.field.label ?? k, messageFor('not_applicable', { messages }));
      ul.append(li);
    }
    alertBox?.append(ul);
    alertBox?.focus();
    return true;
  };

  const setStatus = (message: string) => {
    if (statusBox) statusBox.textContent = message;
  };

  /** Shows these field errors (clearing the others) and the form's message; focus goes to the summary. */
  const report = (
    errors: ReadonlyMap<string, ShownError>,
    code: string | null,
    retryAfter: number | null = null,
  ) => {
    for (const [key, p] of parts) show(p, errors.get(key) ?? null);
    const formCode = code ?? (errors.size > 0 ? 'validation_failed' : null);
    setAlert(formCode === null ? null : formErrorMessage(def, formCode, messages, retryAfter), errors);
    const first = [...parts].find(([key]) => errors.has(key))?.[1];
    if (first) steps?.reveal(first.wrapper);
    if (formCode !== null) alertBox?.focus();
  };

  const reportFailure = (failure: Failure) => {
    setStatus('');
    const errors = new Map<string, ShownError>();
    for (const [key, e] of Object.entries(failure.fields)) if (parts.has(key)) errors.set(key, e);
    // An upload the server no longer takes (expired, spec 3.3) is uploaded again on the next try.
    for (const [key, e] of errors) {
      const p = parts.get(key);
      if (p && e.code === 'invalid_file') for (const f of selectedFiles(p)) uploaded.delete(f);
    }
    report(errors, errors.size > 0 ? 'validation_failed' : failure.code, failure.retryAfter);
  };

  const succeed = (successMessage: string) => {
    options.onSuccess?.(successMessage);
    const redirect = form.querySelector<HTMLInputElement>('input[name="_redirect"]')?.value;
    const target = redirect ? safeHttpUrl(redirect) : null;
    if (target) return view.location.assign(target);
    for (const child of form.children)
      if (child !== statusBox && child instanceof HTMLElement) child.hidden = true;
    setAlert(null);
    setStatus(successMessage);
    statusBox?.setAttribute('tabindex', '-1');
    statusBox?.focus();
  };

  const token = async (): Promise<string | null | false> =>
    tokens ? ((await tokens.take(TOKEN_WAIT_MS)) ?? false) : null;
  const refused = (code: string): Failure => ({ ok: false, code, fields: {}, retryAfter: null });

  /** Uploads the chosen files of shown file fields not uploaded yet; their ids by field key, or the failure. */
  const uploadAll = async (): Promise<Map<string, string[]> | Failure> => {
    const ids = new Map<string, string[]>();
    const url = uploadUrl(form.action);
    for (const [key, p] of parts) {
      if (p.field.type !== 'file' || !visible.has(key)) continue;
      const list: string[] = [];
      for (const file of selectedFiles(p)) {
        let id = uploaded.get(file);
        if (id === undefined) {
          setStatus(text('uploading', messages));
          const t = await token();
          if (t === false) return refused('turnstile_failed');
          const result = await uploadFile(url, key, file, t, sendOptions);
          if (!result.ok) return result;
          id = result.id;
          uploaded.set(file, id);
        }
        list.push(id);
      }
      ids.set(key, list);
    }
    return ids;
  };

  const send = async () => {
    busy = true;
    form.setAttribute('aria-busy', 'true');
    setAlert(null);
    try {
      const ids = await uploadAll();
      if (!(ids instanceof Map)) return reportFailure(ids);
      setStatus(text('sending', messages));
      const body = values((p) => ids.get(p.field.key) ?? []);
      // spec 2.11: hidden fields are skipped (the server drops them too; they are not sent at all).
      for (const key of Object.keys(body)) if (!visible.has(key)) delete body[key];
      const trap = form.elements.namedItem(def.honeypot);
      body[def.honeypot] = trap instanceof HTMLInputElement ? trap.value : '';
      body['_page'] = view.location.href;
      body['_locale'] = def.locale;
      const t = await token();
      if (t === false) return reportFailure(refused('turnstile_failed'));
      if (t !== null) body['cf-turnstile-response'] = t;
      const result = await postSubmission(form.action, body, sendOptions);
      if (result.ok) succeed(result.successMessage);
      else reportFailure(result);
    } finally {
      busy = false;
      form.removeAttribute('aria-busy');
    }
  };

  const partsOf = (target: EventTarget | null): FieldParts | undefined => {
    const wrapper = target instanceof Element ? target.closest(`[${DATA.field}]`) : null;
    const key = wrapper?.getAttribute(DATA.field);
    return key ? parts.get(key) : undefined;
  };

  applyVisibility();
  steps = setupSteps(form, messages, {
    canLeave: (step) => {
      const errors = errorsIn(step);
      for (const [key, p] of parts) if (step.contains(p.wrapper)) show(p, errors.get(key) ?? null);
      if (errors.size === 0) return true;
      setAlert(messageFor('validation_failed', { messages }), errors);
      alertBox?.focus();
      return false;
    },
    isEmpty: (step) =>
      ![...parts].some(
        ([key, p]) => p.field.type !== 'section' && visible.has(key) && step.contains(p.wrapper),
      ),
  });
  // Errors renderForm showed (fieldErrors) are on a step the visitor should see first.
  const rendered = [...parts.values()].find(hasFieldError);
  if (rendered) steps?.reveal(rendered.wrapper);
  // A page a failed plain post came back to that could not show it (a static page): this does.
  else if (alertBox?.childElementCount === 0) void restore();

  /** The `?error=&fields=&draft=` of an error redirect: values back in place, then the errors by their fields. */
  async function restore(): Promise<void> {
    const back = readFormResult(view.location.search);
    const keys = Object.keys(back.fieldErrors);
    // Only for the form the post came from: every failing field is one of its fields, and the draft is its own.
    if ((back.error === null && keys.length === 0) || !keys.every((k) => parts.has(k))) return;
    const origin = draftOrigin(form.action);
    const kept =
      back.draft !== null && origin !== null
        ? await readDraft({ ...origin, formKey: def.key, draft: back.draft, fetch: sendOptions.fetch })
        : null;
    for (const [key, value] of Object.entries(kept ?? {})) {
      const p = parts.get(key);
      if (p) setValue(p, value);
    }
    applyVisibility();
    // An answer in a field now hidden is told about as the enhancer tells it (tellUnsent), not beside the field.
    const errors = new Map<string, ShownError>();
    for (const [key, e] of Object.entries(back.fieldErrors)) if (visible.has(key)) errors.set(key, e);
    if (errors.size === 0 && keys.length > 0 && tellUnsent()) return;
    report(errors, back.error);
  }

  form.addEventListener('input', (event) => {
    applyVisibility();
    const p = partsOf(event.target);
    if (p && hasFieldError(p)) checkOne(p);
  });
  form.addEventListener('change', (event) => {
    applyVisibility();
    const p = partsOf(event.target);
    if (p && (hasFieldError(p) || p.field.type === 'file')) checkOne(p);
  });
  // Blur checks wait while a button of the form is pressed: an error appearing on mousedown moves the button,
  // and the click (Send, Next) would land elsewhere. Those buttons check the fields themselves.
  let pressing = false;
  form.addEventListener('pointerdown', (event) => {
    pressing = event.target instanceof Element && event.target.closest('button') !== null;
  });
  view.addEventListener('pointerup', () => setTimeout(() => (pressing = false)), true);
  form.addEventListener('focusout', (event) => {
    const p = partsOf(event.target);
    if (!p || !visible.has(p.field.key) || pressing) return;
    if (event.relatedTarget instanceof HTMLButtonElement && form.contains(event.relatedTarget)) return;
    // A group is left when focus leaves the group, not when it moves between its boxes.
    if (event.relatedTarget instanceof Node && p.wrapper.contains(event.relatedTarget)) return;
    // Tabbing through empty fields says nothing until the first try to send.
    if (!submitted && !hasFieldError(p) && isEmptyValue(rawValue(p, pendingIds))) return;
    checkOne(p);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    if (steps && !steps.isLast()) return steps.next();
    submitted = true;
    applyVisibility();
    const errors = errorsIn(form);
    if (errors.size > 0) return report(errors, null);
    if (tellUnsent()) return;
    void send();
  });

  const api: EnhancedForm = {
    validate: () => {
      applyVisibility();
      const errors = errorsIn(form);
      report(errors, null);
      return errors.size === 0;
    },
  };
  enhanced.set(form, api);
  return api;
}

/** Where the form's drafts are read: the Folio address, space and public token of its action URL. */
function draftOrigin(action: string): { baseUrl: string; spaceId: string; token: string } | null {
  let url: URL;
  try {
    url = new URL(action);
  } catch {
    return null;
  }
  const m = /^(.*)\/v1\/([^/]+)\/forms\/[^/]+\/submissions$/.exec(url.pathname);
  const token = url.searchParams.get('token');
  if (!m || token === null) return null;
  return { baseUrl: `${url.origin}${m[1] ?? ''}`, spaceId: decodeURIComponent(m[2] ?? ''), token };
}

/** Enhances every `form[data-folio-form]` of the document once it is parsed; a failure leaves that form plain. */
export function autoEnhance(doc: Document = document, options: EnhanceOptions = {}): void {
  const run = () => {
    for (const form of doc.querySelectorAll<HTMLFormElement>(`form[${DATA.form}]`)) {
      try {
        enhanceForm(form, options);
      } catch (error) {
        console.error('folio: form left as plain HTML', error);
      }
    }
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}
