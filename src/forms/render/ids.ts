// Element ids and data attributes the renderer writes and the enhancer reads: one module, so the two never drift.

/** Keeps ids to letters, digits, `_` and `-` (field keys already are; a hostile definition must not break out). */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function formPrefix(formKey: string, idPrefix?: string): string {
  return safeId(idPrefix ?? `folio-${formKey}`);
}

export const ids = {
  control: (prefix: string, key: string) => `${prefix}-f-${safeId(key)}`,
  option: (prefix: string, key: string, index: number) => `${prefix}-f-${safeId(key)}-${index}`,
  help: (prefix: string, key: string) => `${prefix}-f-${safeId(key)}-help`,
  error: (prefix: string, key: string) => `${prefix}-f-${safeId(key)}-error`,
  when: (prefix: string, key: string) => `${prefix}-f-${safeId(key)}-when`,
  alert: (prefix: string) => `${prefix}-alert`,
  status: (prefix: string) => `${prefix}-status`,
  honeypot: (prefix: string) => `${prefix}-hp`,
};

/** Data attributes (as in markup) marking the parts of a rendered form. */
export const DATA = {
  form: 'data-folio-form',
  config: 'data-folio-config',
  field: 'data-folio-field',
  type: 'data-folio-type',
  error: 'data-folio-error',
  alert: 'data-folio-alert',
  status: 'data-folio-status',
  step: 'data-folio-step',
  turnstile: 'data-folio-turnstile',
  actions: 'data-folio-actions',
  fromQuery: 'data-folio-from-query',
  code: 'data-folio-code',
  /** A note for visitors without JavaScript (a file field, a Turnstile form); the enhancer removes it. */
  noJs: 'data-folio-nojs',
  /** A control that cannot work without JavaScript: rendered disabled and hidden, the enhancer turns it on. */
  needsJs: 'data-folio-needs-js',
  /** Set by the enhancer on a form it took over: the no-JavaScript condition rules step aside. */
  enhanced: 'data-folio-enhanced',
} as const;
