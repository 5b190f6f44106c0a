// What the list and a submission need to know of a form: its name and its fields' labels in the
// page's language (the published version: the newest, or the one a submission was made to), and the space's
// people (whom submissions are assigned to).

import { useEffect, useState } from 'preact/hooks';
import { call, query, spacePath } from './api.js';
import { currentLang } from './i18n/index.js';
import { type FieldLabel, isRecord, type Person, readLabels, readPeople, type Session } from './read.js';

export interface FormInfo {
  name: string;
  labels: FieldLabel[];
}

/** The form's published version (at `cv`, else the newest kept); its key and no labels while loading or when none. */
export function useFormInfo(session: Session, form: string, cv: number | null = null): FormInfo {
  const [info, setInfo] = useState<FormInfo>({ name: form, labels: [] });
  useEffect(() => {
    let live = true;
    const path = spacePath(session.spaceId, 'forms', form, 'published');
    const at = cv === null ? '' : query({ cv: String(cv) });
    call('GET', `${path}${at}`)
      // A version pruned since: the newest kept still names the fields.
      .catch(() => (cv === null ? null : call('GET', path).catch(() => null)))
      .then((body) => {
        if (!live || body === null) return;
        const f = isRecord(body) && isRecord(body.form) ? body.form : {};
        setInfo({
          name: typeof f.name === 'string' ? f.name : form,
          labels: readLabels(body, currentLang(), session.defaultLocale),
        });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [session.spaceId, form, cv]);
  return info;
}

export function usePeople(session: Session): Person[] {
  const [people, setPeople] = useState<Person[]>([]);
  useEffect(() => {
    call('GET', spacePath(session.spaceId, 'people'))
      .then((body) => setPeople(readPeople(body)))
      .catch(() => setPeople([]));
  }, [session.spaceId]);
  return people;
}

const firstOfType = (labels: readonly FieldLabel[], type: string) => labels.find((l) => l.type === type);

/** A stored value as words: option labels for option values, lists joined. */
export function answerText(label: FieldLabel | undefined, value: unknown, yes: string, no: string): string {
  const one = (v: unknown): string => {
    if (typeof v === 'boolean') return v ? yes : no;
    if (typeof v === 'string' || typeof v === 'number') return label?.options.get(String(v)) ?? String(v);
    return '';
  };
  return Array.isArray(value)
    ? value
        .map(one)
        .filter((s) => s !== '')
        .join(', ')
    : one(value);
}

/** What a row shows of a submission: who (the first text answer), their address, a choice, and a preview. */
export interface RowText {
  title: string;
  email: string | null;
  choice: string | null;
  preview: string | null;
}

export function rowText(labels: readonly FieldLabel[], values: Record<string, unknown>): RowText {
  const str = (key: string | undefined) => {
    const v = key === undefined ? undefined : values[key];
    return typeof v === 'string' && v.trim() !== '' ? v : null;
  };
  const strings = Object.entries(values).filter(
    (e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '' && !e[1].startsWith('fup_'),
  );
  const title = str(firstOfType(labels, 'text')?.key) ?? strings[0]?.[1] ?? '';
  const emailKey = firstOfType(labels, 'email')?.key;
  const choiceField = labels.find((l) => (l.type === 'select' || l.type === 'radio') && str(l.key) !== null);
  const email = str(emailKey);
  // The first long text answer: a textarea's, else the first long text that is neither the title nor the address.
  const preview =
    str(firstOfType(labels, 'textarea')?.key) ??
    strings.map(([, v]) => v).find((v) => v.length >= 40 && v !== title && v !== email) ??
    null;
  const choiceValue = choiceField === undefined ? null : str(choiceField.key);
  return {
    title,
    email,
    choice:
      choiceField && choiceValue !== null ? (choiceField.options.get(choiceValue) ?? choiceValue) : null,
    preview: preview === title ? null : preview,
  };
}
