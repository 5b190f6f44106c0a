// Answers of the API checked and rebuilt into the page's types (a member of another type becomes its default):
// the page shows what the server sent and never trusts its shape.

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const rec = (v: unknown): Json => (isRecord(v) ? v : {});
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface Session {
  spaceId: string;
  spaceName: string;
  timeZone: string;
  defaultLocale: string;
  tokenName: string;
  /** The person the token stands for (their id is the token's); null for a tool's token. */
  person: Person | null;
  scopes: string[];
  csrfToken: string;
}

export interface Person {
  id: string;
  name: string;
  email: string | null;
}

function readPerson(raw: unknown): Person | null {
  const p = rec(raw);
  return typeof p.id === 'string' && typeof p.name === 'string'
    ? { id: p.id, name: p.name, email: strOrNull(p.email) }
    : null;
}

export function readPeople(body: unknown): Person[] {
  return list(rec(body).people).flatMap((p) => {
    const person = readPerson(p);
    return person === null ? [] : [person];
  });
}

export function readSession(body: unknown): Session {
  const s = rec(rec(body).session);
  const space = rec(s.space);
  const token = rec(s.token);
  return {
    spaceId: str(s.spaceId),
    spaceName: str(space.name),
    timeZone: str(space.timeZone, 'UTC'),
    defaultLocale: str(space.defaultLocale, 'en'),
    tokenName: str(token.name) || str(token.hint),
    person: readPerson(s.person),
    scopes: list(s.scopes).filter((x): x is string => typeof x === 'string'),
    csrfToken: str(s.csrfToken),
  };
}

export type FormStatus = 'scheduled' | 'open' | 'closed' | 'full';
export const STATUSES = ['new', 'read', 'done', 'archived'] as const;
export type SubmissionStatus = (typeof STATUSES)[number];
export const isStatus = (v: unknown): v is SubmissionStatus => (STATUSES as readonly unknown[]).includes(v);

export interface FormSummary {
  key: string;
  name: string;
  deleted: boolean;
  status: FormStatus | null;
  counts: Record<'new' | 'read' | 'done' | 'archived' | 'inbox' | 'spam' | 'unread', number>;
  lastSubmissionAt: string | null;
  daily: { inbox: number[]; spam: number[] };
}

export interface Overview {
  timeZone: string;
  dates: string[];
  forms: FormSummary[];
}

const FORM_STATUSES: readonly string[] = ['scheduled', 'open', 'closed', 'full'];

export function readOverview(body: unknown): Overview {
  const o = rec(body);
  return {
    timeZone: str(o.timeZone, 'UTC'),
    dates: list(o.dates).map((d) => str(d)),
    forms: list(o.forms).map((raw) => {
      const f = rec(raw);
      const c = rec(f.counts);
      const daily = rec(f.daily);
      const status = str(f.status);
      return {
        key: str(f.key),
        name: str(f.name),
        deleted: f.deleted === true,
        status: FORM_STATUSES.includes(status) ? (status as FormStatus) : null, // checked on this line
        counts: {
          new: num(c.new),
          read: num(c.read),
          done: num(c.done),
          archived: num(c.archived),
          inbox: num(c.inbox),
          spam: num(c.spam),
          unread: num(c.unread),
        },
        lastSubmissionAt: strOrNull(f.lastSubmissionAt),
        daily: { inbox: list(daily.inbox).map(num), spam: list(daily.spam).map(num) },
      };
    }),
  };
}

export interface Note {
  id: string;
  text: string;
  author: string;
  createdAt: string;
}

export interface Item {
  id: string;
  folder: 'inbox' | 'spam';
  status: SubmissionStatus;
  assignee: string | null;
  assigneeName: string | null;
  read: boolean;
  values: Json;
  page: string | null;
  locale: string;
  createdAt: string;
  noteCount: number;
  formCv: number | null;
  notes: Note[];
}

