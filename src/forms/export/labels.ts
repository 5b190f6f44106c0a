// Exports in words: column headings from the form's field labels and the words of the leading
// columns, option labels for option values, Yes/No for booleans, in one of the inbox's languages. Pure: stored
// definitions arrive as unchecked JSON and are read defensively.

import { zoneOffsetMs } from '../../lib/zoned-days.js';

/** The languages an export's words come in (the inbox's, docs/api.md "Exports"). */
export const EXPORT_LANGS = ['en', 'de', 'fr', 'it', 'es'] as const;
export type ExportLang = (typeof EXPORT_LANGS)[number];

export interface ExportWords {
  id: string;
  createdAt: string;
  folder: string;
  status: string;
  assignee: string;
  page: string;
  locale: string;
  yes: string;
  no: string;
  folders: Record<'inbox' | 'spam', string>;
  statuses: Record<'new' | 'read' | 'done' | 'archived', string>;
}

export const EXPORT_WORDS: Record<ExportLang, ExportWords> = {
  en: {
    id: 'ID',
    createdAt: 'Received',
    folder: 'Folder',
    status: 'Status',
    assignee: 'Assigned to',
    page: 'Page',
    locale: 'Language',
    yes: 'Yes',
    no: 'No',
    folders: { inbox: 'Inbox', spam: 'Spam' },
    statuses: { new: 'New', read: 'Read', done: 'Done', archived: 'Archived' },
  },
  de: {
    id: 'ID',
    createdAt: 'Eingegangen',
    folder: 'Ordner',
    status: 'Status',
    assignee: 'Zugewiesen an',
    page: 'Seite',
    locale: 'Sprache',
    yes: 'Ja',
    no: 'Nein',
    folders: { inbox: 'Posteingang', spam: 'Spam' },
    statuses: { new: 'Neu', read: 'Gelesen', done: 'Erledigt', archived: 'Archiviert' },
  },
  fr: {
    id: 'ID',
    createdAt: 'Reçu le',
    folder: 'Dossier',
    status: 'Statut',
    assignee: 'Attribué à',
    page: 'Page',
    locale: 'Langue',
    yes: 'Oui',
    no: 'Non',
    folders: { inbox: 'Boîte de réception', spam: 'Spam' },
    statuses: { new: 'Nouveau', read: 'Lu', done: 'Traité', archived: 'Archivé' },
  },
  it: {
    id: 'ID',
    createdAt: 'Ricevuto',
    folder: 'Cartella',
    status: 'Stato',
    assignee: 'Assegnato a',
    page: 'Pagina',
    locale: 'Lingua',
    yes: 'Sì',
    no: 'No',
    folders: { inbox: 'Posta in arrivo', spam: 'Spam' },
    statuses: { new: 'Nuovo', read: 'Letto', done: 'Fatto', archived: 'Archiviato' },
  },
  es: {
    id: 'ID',
    createdAt: 'Recibido',
    folder: 'Carpeta',
    status: 'Estado',
    assignee: 'Asignado a',
    page: 'Página',
    locale: 'Idioma',
    yes: 'Sí',
    no: 'No',
    folders: { inbox: 'Bandeja de entrada', spam: 'Spam' },
    statuses: { new: 'Nuevo', read: 'Leído', done: 'Hecho', archived: 'Archivado' },
  },
};

export function isExportLang(value: unknown): value is ExportLang {
  return typeof value === 'string' && (EXPORT_LANGS as readonly string[]).includes(value);
}

/** A field's heading and its options' labels, in the export's language. */
export interface FieldLabel {
  label: string;
  /** option value → label */
  options: Map<string, string>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A list option's label in `lang`, else its first label, else its value. */
function listLabel(label: unknown, lang: string, value: string): string {
  if (typeof label === 'string') return label;
  if (!isRecord(label)) return value;
  return text(label[lang]) ?? text(Object.values(label).find((v) => typeof v === 'string')) ?? value;
}

/**
 * The labels of every field key in `definitions` (newest first: a key's label is its newest definition's), in
 * `lang` where the form translates it, else as authored. `lists`: the shared option lists by key, as published.
 */
export function fieldLabels(
  definitions: readonly unknown[],
  lang: string,
  lists: Readonly<Record<string, unknown>>,
): Map<string, FieldLabel> {
  const out = new Map<string, FieldLabel>();
  for (const doc of definitions) {
    if (!isRecord(doc) || !Array.isArray(doc.fields)) continue;
    for (const f of doc.fields as unknown[]) {
      if (!isRecord(f) || typeof f.key !== 'string' || out.has(f.key)) continue;
      const tr = isRecord(f.translations) && isRecord(f.translations[lang]) ? f.translations[lang] : {};
      const trOptions = isRecord(tr.options) ? tr.options : {};
      const options = new Map<string, string>();
      if (Array.isArray(f.options))
        for (const o of f.options as unknown[]) {
          if (!isRecord(o) || typeof o.value !== 'string') continue;
          options.set(o.value, text(trOptions[o.value]) ?? text(o.label) ?? o.value);
        }
      const list = typeof f.list === 'string' && Object.hasOwn(lists, f.list) ? lists[f.list] : undefined;
      if (Array.isArray(list))
        for (const o of list as unknown[]) {
          if (!isRecord(o) || typeof o.value !== 'string') continue;
          options.set(o.value, listLabel(o.label, lang, o.value));
        }
      out.set(f.key, { label: text(tr.label) ?? text(f.label) ?? f.key, options });
    }
  }
  return out;
}

/** The list keys the definitions' fields name (to read them once). */
export function listKeysOf(definitions: readonly unknown[]): string[] {
  const keys = new Set<string>();
  for (const doc of definitions)
    if (isRecord(doc) && Array.isArray(doc.fields))
      for (const f of doc.fields as unknown[])
        if (isRecord(f) && typeof f.list === 'string') keys.add(f.list);
  return [...keys];
}

/**
 * A stored instant as wall-clock time in `timeZone`: its parts, for `YYYY-MM-DD HH:MM:SS` (which Excel,
 * LibreOffice and Google Sheets read as a date and time) and for an XLSX date.
 */
export function localParts(iso: string, timeZone: string): number[] | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  // The zone's wall clock read as UTC: the same Intl reading the overview's days use (src/lib/zoned-days.ts).
  const wall = new Date(ms + zoneOffsetMs(timeZone, ms));
  return [
    wall.getUTCFullYear(),
    wall.getUTCMonth() + 1,
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
  ];
}

/** `YYYY-MM-DD hh:mm:ss` of `parts` (from `localParts`), or `iso` as it is where it did not parse. */
export function localDateTime(iso: string, p: number[] | null): string {
  if (p === null) return iso;
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${String(p[0]).padStart(4, '0')}-${two(p[1])}-${two(p[2])} ${two(p[3])}:${two(p[4])}:${two(p[5])}`;
}
