// One submission: answers under the labels of the form version it was
// submitted to (options in words, the page's language), the visitor's address as a reply link, files, page,
// language, time (relative, exact on hover), status, the person assigned, notes and its activity by name. Opening
// it marks it read for the person signed in; "mark unread" takes that back. `j`/`k` move through the list it was
// opened from, `e` marks it done, `u` goes back.

import { useEffect, useRef, useState } from 'preact/hooks';
import { call, spacePath } from './api.js';
import { answerText, useFormInfo, usePeople } from './form-info.js';
import { formatTime, relativeTime, replyHref, safeHref } from './format.js';
import { type MessageKey, t } from './i18n/index.js';
import { useKeys } from './keys.js';
import { setTitle } from './list.js';
import { loadedList } from './lists.js';
import {
  type Activity,
  type FieldLabel,
  isStatus,
  type Item,
  readActivity,
  readItem,
  type Session,
  STATUSES,
} from './read.js';
import { detailHref, formHref } from './router.js';

const ACTIONS: Record<string, MessageKey> = {
  'submissions.updated': 'actChanged',
  'submissions.deleted': 'actDeleted',
  'submission.note_added': 'actNoteAdded',
  'submission.note_deleted': 'actNoteDeleted',
  'submission.file_downloaded': 'actFileDownloaded',
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
                {t('downloadFile')} <code>{id}</code>
              </a>
            </li>
          ))}
      </ul>
    );
  const text = (v: unknown) =>
    v === null || v === undefined ? '—' : answerText(field, v, t('yes'), t('no')) || JSON.stringify(v);
  if (Array.isArray(value))
    return value.length === 0 ? (
      <span>—</span>
    ) : (
      <ul class="choices">
        {value.map((v, i) => (
          <li key={i} dir="auto">
            {text(v)}
          </li>
        ))}
      </ul>
    );
  return (
    <span class="answer" dir="auto">
      {text(value)}
    </span>
  );
}

