// One submission (issue 32 item 5): answers under the labels of the form version it was submitted to, files,
// page, language, time in the space's zone, status, assignee, notes and its activity. `j`/`k` move through the
// list it was opened from, `e` marks it done, `u` goes back.

import { useEffect, useState } from 'preact/hooks';
import { call, query, spacePath } from './api.js';
import { formatTime, safeHref } from './format.js';
import { useKeys } from './keys.js';
import { useFormName } from './list.js';
import { loadedList } from './lists.js';
import {
  type Activity,
  type FieldLabel,
  type Item,
  readActivity,
  readItem,
  readLabels,
  type Session,
  STATUSES,
} from './read.js';
import { detailHref, formHref } from './router.js';

const ACTIONS: Record<string, string> = {
  'submissions.updated': 'Changed',
  'submissions.deleted': 'Deleted',
  'submission.note_added': 'Note added',
  'submission.note_deleted': 'Note deleted',
  'submission.file_downloaded': 'File downloaded',
};

function Answer(props: { field: FieldLabel | undefined; value: unknown; fileHref: (id: string) => string }) {
  const { field, value } = props;
  const files = field?.type === 'file' || (typeof value === 'string' && value.startsWith('fup_'));
  const values = Array.isArray(value) ? value : [value];
  if (files)
    return (
      <ul class="files">
        {values
          .filter((v): v is string => typeof v === 'string')
          .map((id) => (
            <li key={id}>
              <a href={props.fileHref(id)} download>
                Download file <code>{id}</code>
              </a>
            </li>
          ))}
      </ul>
    );
  const text = (v: unknown): string => {
    if (typeof v === 'boolean') return v ? 'Yes' : 'No';
    if (typeof v === 'string' || typeof v === 'number') return field?.options.get(String(v)) ?? String(v);
    return v === null || v === undefined ? '—' : JSON.stringify(v);
  };
  if (Array.isArray(value))
    return value.length === 0 ? (
      <span>—</span>
    ) : (
      <ul class="choices">
        {value.map((v, i) => (
          <li key={i}>{text(v)}</li>
        ))}
      </ul>
    );
  return <span class="answer">{text(value)}</span>;
}

