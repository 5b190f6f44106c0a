// A stored submission as readable answers, in form order, labelled in the space's default locale: what the owner
// email and the chat post list (spec 4.4 rule 6). Pure: the caller brings the definition, lists and files.

import { type ListOption, localizeField } from '../definition/index.js';
import { type FormDefinition, type FormField, isSubmittedType } from '../rules/index.js';

export interface FileAnswer {
  id: string;
  /** The upload's name as stored; the id when the file is gone. */
  name: string;
  /** Bytes; null when the file is gone. */
  size: number | null;
}

export type Answer =
  | {
      key: string;
      label: string;
      kind: 'text';
      text: string;
      /** A consent field's box was ticked: the owner email writes the wording agreed to as a sentence. */
      consent?: true;
    }
  | { key: string; label: string; kind: 'files'; files: FileAnswer[] };

export interface AnswersInput {
  /** null when the form was deleted: field keys label the values, in stored order. */
  form: Pick<FormDefinition, 'fields'> | null;
  values: Readonly<Record<string, unknown>>;
  defaultLocale: string;
  lists: Readonly<Record<string, readonly ListOption[]>>;
  /** The uploads the submission claimed, by id. */
  files: ReadonlyMap<string, { name: string; size: number }>;
}

/**
 * Every stored value once: the form's submitted fields in order (heading, paragraph and section carry none; a
 * field hidden by its condition was not stored and is left out), then values whose field is no longer in the
 * definition, labelled by key.
 */
export function submissionAnswers(input: AnswersInput): Answer[] {
  const out: Answer[] = [];
  const done = new Set<string>();
  for (const field of input.form?.fields ?? []) {
    if (!isSubmittedType(field.type) || !Object.hasOwn(input.values, field.key) || done.has(field.key))
      continue;
    done.add(field.key);
    const shown = localizeField(field, {
      localeChain: [input.defaultLocale],
      defaultLocale: input.defaultLocale,
      lists: input.lists,
    });
    const label = shown.label !== undefined && shown.label.trim() !== '' ? shown.label : field.key;
    out.push(answerOf(field.key, label, input.values[field.key], field.type, shown.options, input.files));
  }
  for (const [key, value] of Object.entries(input.values)) {
    if (!done.has(key)) out.push(answerOf(key, key, value, null, undefined, input.files));
  }
  return out;
}

function answerOf(
  key: string,
  label: string,
  value: unknown,
  type: FormField['type'] | null,
  options: readonly { value: string; label: string }[] | undefined,
  files: AnswersInput['files'],
): Answer {
  const ids = uploadIds(value);
  // Without a definition, a value naming uploads the submission claimed is a file field.
  if (
    ids !== null &&
    (type === 'file' || (type === null && ids.length > 0 && ids.every((id) => files.has(id))))
  ) {
    return {
      key,
      label,
      kind: 'files',
      files: ids.map((id) => {
        const file = files.get(id);
        return { id, name: file?.name ?? id, size: file?.size ?? null };
      }),
    };
  }
  const text = valueText(value, options);
  return type === 'consent' && value === true
    ? { key, label, kind: 'text', text, consent: true }
    : { key, label, kind: 'text', text };
}

function uploadIds(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) return value;
  return null;
}

/** Option values with their labels, booleans as Yes/No, lists comma-separated. */
function valueText(value: unknown, options: readonly { value: string; label: string }[] | undefined): string {
  const one = (v: unknown): string => {
    if (typeof v === 'boolean') return v ? 'Yes' : 'No';
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') {
      const label = options?.find((o) => o.value === v)?.label;
      return label !== undefined && label !== v ? `${label} (${v})` : v;
    }
    if (v === null || v === undefined) return '';
    return JSON.stringify(v);
  };
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
}

/** 532 bytes, 12.3 KB, 4.1 MB (1 KB = 1024 bytes, as file managers show them). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