export function Detail(props: { session: Session; form: string; id: string; params: URLSearchParams }) {
  const { session, form, id, params } = props;
  const base = spacePath(session.spaceId, 'forms', form, 'submissions');
  const [item, setItem] = useState<Item | null>(null);
  const [activity, setActivity] = useState<Activity[]>([]);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const [refresh, setRefresh] = useState(0);
  /** The submission marked unread here: reloading it after a change does not mark it read again. */
  const keptUnread = useRef<string | null>(null);
  const info = useFormInfo(session, form, item?.formCv ?? null);
  const people = usePeople(session);
  const list = loadedList(form, params.toString());
  const at = list?.items.findIndex((i) => i.id === id) ?? -1;
  const path = `${base}/${encodeURIComponent(id)}`;

  useEffect(() => {
    let live = true;
    setError('');
    call('GET', path)
      .then(async (body) => {
        const next = readItem(
          typeof body === 'object' && body !== null ? (body as { submission?: unknown }).submission : null,
        );
        if (!live) return;
        setItem(next);
        // Opened: read for the person signed in (their mark only; the status is the team's).
        if (!next.read && keptUnread.current !== id) {
          await call('PUT', `${path}/read`).catch(() => undefined);
          const row = list?.items.find((i) => i.id === id);
          if (row) row.read = true;
        }
        const acts = await call('GET', `${path}/activity`).catch(() => null);
        if (live && acts !== null) setActivity(readActivity(acts));
      })
      .catch((err: Error) => live && setError(err.message));
    return () => {
      live = false;
    };
  }, [path, refresh]);

  useEffect(() => setTitle(0, t('submission'), info.name), [info.name]);

  const go = (i: number) => {
    const next = list?.items[i];
    if (next) location.hash = detailHref(form, next.id, params).slice(1);
  };
  const change = async (body: Record<string, unknown>, done: string) => {
    try {
      const answer = await call('PATCH', path, body);
      const next = readItem(
        typeof answer === 'object' && answer !== null
          ? (answer as { submission?: unknown }).submission
          : null,
      );
      setItem(next);
      const row = list?.items.find((i) => i.id === id);
      if (row)
        Object.assign(row, { status: next.status, assignee: next.assignee, assigneeName: next.assigneeName });
      setSaved(done);
      setRefresh((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const markUnread = async () => {
    try {
      await call('DELETE', `${path}/read`);
      keptUnread.current = id;
      const row = list?.items.find((i) => i.id === id);
      if (row) row.read = false;
      setItem((old) => (old === null ? old : { ...old, read: false }));
      setSaved(t('markedUnreadOne'));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  useKeys({
    j: () => go(at + 1),
    k: () => go(at - 1),
    e: () => void change({ status: 'done' }, t('markedDone')),
    u: () => (location.hash = formHref(form, params).slice(1)),
  });

  if (error !== '' && item === null)
    return (
      <section>
        <p class="crumbs">
          <a href={formHref(form, params)}>{info.name}</a> ›
        </p>
        <p role="alert" class="error">
          {error}
        </p>
      </section>
    );
  if (item === null) return <p class="loading">{t('loading')}</p>;

  const labels = info.labels;
  const known = new Set(labels.map((l) => l.key));
  const rows: [FieldLabel | undefined, string, unknown][] = [
    ...labels
      .filter((l) => Object.hasOwn(item.values, l.key))
      .map((l): [FieldLabel, string, unknown] => [l, l.label, item.values[l.key]]),
    ...Object.entries(item.values)
      .filter(([k]) => !known.has(k))
      .map(([k, v]): [undefined, string, unknown] => [undefined, k, v]),
  ];
  const emailField = labels.find((l) => l.type === 'email' && typeof item.values[l.key] === 'string');
  const reply = emailField === undefined ? null : replyHref(item.values[emailField.key], info.name);
  const page = safeHref(item.page);
  const fileHref = (upload: string) => `${path}/files/${encodeURIComponent(upload)}`;
  const exact = `${formatTime(item.createdAt, session.timeZone)} (${session.timeZone})`;
  const now = Date.now();
  const person = session.person;

  const addNote = async (e: Event) => {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement; // the form this handler is on
    const data = new FormData(formEl);
    const text = String(data.get('text') ?? '');
    const author = String(data.get('author') ?? '').trim();
    try {
      // A person writes under their own name; a tool's token names the author.
      await call('POST', `${path}/notes`, person === null ? { text, author } : { text });
      if (person === null) localStorage.setItem('folio-inbox-author', author);
      formEl.reset();
      setSaved(t('noteAdded'));
      setRefresh((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const deleteNote = async (noteId: string) => {
    try {
      await call('DELETE', `${path}/notes/${encodeURIComponent(noteId)}`);
      setSaved(t('noteDeleted'));
      setRefresh((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const activityText = (a: Activity): string => {
    const parts: string[] = [];
    const status = a.details.status;
    if (isStatus(status)) parts.push(t('actStatus', { status: t(`status_${status}`) }));
    if ('assignee' in a.details) {
      const who = people.find((p) => p.id === a.details.assignee)?.name;
      parts.push(
        a.details.assignee === null
          ? t('actUnassigned')
          : t('actAssigned', { name: who ?? String(a.details.assignee) }),
      );
    }
    if (typeof a.details.folder === 'string')
      parts.push(t('actMoved', { folder: a.details.folder === 'spam' ? t('spam') : t('inbox') }));
    return parts.join(', ');
  };

  return (
    <article aria-labelledby="detail-title">
      <p class="crumbs">
        <a href="#/">{t('forms')}</a> › <a href={formHref(form, params)}>{info.name}</a> ›
      </p>
      <h1 id="detail-title">{t('submissionOf', { time: formatTime(item.createdAt, session.timeZone) })}</h1>
      <nav class="pager" aria-label={t('submissions')}>
        <button type="button" disabled={at <= 0} onClick={() => go(at - 1)}>
          {t('newer')}
        </button>
        <button
          type="button"
          disabled={at < 0 || at + 1 >= (list?.items.length ?? 0)}
          onClick={() => go(at + 1)}
        >
          {t('older')}
        </button>
        <button type="button" onClick={() => void markUnread()} disabled={!item.read}>
          {t('markUnread')}
        </button>
        {reply !== null && (
          <a class="button" href={reply}>
            {t('reply')}
          </a>
        )}
      </nav>
      {/* Visible and announced: what the last change did. */}
      <p class={saved === '' ? 'visually-hidden' : 'notice'} role="status" aria-live="polite">
        {saved}
      </p>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}

      <div class="detail">
        <section aria-labelledby="answers-title" class="answers">
          <h2 id="answers-title">{t('answers')}</h2>
          <dl>
            {rows.map(([field, label, value]) => (
              <div key={label} class="row">
                <dt>{label}</dt>
                <dd>
                  {field !== undefined &&
                  field.type === 'email' &&
                  typeof value === 'string' &&
                  reply !== null ? (
                    <a href={reply} class="reply">
                      <bdi>{value}</bdi>
                    </a>
                  ) : (
                    <Answer field={field} value={value} fileHref={fileHref} />
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </section>

        <aside aria-labelledby="about-title" class="about">
          <h2 id="about-title">{t('about')}</h2>
          <dl>
            <div class="row">
              <dt>{t('received')}</dt>
              <dd>
                <time dateTime={item.createdAt} title={exact}>
                  {relativeTime(item.createdAt, now)}
                </time>{' '}
                <span class="help">{exact}</span>
              </dd>
            </div>
            <div class="row">
              <dt>{t('page')}</dt>
              <dd>
                {page !== null ? (
                  <a href={page} rel="noopener noreferrer nofollow" target="_blank">
                    <bdi>{item.page}</bdi>
                  </a>
                ) : (
                  <span class="page-text" dir="auto">
                    {item.page ?? '—'}
                  </span>
                )}
              </dd>
            </div>
            <div class="row">
              <dt>{t('language')}</dt>
              <dd>{item.locale}</dd>
            </div>
            <div class="row">
              <dt>{t('folder')}</dt>
              <dd>{item.folder === 'spam' ? t('spam') : t('inbox')}</dd>
            </div>
          </dl>
          <div class="field">
            <label for="d-status">{t('status')}</label>
            <select
              id="d-status"
              value={item.status}
              onChange={(e) =>
                void change({ status: (e.currentTarget as HTMLSelectElement).value }, t('statusSaved'))
              }
            >
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`status_${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="d-assignee">{t('assignee')}</label>
            <select
              id="d-assignee"
              value={item.assignee ?? ''}
              onChange={(e) => {
                const who = (e.currentTarget as HTMLSelectElement).value;
                void change({ assignee: who === '' ? null : who }, t('assigneeSaved'));
              }}
            >
              <option value="">
                {item.assignee === null && item.assigneeName !== null ? item.assigneeName : t('nobody')}
              </option>
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
              {item.assignee !== null && !people.some((p) => p.id === item.assignee) && (
                <option value={item.assignee}>{item.assigneeName ?? t('formerPerson')}</option>
              )}
            </select>
          </div>
        </aside>
      </div>

      <section aria-labelledby="notes-title">
        <h2 id="notes-title">{t('notesCount', { n: item.notes.length })}</h2>
        <ul class="notes">
          {item.notes.map((n) => (
            <li key={n.id}>
              <p class="note-text" dir="auto">
                {n.text}
              </p>
              <p class="help">
                <bdi>{n.author}</bdi> · {formatTime(n.createdAt, session.timeZone)}{' '}
                <button
                  type="button"
                  class="link"
                  onClick={() => void deleteNote(n.id)}
                  aria-label={t('deleteNoteBy', { name: n.author })}
                >
                  {t('delete')}
                </button>
              </p>
            </li>
          ))}
        </ul>
        <form class="note-form" onSubmit={addNote}>
          <div class="field">
            <label for="n-text">{t('newNote')}</label>
            <textarea id="n-text" name="text" required maxLength={5000} rows={3} dir="auto" />
          </div>
          {person === null ? (
            <div class="field">
              <label for="n-author">{t('yourName')}</label>
              <input
                id="n-author"
                name="author"
                required
                maxLength={200}
                defaultValue={localStorage.getItem('folio-inbox-author') ?? ''}
              />
            </div>
          ) : (
            <p class="help">{t('writingAs', { name: person.name })}</p>
          )}
          <button type="submit">{t('addNote')}</button>
        </form>
      </section>

      <section aria-labelledby="activity-title">
        <h2 id="activity-title">{t('activity')}</h2>
        <ol class="activity">
          <li>
            <time dateTime={item.createdAt}>{formatTime(item.createdAt, session.timeZone)}</time>{' '}
            {t('actReceived')}
          </li>
          {activity.map((a) => {
            const key = ACTIONS[a.action];
            const what = activityText(a);
            return (
              <li key={a.id}>
                <time dateTime={a.at}>{formatTime(a.at, session.timeZone)}</time>{' '}
                {key === undefined ? a.action : t(key)}
                {what !== '' && `: ${what}`}
                <span class="help">
                  {' '}
                  {t('by')}{' '}
                  {a.actorName !== null ? (
                    <bdi>{a.actorName}</bdi>
                  ) : a.actor === 'link' ? (
                    t('signedLink')
                  ) : (
                    t('revokedToken')
                  )}
                </span>
              </li>
            );
          })}
        </ol>
        <p class="help">{t('bulkNotHere')}</p>
      </section>
    </article>
  );
}
