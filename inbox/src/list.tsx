// A form's submissions (issue 32 items 4 and 8): folder tabs, filters, search, keyset "load more", bulk actions on
// the selected ones, export of the current filter, and new submissions as they arrive (a poll keyed on the newest
// one shown, announced in a live region).

import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, query, spacePath } from './api.js';
import { Dialog } from './dialog.js';
import { FilterForm } from './filter-form.js';
import { apiFilters } from './filters.js';
import { formatTime, plural } from './format.js';
import { useKeys } from './keys.js';
import { rememberList } from './lists.js';
import { type Item, isRecord, readPage, type Session, STATUSES } from './read.js';
import { detailHref, formHref } from './router.js';

const PAGE = 50;
const POLL_MS = 10_000;

/** A line that says what the submission is about: its first few short text values. */
function summary(item: Item): string {
  const parts = Object.values(item.values)
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String)
    .filter((v) => !v.startsWith('fup_'))
    .slice(0, 3);
  const text = parts.join(' · ');
  return text.length > 140 ? `${text.slice(0, 139)}…` : text || '(no text values)';
}

export function useFormName(session: Session, form: string): string {
  const [name, setName] = useState(form);
  useEffect(() => {
    call('GET', spacePath(session.spaceId, 'forms', form))
      .then((body) => {
        const f = isRecord(body) && isRecord(body.form) ? body.form : {};
        if (typeof f.name === 'string') setName(f.name);
      })
      .catch(() => setName(form));
  }, [session.spaceId, form]);
  return name;
}

type Pending = { action: 'delete' } | null;

