// Authored form definition types (spec 2.10–2.12). These are the shapes editors author and the
// management API stores; the delivered shape (spec 2.9) is derived from them in forms/definition/deliver.ts.

/** spec 2.10: every field type a form may contain. */
export type FieldType =
  | 'text'
  | 'textarea'
  | 'email'
  | 'tel'
  | 'url'
  | 'number'
  | 'date'
  | 'time'
  | 'select'
  | 'radio'
  | 'checkboxes'
  | 'checkbox'
  | 'consent'
  | 'hidden'
  | 'file'
  | 'heading'
  | 'paragraph'
  | 'section';

/** An option of a choice field; `label` is in the authored default locale. */
export interface FormOption {
  value: string;
  label: string;
}

export type ConditionOp =
  'equals' | 'notEquals' | 'in' | 'notIn' | 'filled' | 'empty' | 'greaterThan' | 'lessThan';

/** Every condition operator, for the checks of authored and delivered definitions. */
export const CONDITION_OPS: readonly ConditionOp[] = [
  'equals',
  'notEquals',
  'in',
  'notIn',
  'filled',
  'empty',
  'greaterThan',
  'lessThan',
];

/** spec 2.11: one rule of a `showIf` (or a notification rule's `when`). */
export interface ConditionRule {
  field: string;
  op: ConditionOp;
  value?: string | number | boolean;
  values?: (string | number)[];
}

/** spec 2.11: `match` combines the rules with AND (`all`) or OR (`any`). */
export interface Condition {
  match: 'all' | 'any';
  rules: ConditionRule[];
}

/** Per-locale overrides of a field's texts (spec 2.12 "translatable texts"). */
export interface FieldTranslation {
  label?: string;
  help?: string;
  placeholder?: string;
  /** option value → label in this locale */
  options?: Record<string, string>;
  link?: { label?: string; url?: string };
}

export interface FormField {
  key: string;
  type: FieldType;
  label?: string;
  help?: string;
  placeholder?: string;
  width?: 'full' | 'half';
  required?: boolean;
  showIf?: Condition;
  /** text, textarea: length bounds in characters */
  minLength?: number;
  maxLength?: number;
  /** number: value bounds; checkboxes: number of ticks */
  min?: number;
  max?: number;
  /** number only */
  step?: number;
  /** date: `YYYY-MM-DD` or `today` */
  minDate?: string;
  maxDate?: string;
  /** select, radio, checkboxes: inline options, or `list` (key of a shared option list, spec 2.8) */
  options?: FormOption[];
  list?: string;
  /** consent */
  link?: { label: string; url: string };
  /** hidden */
  defaultValue?: string;
  fromQuery?: string;
  /** file: media types (`application/pdf`), wildcards (`image/*`) or extensions (`.pdf`) */
  accept?: string[];
  /** file: bytes, at most 10 MB (spec 8) */
  maxSize?: number;
  /** file: the spec's unnamed max-files setting (spec 2.10); default 1, at most 10 */
  maxFiles?: number;
  translations?: Record<string, FieldTranslation>;
}

/** spec 2.12: authored settings, API names. */
export interface FormSettings {
  active?: boolean;
  opensAt?: string | null;
  closesAt?: string | null;
  maxSubmissions?: number | null;
  uniqueField?: string | null;
  successMessage?: Record<string, string>;
  closedMessage?: Record<string, string>;
  honeypot?: string;
  turnstileSiteKey?: string | null;
  turnstileSecret?: string | null;
  retentionDays?: number;
  notify?: string[];
  notifyRules?: { when: Condition; to: string[] }[];
  chatWebhookUrl?: string | null;
  confirmationEmail?: { subject: Record<string, string>; body: Record<string, string> } | null;
  /**
   * A server-side site (a public token made with `serverSide: true`) may name the visitor's address in
   * `Folio-Visitor-Ip`; honoured for per-visitor limits and Turnstile's `remoteip` only when this is true (and the
   * rest of the rule holds: src/ratelimit/visitors.ts).
   */
  trustVisitorIp?: boolean;
  /** The owner email's subject per locale; `{form}`, `{date}`, `{field:<key>}` are filled in. */
  notifySubject?: Record<string, string>;
  /** The owner email's first paragraph per locale, same placeholders. */
  notifyIntro?: Record<string, string>;
}

export interface FormDefinition {
  key: string;
  name: string;
  fields: FormField[];
  settings: FormSettings;
}

/** A validated, coerced value as stored with a submission (spec 2.10 "Value" column). */
export type SubmittedValue = string | number | boolean | string[];

/** spec 2.10: types whose values are never submitted. */
export const NON_SUBMITTED_TYPES: ReadonlySet<FieldType> = new Set<FieldType>([
  'heading',
  'paragraph',
  'section',
]);

/** Choice types take `options` or `list` (spec 2.10). */
export const CHOICE_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['select', 'radio', 'checkboxes']);

export const FIELD_TYPES: readonly FieldType[] = [
  'text',
  'textarea',
  'email',
  'tel',
  'url',
  'number',
  'date',
  'time',
  'select',
  'radio',
  'checkboxes',
  'checkbox',
  'consent',
  'hidden',
  'file',
  'heading',
  'paragraph',
  'section',
];

export function isSubmittedType(type: FieldType): boolean {
  return !NON_SUBMITTED_TYPES.has(type);
}

/** spec 2.12: default name of the spam-trap input. */
export const DEFAULT_HONEYPOT = 'website';
