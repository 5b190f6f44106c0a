// The list's filters: search, status, a date range in the space's zone, each
// choice field's options by label, the person assigned, and the order. Applying them changes the address, which
// the list follows. Selects mark their chosen option (`selected`): Preact has no `defaultValue` for a select.

import { OPTION_PARAM } from './filters.js';
import { t } from './i18n/index.js';
import { CHOICE_TYPES, type FieldLabel, type Person, STATUSES } from './read.js';
import { formHref } from './router.js';

export function FilterForm(props: {
  form: string;
  params: URLSearchParams;
  spam: boolean;
  labels: readonly FieldLabel[];
  people: readonly Person[];
}) {
  const { form, params, spam } = props;
  const choices = props.labels.filter((l) => CHOICE_TYPES.includes(l.type));
  const apply = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement); // the form this handler is on
    const next = new URLSearchParams();
    if (spam) next.set('folder', 'spam');
    for (const [key, v] of data) {
      if (typeof v !== 'string' || v.trim() === '') continue;
      if (['status', 'q', 'from', 'to', 'assignee', 'sort'].includes(key) || OPTION_PARAM.test(key))
        next.set(key, v.trim());
    }
    if (data.get('unassigned') === '1') next.set('unassigned', '1');
    location.hash = formHref(form, next).slice(1);
  };
  return (
    <form class="filters" onSubmit={apply} role="search" aria-label={t('filterSubmissions')}>
      <div class="field grow">
        <label for="f-q">{t('search')}</label>
        <input id="f-q" name="q" type="search" defaultValue={params.get('q') ?? ''} maxLength={200} />
      </div>
      <div class="field">
        <label for="f-status">{t('status')}</label>
        <select id="f-status" name="status">
          <option value="">{t('any')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s} selected={params.get('status') === s}>
              {t(`status_${s}`)}
            </option>
          ))}
        </select>
      </div>
      {choices.map((c) => (
        <div class="field" key={c.key}>
          <label for={`f-o-${c.key}`}>{c.label}</label>
          <select id={`f-o-${c.key}`} name={`o.${c.key}`}>
            <option value="">{t('any')}</option>
            {c.type === 'checkbox' ? (
              <>
                <option value="true" selected={params.get(`o.${c.key}`) === 'true'}>
                  {t('yes')}
                </option>
                <option value="false" selected={params.get(`o.${c.key}`) === 'false'}>
                  {t('no')}
                </option>
              </>
            ) : (
              [...c.options].map(([value, label]) => (
                <option key={value} value={value} selected={params.get(`o.${c.key}`) === value}>
                  {label}
                </option>
              ))
            )}
          </select>
        </div>
      ))}
      <div class="field">
        <label for="f-from">{t('from')}</label>
        <input id="f-from" name="from" type="date" defaultValue={params.get('from') ?? ''} />
      </div>
      <div class="field">
        <label for="f-to">{t('to')}</label>
        <input id="f-to" name="to" type="date" defaultValue={params.get('to') ?? ''} />
      </div>
      <div class="field">
        <label for="f-assignee">{t('assignee')}</label>
        <select id="f-assignee" name="assignee">
          <option value="">{t('anyone')}</option>
          {props.people.map((p) => (
            <option key={p.id} value={p.id} selected={params.get('assignee') === p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field check">
        <input
          id="f-unassigned"
          name="unassigned"
          type="checkbox"
          value="1"
          defaultChecked={params.get('unassigned') === '1'}
        />
        <label for="f-unassigned">{t('unassigned')}</label>
      </div>
      <div class="field">
        <label for="f-sort">{t('order')}</label>
        <select id="f-sort" name="sort">
          <option value="">{t('newestFirst')}</option>
          <option value="oldest" selected={params.get('sort') === 'oldest'}>
            {t('oldestFirst')}
          </option>
        </select>
      </div>
      <div class="actions">
        <button type="submit">{t('apply')}</button>
        <a href={formHref(form, spam ? new URLSearchParams('folder=spam') : undefined)}>{t('clear')}</a>
      </div>
    </form>
  );
}
