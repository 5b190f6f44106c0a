// A form's submissions: folder tabs, filters (options by label, the
// person assigned, the order), the total that matches, rows that read well (who, their address as a reply link,
// the choice, a preview, unread in bold), keyset "load more", bulk actions on the selected ones (a bar that stays in
// view), export of the current filter, and new submissions as they arrive (a poll keyed on the newest one shown).

import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, query, spacePath } from './api.js';
import { Dialog } from './dialog.js';
import { FilterForm } from './filter-form.js';
import { apiFilters, apiSort } from './filters.js';
import { formatTime, plural, relativeTime, replyHref } from './format.js';
import { type FormInfo, rowText, useFormInfo, usePeople } from './form-info.js';
import { currentLang, t } from './i18n/index.js';
import { useKeys } from './keys.js';
import { rememberList } from './lists.js';
import { isRecord, isStatus, type Item, type Page, readPage, type Session, STATUSES } from './read.js';
import { detailHref, formHref } from './router.js';

const PAGE = 50;
const POLL_MS = 10_000;

/** The tab's title: the unread count first, so a background tab says what waits. */
export function setTitle(unread: number, ...parts: string[]): void {
  document.title = `${unread > 0 ? `(${unread}) ` : ''}${[...parts, t('appName')].join(' · ')}`;
}

type Pending = { action: 'delete' } | null;

function Row(props: {
  item: Item;
  index: number;
  current: boolean;
  selected: boolean;
  info: FormInfo;
  session: Session;
  params: URLSearchParams;
  form: string;
  now: number;
  onToggle: () => void;
  onFocus: () => void;
}) {
  const { item, info, session } = props;
  const text = rowText(info.labels, item.values);
  const reply = replyHref(text.email, info.name);
  const exact = `${formatTime(item.createdAt, session.timeZone)} (${session.timeZone})`;
  const classes = [props.current ? 'current' : '', item.read ? '' : 'unread'].filter((c) => c !== '');
  return (
    <li class={classes.join(' ') || undefined}>
      <input
        type="checkbox"
        id={`sel-${item.id}`}
        checked={props.selected}
        onChange={props.onToggle}
        aria-label={t('selectSubmissionOf', { time: exact })}
      />
      <div class="row-body">
        {/* Visitors' words are isolated (bdi, dir=auto): a right-to-left override in a name cannot reorder the
            address or the choice after it on the same line. */}
        <p class="line">
          <a
            id={`row-${props.index}`}
            href={detailHref(props.form, item.id, props.params)}
            onFocus={props.onFocus}
            class="row-link"
          >
            <bdi class="title">{text.title || t('noText')}</bdi>
            {!item.read && <span class="visually-hidden"> {t('unreadMark')}</span>}
          </a>
          {reply !== null && (
            <>
              {' '}
              <a class="reply" href={reply}>
                <bdi>{text.email}</bdi>
              </a>
            </>
          )}
          {text.choice !== null && (
            <>
              {' '}
              <span class="choice">
                <bdi>{text.choice}</bdi>
              </span>
            </>
          )}
        </p>
        {text.preview !== null && (
          <p class="preview" dir="auto">
            {text.preview.length > 160 ? `${text.preview.slice(0, 159)}…` : text.preview}
          </p>
        )}
        <p class="meta">
          <span class={`badge st-${item.status}`}>{t(`status_${item.status}`)}</span>
          {item.assigneeName !== null && (
            <span class="assignee">
              → <bdi>{item.assigneeName}</bdi>
            </span>
          )}
          {item.noteCount > 0 && <span class="notes">{plural(item.noteCount, 'note')}</span>}
          <time dateTime={item.createdAt} title={exact}>
            {relativeTime(item.createdAt, props.now)}
          </time>
        </p>
      </div>
    </li>
  );
}