export function List(props: { session: Session; form: string; params: URLSearchParams }) {
  const { session, form, params } = props;
  const filters = apiFilters(params, session.timeZone);
  const listKey = params.toString();
  const name = useFormName(session, form);
  const [items, setItems] = useState<Item[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [current, setCurrent] = useState(0);
  const [announce, setAnnounce] = useState('');
  const [pending, setPending] = useState<Pending>(null);
  const [reloads, setReloads] = useState(0);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const base = spacePath(session.spaceId, 'forms', form, 'submissions');
  const spam = params.get('folder') === 'spam';
  const canDelete = session.scopes.includes('forms.write');

  useEffect(() => {
    document.title = `${name} · Folio inbox`;
  }, [name]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    setError('');
    call('GET', `${base}${query({ ...filters, limit: String(PAGE) })}`)
      .then((body) => {
        if (!live) return;
        const page = readPage(body);
        setItems(page.items);
        setCursor(page.nextCursor);
        setSelected(new Set());
        setCurrent(0);
      })
      .catch((err: Error) => live && setError(err.message))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [base, listKey, reloads]);

  useEffect(() => rememberList({ form, key: listKey, items, nextCursor: cursor }), [items, cursor]);

  // New submissions without a reload: the newest shown is the key (`from` is inclusive, so it is skipped).
  useEffect(() => {
    if (filters.to !== undefined) return;
    const timer = setInterval(async () => {
      const newest = itemsRef.current[0]?.createdAt;
      const from =
        newest !== undefined && (filters.from === undefined || newest > filters.from) ? newest : filters.from;
      try {
        const page = readPage(
          await call('GET', `${base}${query({ ...filters, from, limit: String(PAGE) })}`),
        );
        const known = new Set(itemsRef.current.map((i) => i.id));
        const fresh = page.items.filter((i) => !known.has(i.id));
        if (fresh.length === 0) return;
        setItems((old) => [...fresh, ...old]);
        setAnnounce(`${plural(fresh.length, 'new submission')} arrived.`);
      } catch {
        // The next poll tries again; a 401 has already sent the page to sign-in.
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [base, listKey]);

  const loadMore = async () => {
    if (cursor === null) return;
    try {
      const page = readPage(
        await call('GET', `${base}${query({ ...filters, limit: String(PAGE), cursor })}`),
      );
      setItems((old) => [...old, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const bulk = async (body: Record<string, unknown>, done: string) => {
    const ids = [...selected];
    if (ids.length === 0) return;
    try {
      const result = await call('POST', `${base}/bulk`, { ...body, ids });
      const count = isRecord(result) && typeof result.count === 'number' ? result.count : ids.length;
      const skipped = isRecord(result) && typeof result.skipped === 'number' ? result.skipped : 0;
      setAnnounce(
        `${plural(count, 'submission')} ${done}${skipped > 0 ? `; ${skipped} skipped (the form is full)` : ''}.`,
      );
      setReloads((n) => n + 1);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };

  const toggle = (id: string) =>
    setSelected((old) => {
      const next = new Set(old);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const focusRow = (i: number) => {
    setCurrent(i);
    document.getElementById(`row-${i}`)?.focus();
  };
  useKeys({
    j: () => focusRow(Math.min(items.length - 1, current + 1)),
    k: () => focusRow(Math.max(0, current - 1)),
    o: () => items[current] && (location.hash = detailHref(form, items[current].id, params).slice(1)),
    x: () => items[current] && toggle(items[current].id),
    e: () => {
      const item = items[current];
      if (!item) return;
      call('PATCH', `${base}/${encodeURIComponent(item.id)}`, { status: 'done' })
        .then(() => {
          setItems((old) => old.map((i) => (i.id === item.id ? { ...i, status: 'done' } : i)));
          setAnnounce('Marked done.');
        })
        .catch((err: Error) => setError(err.message));
    },
  });

  const folderParams = (folder: 'inbox' | 'spam') => {
    const next = new URLSearchParams(params);
    if (folder === 'spam') next.set('folder', 'spam');
    else next.delete('folder');
    return next;
  };
  const exportHref = (format: 'csv' | 'ndjson') => `${base}/export${query({ ...filters, format })}`;
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));

  return (
    <section aria-labelledby="list-title">
      <p class="crumbs">
        <a href="#/">Forms</a> ›
      </p>
      <h1 id="list-title">{name}</h1>
      <nav aria-label="Folders" class="tabs">
        <a href={formHref(form, folderParams('inbox'))} aria-current={spam ? undefined : 'page'}>
          Inbox
        </a>
        <a href={formHref(form, folderParams('spam'))} aria-current={spam ? 'page' : undefined}>
          Spam
        </a>
      </nav>

      <FilterForm form={form} params={params} spam={spam} key={listKey} />

      <p class="exports">
        Export this filter:{' '}
        <a href={exportHref('csv')} download>
          CSV
        </a>{' '}
        ·{' '}
        <a href={exportHref('ndjson')} download>
          NDJSON
        </a>
        <span class="help"> (times in {session.timeZone})</span>
      </p>

      <div class="bulk" role="group" aria-label="Selected submissions">
        <input
          id="select-all"
          type="checkbox"
          checked={allSelected}
          onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id)))}
        />
        <label for="select-all">
          {selected.size === 0 ? 'Select all shown' : `${selected.size} selected`}
        </label>
        {selected.size > 0 && (
          <>
            <label for="bulk-status" class="visually-hidden">
              Status for the selected
            </label>
            <select
              id="bulk-status"
              onChange={(e) => {
                const select = e.currentTarget as HTMLSelectElement; // this select
                const status = select.value;
                select.value = '';
                if (status !== '') void bulk({ action: 'status', status }, `marked ${status}`);
              }}
            >
              <option value="">Mark as…</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <form
              class="assign"
              onSubmit={(e) => {
                e.preventDefault();
                const input = (e.currentTarget as HTMLFormElement).elements.namedItem('assign-to'); // this form
                const who = input instanceof HTMLInputElement ? input.value.trim() : '';
                void bulk(
                  { action: 'assign', assignee: who === '' ? null : who },
                  who === '' ? 'unassigned' : `assigned to ${who}`,
                );
              }}
            >
              <label for="assign-to" class="visually-hidden">
                Assign the selected to
              </label>
              <input id="assign-to" name="assign-to" placeholder="Assign to…" maxLength={200} />
              <button type="submit">Assign</button>
            </form>
            {spam ? (
              <button type="button" onClick={() => void bulk({ action: 'not_spam' }, 'moved to the inbox')}>
                Not spam
              </button>
            ) : (
              <button type="button" onClick={() => void bulk({ action: 'spam' }, 'moved to spam')}>
                Spam
              </button>
            )}
            {canDelete && (
              <button type="button" class="danger" onClick={() => setPending({ action: 'delete' })}>
                Delete…
              </button>
            )}
          </>
        )}
      </div>

      <p class="visually-hidden" aria-live="polite" role="status">
        {announce}
      </p>
      {announce !== '' && (
        <p class="notice" aria-hidden="true">
          {announce}
        </p>
      )}
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {loading ? (
        <p class="loading">Loading…</p>
      ) : items.length === 0 ? (
        <p>No submissions match.</p>
      ) : (
        <ul class="items">
          {items.map((item, i) => (
            <li key={item.id} class={i === current ? 'current' : undefined}>
              <input
                type="checkbox"
                id={`sel-${item.id}`}
                checked={selected.has(item.id)}
                onChange={() => toggle(item.id)}
                aria-label={`Select the submission of ${formatTime(item.createdAt, session.timeZone)}`}
              />
              <a id={`row-${i}`} href={detailHref(form, item.id, params)} onFocus={() => setCurrent(i)}>
                <span class="summary">{summary(item)}</span>
                <span class="meta">
                  <span class={`badge st-${item.status}`}>{item.status}</span>
                  {item.assignee !== null && <span class="assignee">→ {item.assignee}</span>}
                  {item.noteCount > 0 && <span class="notes">{plural(item.noteCount, 'note')}</span>}
                  <time dateTime={item.createdAt}>{formatTime(item.createdAt, session.timeZone)}</time>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {cursor !== null && !loading && (
        <button type="button" class="more" onClick={loadMore}>
          Load more
        </button>
      )}
      <p class="help">
        Press <kbd>?</kbd> for keyboard shortcuts.
      </p>

      <Dialog title="Delete submissions?" open={pending !== null} onClose={() => setPending(null)}>
        <p>
          {plural(selected.size, 'submission')} will be deleted for good, with their notes and files. This
          cannot be undone.
        </p>
        <div class="actions">
          <button
            type="button"
            class="danger"
            onClick={() => {
              setPending(null);
              void bulk({ action: 'delete' }, 'deleted');
            }}
          >
            Delete {plural(selected.size, 'submission')}
          </button>
          <button type="button" onClick={() => setPending(null)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </section>
  );
}
