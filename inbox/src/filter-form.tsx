// The list's filters (issue 32 item 4): search, status, a date range in the space's zone, assignee. Applying them
// changes the address, which the list follows.

import { formHref } from './router.js';
import { STATUSES } from './read.js';

export function FilterForm(props: { form: string; params: URLSearchParams; spam: boolean }) {
  const { form, params, spam } = props;
  const apply = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement); // the form this handler is on
    const next = new URLSearchParams();
    if (spam) next.set('folder', 'spam');
    for (const key of ['status', 'q', 'from', 'to', 'assignee']) {
      const v = data.get(key);
      if (typeof v === 'string' && v.trim() !== '') next.set(key, v.trim());
    }
    if (data.get('unassigned') === '1') next.set('unassigned', '1');
    location.hash = formHref(form, next).slice(1);
  };
  return (
    <form class="filters" onSubmit={apply} role="search" aria-label="Filter submissions">
      <div class="field grow">
        <label for="f-q">Search</label>
        <input id="f-q" name="q" type="search" defaultValue={params.get('q') ?? ''} maxLength={200} />
      </div>
      <div class="field">
        <label for="f-status">Status</label>
        <select id="f-status" name="status" defaultValue={params.get('status') ?? ''}>
          <option value="">Any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="f-from">From</label>
        <input id="f-from" name="from" type="date" defaultValue={params.get('from') ?? ''} />
      </div>
      <div class="field">
        <label for="f-to">To</label>
        <input id="f-to" name="to" type="date" defaultValue={params.get('to') ?? ''} />
      </div>
      <div class="field">
        <label for="f-assignee">Assignee</label>
        <input id="f-assignee" name="assignee" defaultValue={params.get('assignee') ?? ''} maxLength={200} />
      </div>
      <div class="field check">
        <input
          id="f-unassigned"
          name="unassigned"
          type="checkbox"
          value="1"
          defaultChecked={params.get('unassigned') === '1'}
        />
        <label for="f-unassigned">Unassigned</label>
      </div>
      <div class="actions">
        <button type="submit">Apply</button>
        <a href={formHref(form, spam ? new URLSearchParams('folder=spam') : undefined)}>Clear</a>
      </div>
    </form>
  );
}