export function List(props: { session: Session; form: string; params: URLSearchParams }) {
  const { session, form, params } = props;
  const filters = apiFilters(params, session.timeZone);
  const sort = apiSort(params);
  const listKey = params.toString();
  const info = useFormInfo(session, form);
  const people = usePeople(session);
  const [items, setItems] = useState<Item[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [total, setTotal] = useState({ n: 0, exact: true });
  const [unread, setUnread] = useState(0);
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
  const now = Date.now();

  useEffect(() => setTitle(unread, info.name), [info.name, unread]);

  const take = (page: Page) => {
    setTotal({ n: page.total, exact: page.totalExact });
    setUnread(page.unread);
  };

  useEffect(() => {
    let live = true;
    setLoading(true);
    setError('');
    call('GET', `${base}${query({ ...filters, sort, limit: String(PAGE) })}`)
      .then((body) => {
        if (!live) return;
        const page = readPage(body);
        setItems(page.items);
        setCursor(page.nextCursor);
        take(page);
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

  // New submissions without a reload (newest first only): the newest shown is the key (`from` is inclusive).
  useEffect(() => {
    if (filters.to !== undefined || sort !== undefined) return;
    const timer = setInterval(async () => {
      const newest = itemsRef.current[0]?.createdAt;
      const from =
        newest !== undefined && (filters.from === undefined || newest > filters.from) ? newest : filters.from;
      try {
        const page = readPage(
          await call('GET', `${base}${query({ ...filters, from, limit: String(PAGE) })}`, undefined, {
            background: true,
          }),
        );
        const known = new Set(itemsRef.current.map((i) => i.id));
        const fresh = page.items.filter((i) => !known.has(i.id));
        setUnread(page.unread);
        if (fresh.length === 0) return;
        setItems((old) => [...fresh, ...old]);
        setTotal((t) => ({ ...t, n: t.n + fresh.length }));
        setAnnounce(plural(fresh.length, 'newArrived'));
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
        await call('GET', `${base}${query({ ...filters, sort, limit: String(PAGE), cursor })}`),
      );
      setItems((old) => [...old, ...page.items]);
      setCursor(page.nextCursor);
      take(page);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const bulk = async (body: Record<string, unknown>, done: (count: number) => string) => {
    const ids = [...selected];
    if (ids.length === 0) return;
    try {
      const result = await call('POST', `${base}/bulk`, { ...body, ids });
      const count = isRecord(result) && typeof result.count === 'number' ? result.count : ids.length;
      const skipped = isRecord(result) && typeof result.skipped === 'number' ? result.skipped : 0;
      setAnnounce(`${done(count)}${skipped > 0 ? ` ${plural(skipped, 'skippedFull')}` : ''}`);
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
          setAnnounce(t('markedDone'));
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
  const exportHref = (format: 'csv' | 'xlsx' | 'ndjson') =>
    `${base}/export${query({ ...filters, format, lang: format === 'ndjson' ? undefined : currentLang() })}`;
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));
  const statusLabel = (s: string) => (isStatus(s) ? t(`status_${s}`) : s);

  return (
    <section aria-labelledby="list-title">
      <p class="crumbs">
        <a href="#/">{t('forms')}</a> ›
      </p>
      <h1 id="list-title">
        {info.name}
        {unread > 0 && <span class="count">{plural(unread, 'unread')}</span>}
      </h1>
      <nav aria-label={t('folders')} class="tabs">
        <a href={formHref(form, folderParams('inbox'))} aria-current={spam ? undefined : 'page'}>
          {t('inbox')}
        </a>
        <a href={formHref(form, folderParams('spam'))} aria-current={spam ? 'page' : undefined}>
          {t('spam')}
        </a>
      </nav>

      <FilterForm
        form={form}
        params={params}
        spam={spam}
        labels={info.labels}
        people={people}
        key={`${listKey} ${info.labels.length} ${people.length}`}
      />

      <p class="exports">
        {t('exportThisFilter')}{' '}
        <a href={exportHref('csv')} download>
          CSV
        </a>{' '}
        ·{' '}
        <a href={exportHref('xlsx')} download>
          Excel
        </a>{' '}
        ·{' '}
        <a href={exportHref('ndjson')} download>
          NDJSON
        </a>
        <span class="help"> {t('exportTimes', { zone: session.timeZone })}</span>
      </p>

      <div class="bulk" role="group" aria-label={t('selectedSubmissions')}>
        <input
          id="select-all"
          type="checkbox"
          checked={allSelected}
          onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id)))}
        />
        <label for="select-all">
          {selected.size === 0 ? t('selectAllShown') : plural(selected.size, 'selected')}
        </label>
        {selected.size > 0 && (
          <>
            <label for="bulk-status" class="visually-hidden">
              {t('statusForSelected')}
            </label>
            <select
              id="bulk-status"
              onChange={(e) => {
                const select = e.currentTarget as HTMLSelectElement; // this select
                const status = select.value;
                select.value = '';
                if (status !== '')
                  void bulk({ action: 'status', status }, (n) =>
                    plural(n, 'markedAs', { status: statusLabel(status) }),
                  );
              }}
            >
              <option value="">{t('markAs')}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`status_${s}`)}
                </option>
              ))}
            </select>
            <label for="bulk-assign" class="visually-hidden">
              {t('assignSelectedTo')}
            </label>
            <select
              id="bulk-assign"
              onChange={(e) => {
                const select = e.currentTarget as HTMLSelectElement; // this select
                const who = select.value;
                select.value = '';
                if (who === '') return;
                const person = people.find((p) => p.id === who);
                void bulk({ action: 'assign', assignee: who === '-' ? null : who }, (n) =>
                  person === undefined
                    ? plural(n, 'unassignedCount')
                    : plural(n, 'assignedTo', { name: person.name }),
                );
              }}
            >
              <option value="">{t('assignTo')}</option>
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
              <option value="-">{t('nobody')}</option>
            </select>
            <button
              type="button"
              onClick={() => void bulk({ action: 'read' }, (n) => plural(n, 'markedRead'))}
            >
              {t('markRead')}
            </button>
            <button
              type="button"
              onClick={() => void bulk({ action: 'unread' }, (n) => plural(n, 'markedUnread'))}
            >
              {t('markUnread')}
            </button>
            {spam ? (
              <button
                type="button"
                onClick={() => void bulk({ action: 'not_spam' }, (n) => plural(n, 'movedToInbox'))}
              >
                {t('notSpam')}
              </button>
            ) : (
              <button
                type="button"
                onClick={() => void bulk({ action: 'spam' }, (n) => plural(n, 'movedToSpam'))}
              >
                {t('spam')}
              </button>
            )}
            {canDelete && (
              <button type="button" class="danger" onClick={() => setPending({ action: 'delete' })}>
                {t('deleteEllipsis')}
              </button>
            )}
          </>
        )}
      </div>

      {/* One live region, visible to everyone: what the last action did. */}
      <p class={announce === '' ? 'visually-hidden' : 'notice'} aria-live="polite" role="status">
        {announce}
      </p>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {!loading && (
        <p class="total" aria-live="polite">
          {plural(total.n, total.exact ? 'match' : 'matchMore')}
          {sort !== undefined && ` · ${t('oldestFirst')}`}
        </p>
      )}
      {loading ? (
        <p class="loading">{t('loading')}</p>
      ) : items.length === 0 ? (
        <p>{t('noMatches')}</p>
      ) : (
        <ul class="items">
          {items.map((item, i) => (
            <Row
              key={item.id}
              item={item}
              index={i}
              current={i === current}
              selected={selected.has(item.id)}
              info={info}
              session={session}
              params={params}
              form={form}
              now={now}
              onToggle={() => toggle(item.id)}
              onFocus={() => setCurrent(i)}
            />
          ))}
        </ul>
      )}
      {cursor !== null && !loading && (
        <button type="button" class="more" onClick={loadMore}>
          {t('loadMore')}
        </button>
      )}
      <p class="help">{t('shortcutsHint')}</p>

      <Dialog title={t('deleteTitle')} open={pending !== null} onClose={() => setPending(null)}>
        <p>{plural(selected.size, 'deleteWarning')}</p>
        <div class="actions">
          <button
            type="button"
            class="danger"
            onClick={() => {
              setPending(null);
              void bulk({ action: 'delete' }, (n) => plural(n, 'deletedCount'));
            }}
          >
            {plural(selected.size, 'deleteCount')}
          </button>
          <button type="button" onClick={() => setPending(null)}>
            {t('cancel')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