export function Detail(props: { session: Session; form: string; id: string; params: URLSearchParams }) {
  const { session, form, id, params } = props;
  const name = useFormName(session, form);
  const base = spacePath(session.spaceId, 'forms', form, 'submissions');
  const [item, setItem] = useState<Item | null>(null);
  const [labels, setLabels] = useState<FieldLabel[]>([]);
  const [activity, setActivity] = useState<Activity[]>([]);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const [refresh, setRefresh] = useState(0);
  const list = loadedList(form, params.toString());
  const at = list?.items.findIndex((i) => i.id === id) ?? -1;

  useEffect(() => {
    let live = true;
    setError('');
    call('GET', `${base}/${encodeURIComponent(id)}`)
      .then(async (body) => {
        const next = readItem(
          typeof body === 'object' && body !== null ? (body as { submission?: unknown }).submission : null,
        );
        if (!live) return;
        setItem(next);
        document.title = `Submission · ${name} · Folio inbox`;
        const version = spacePath(session.spaceId, 'forms', form, 'published');
        const cv = next.formCv === null ? {} : { cv: String(next.formCv) };
        const published = await call('GET', `${version}${query(cv)}`).catch(() =>
          call('GET', version).catch(() => null),
        );
        if (live && published !== null) setLabels(readLabels(published, session.defaultLocale));
        const acts = await call('GET', `${base}/${encodeURIComponent(id)}/activity`).catch(() => null);
        if (live && acts !== null) setActivity(readActivity(acts));
      })
      .catch((err: Error) => live && setError(err.message));
    return () => {
      live = false;
    };
  }, [base, id, refresh]);

  const go = (i: number) => {
    const next = list?.items[i];
    if (next) location.hash = detailHref(form, next.id, params).slice(1);
  };
  const change = async (body: Record<string, unknown>, done: string) => {
    try {
      const answer = await call('PATCH', `${base}/${encodeURIComponent(id)}`, body);
      const next = readItem(
        typeof answer === 'object' && answer !== null
          ? (answer as { submission?: unknown }).submission
          : null,
      );
      setItem(next);
      const row = list?.items.find((i) => i.id === id);
      if (row) Object.assign(row, { status: next.status, assignee: next.assignee });
      setSaved(done);
      setRefresh((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  useKeys({
    j: () => go(at + 1),
    k: () => go(at - 1),
    e: () => void change({ status: 'done' }, 'Marked done.'),
    u: () => (location.hash = formHref(form, params).slice(1)),
  });

  if (error !== '' && item === null)
    return (
      <section>
        <p class="crumbs">
          <a href={formHref(form, params)}>{name}</a> ›
        </p>
        <p role="alert" class="error">
          {error}
        </p>
      </section>
    );
  if (item === null) return <p class="loading">Loading…</p>;

  const known = new Set(labels.map((l) => l.key));
  const rows: [FieldLabel | undefined, string, unknown][] = [
    ...labels
      .filter((l) => Object.hasOwn(item.values, l.key))
      .map((l): [FieldLabel, string, unknown] => [l, l.label, item.values[l.key]]),
    ...Object.entries(item.values)
      .filter(([k]) => !known.has(k))
      .map(([k, v]): [undefined, string, unknown] => [undefined, k, v]),
  ];
  const page = safeHref(item.page);
  const fileHref = (upload: string) =>
    `${base}/${encodeURIComponent(id)}/files/${encodeURIComponent(upload)}`;

  const addNote = async (e: Event) => {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement; // the form this handler is on
    const data = new FormData(formEl);
    const text = String(data.get('text') ?? '');
    const author = String(data.get('author') ?? '').trim();
    try {
      await call('POST', `${base}/${encodeURIComponent(id)}/notes`, { text, author });
      localStorage.setItem('folio-inbox-author', author);
      formEl.reset();
      setSaved('Note added.');
      setRefresh((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const deleteNote = async (noteId: string) => {
    try {
      await call('DELETE', `${base}/${encodeURIComponent(id)}/notes/${encodeURIComponent(noteId)}`);
      setSaved('Note deleted.');
      setRefresh((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <article aria-labelledby="detail-title">
      <p class="crumbs">
        <a href="#/">Forms</a> › <a href={formHref(form, params)}>{name}</a> ›
      </p>
      <h1 id="detail-title">Submission of {formatTime(item.createdAt, session.timeZone)}</h1>
      <nav class="pager" aria-label="Submissions">
        <button type="button" disabled={at <= 0} onClick={() => go(at - 1)}>
          ← Newer (k)
        </button>
        <button
          type="button"
          disabled={at < 0 || at + 1 >= (list?.items.length ?? 0)}
          onClick={() => go(at + 1)}
        >
          Older (j) →
        </button>
      </nav>
      <p class="visually-hidden" role="status" aria-live="polite">
        {saved}
      </p>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}

      <div class="detail">
        <section aria-labelledby="answers-title" class="answers">
          <h2 id="answers-title">Answers</h2>
          <dl>
            {rows.map(([field, label, value]) => (
              <div key={label} class="row">
                <dt>{label}</dt>
                <dd>
                  <Answer field={field} value={value} fileHref={fileHref} />
                </dd>
              </div>
            ))}
          </dl>
        </section>

        <aside aria-labelledby="about-title" class="about">
          <h2 id="about-title">About</h2>
          <dl>
            <div class="row">
              <dt>Received</dt>
              <dd>
                <time dateTime={item.createdAt}>{formatTime(item.createdAt, session.timeZone)}</time>{' '}
                <span class="help">({session.timeZone})</span>
              </dd>
            </div>
            <div class="row">
              <dt>Page</dt>
              <dd>
                {page !== null ? (
                  <a href={page} rel="noopener noreferrer nofollow" target="_blank">
                    {item.page}
                  </a>
                ) : (
                  <span class="page-text">{item.page ?? '—'}</span>
                )}
              </dd>
            </div>
            <div class="row">
              <dt>Language</dt>
              <dd>{item.locale}</dd>
            </div>
            <div class="row">
              <dt>Folder</dt>
              <dd>{item.folder}</dd>
            </div>
          </dl>
          <div class="field">
            <label for="d-status">Status</label>
            <select
              id="d-status"
              value={item.status}
              onChange={(e) =>
                void change({ status: (e.currentTarget as HTMLSelectElement).value }, 'Status saved.')
              }
            >
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <form
            class="field"
            key={`a-${item.assignee ?? ''}`}
            onSubmit={(e) => {
              e.preventDefault();
              const input = (e.currentTarget as HTMLFormElement).elements.namedItem('assignee'); // this form
              const who = input instanceof HTMLInputElement ? input.value.trim() : '';
              void change({ assignee: who === '' ? null : who }, 'Assignee saved.');
            }}
          >
            <label for="d-assignee">Assignee</label>
            <span class="inline">
              <input id="d-assignee" name="assignee" defaultValue={item.assignee ?? ''} maxLength={200} />
              <button type="submit">Save</button>
            </span>
          </form>
        </aside>
      </div>

      <section aria-labelledby="notes-title">
        <h2 id="notes-title">Notes ({item.notes.length})</h2>
        <ul class="notes">
          {item.notes.map((n) => (
            <li key={n.id}>
              <p class="note-text">{n.text}</p>
              <p class="help">
                {n.author} · {formatTime(n.createdAt, session.timeZone)}{' '}
                <button
                  type="button"
                  class="link"
                  onClick={() => void deleteNote(n.id)}
                  aria-label={`Delete the note by ${n.author}`}
                >
                  Delete
                </button>
              </p>
            </li>
          ))}
        </ul>
        <form class="note-form" onSubmit={addNote}>
          <div class="field">
            <label for="n-text">New note</label>
            <textarea id="n-text" name="text" required maxLength={5000} rows={3} />
          </div>
          <div class="field">
            <label for="n-author">Your name (shown with the note)</label>
            <input
              id="n-author"
              name="author"
              required
              maxLength={200}
              defaultValue={localStorage.getItem('folio-inbox-author') ?? ''}
            />
          </div>
          <button type="submit">Add note</button>
        </form>
      </section>

      <section aria-labelledby="activity-title">
        <h2 id="activity-title">Activity</h2>
        <ol class="activity">
          <li>
            <time dateTime={item.createdAt}>{formatTime(item.createdAt, session.timeZone)}</time> Received
          </li>
          {activity.map((a) => (
            <li key={a.id}>
              <time dateTime={a.at}>{formatTime(a.at, session.timeZone)}</time>{' '}
              {ACTIONS[a.action] ?? a.action}
              {typeof a.details.status === 'string' && `: status ${a.details.status}`}
              {'assignee' in a.details &&
                `: assignee ${a.details.assignee === null ? 'none' : String(a.details.assignee)}`}
              {typeof a.details.folder === 'string' && `: moved to ${a.details.folder}`}
              <span class="help"> by {a.actor}</span>
            </li>
          ))}
        </ol>
        <p class="help">
          Changes made in bulk are recorded once for all the submissions they touched, not here.
        </p>
      </section>
    </article>
  );
}