export function readItem(raw: unknown): Item {
  const i = rec(raw);
  return {
    id: str(i.id),
    folder: i.folder === 'spam' ? 'spam' : 'inbox',
    status: isStatus(i.status) ? i.status : 'new',
    assignee: strOrNull(i.assignee),
    assigneeName: strOrNull(i.assigneeName),
    read: i.read === true,
    values: rec(i.values),
    page: strOrNull(i.page),
    locale: str(i.locale),
    createdAt: str(i.createdAt),
    noteCount: num(i.noteCount),
    formCv: typeof i.formCv === 'number' ? i.formCv : null,
    notes: list(i.notes).map((n) => {
      const x = rec(n);
      return { id: str(x.id), text: str(x.text), author: str(x.author), createdAt: str(x.createdAt) };
    }),
  };
}

export interface Page {
  items: Item[];
  nextCursor: string | null;
  total: number;
  /** False: more than `total` match (the server stopped counting). Absent (an older server): exact. */
  totalExact: boolean;
  unread: number;
}

export function readPage(body: unknown): Page {
  const b = rec(body);
  return {
    items: list(b.items).map(readItem),
    nextCursor: strOrNull(b.nextCursor),
    total: num(b.total),
    totalExact: b.totalExact !== false,
    unread: num(b.unread),
  };
}

export interface FieldLabel {
  key: string;
  type: string;
  label: string;
  /** option value → label, in the page's language where the form translates it */
  options: Map<string, string>;
}

export const CHOICE_TYPES: readonly string[] = ['select', 'radio', 'checkboxes', 'checkbox'];

/**
 * The labels of a published form version in the page's language where the form has a translation, else as
 * authored: field labels, option labels (inline, or from the shared list as published then).
 */
export function readLabels(body: unknown, lang: string, defaultLocale: string): FieldLabel[] {
  const b = rec(body);
  const lists = rec(b.lists);
  return list(rec(b.form).fields).flatMap((raw): FieldLabel[] => {
    const f = rec(raw);
    const key = str(f.key);
    const type = str(f.type);
    if (key === '' || ['heading', 'paragraph', 'section'].includes(type)) return [];
    const tr = rec(rec(f.translations)[lang]);
    const trOptions = rec(tr.options);
    const options = new Map<string, string>();
    for (const o of list(f.options)) {
      const opt = rec(o);
      const value = str(opt.value);
      options.set(value, str(trOptions[value]) || str(opt.label) || value);
    }
    if (typeof f.list === 'string')
      for (const o of list(lists[f.list])) {
        const opt = rec(o);
        const labels = rec(opt.label);
        const value = str(opt.value);
        options.set(
          value,
          str(labels[lang]) || str(labels[defaultLocale]) || str(Object.values(labels)[0]) || value,
        );
      }
    return [{ key, type, label: str(tr.label) || str(f.label) || key, options }];
  });
}

export interface Activity {
  id: string;
  at: string;
  actor: string;
  actorName: string | null;
  action: string;
  details: Json;
}

export function readActivity(body: unknown): Activity[] {
  return list(rec(body).items).map((raw) => {
    const a = rec(raw);
    return {
      id: str(a.id),
      at: str(a.at),
      actor: str(a.actor),
      actorName: strOrNull(a.actorName),
      action: str(a.action),
      details: rec(a.details),
    };
  });
}

export interface EraseCounts {
  submissions: number;
  files: number;
  forms: { form: string; inbox: number; spam: number }[];
  items: { id: string; form: string; folder: 'inbox' | 'spam'; createdAt: string }[];
}

export function readErase(body: unknown): EraseCounts {
  const b = rec(body);
  return {
    submissions: num(b.submissions),
    files: num(b.files),
    forms: list(b.forms).map((raw) => {
      const f = rec(raw);
      return { form: str(f.form), inbox: num(f.inbox), spam: num(f.spam) };
    }),
    items: list(b.items).map((raw) => {
      const i = rec(raw);
      return {
        id: str(i.id),
        form: str(i.form),
        folder: i.folder === 'spam' ? ('spam' as const) : ('inbox' as const),
        createdAt: str(i.createdAt),
      };
    }),
  };
}
