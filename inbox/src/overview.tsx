// The forms overview (issue 32 item 3): every form, its status, new / total / spam counts, the last submission and
// a 30-day sparkline. Refreshed every 30 s.

import { useEffect, useState } from 'preact/hooks';
import { call, spacePath } from './api.js';
import { Sparkline } from './charts.js';
import { formatTime } from './format.js';
import { type Overview, readOverview, type Session } from './read.js';
import { formHref } from './router.js';

export function useOverview(session: Session, days: 30 | 90): { overview: Overview | null; error: string } {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    const load = () =>
      call('GET', `${spacePath(session.spaceId, 'forms-overview')}?days=${days}`)
        .then((body) => live && (setOverview(readOverview(body)), setError('')))
        .catch((err: Error) => live && setError(err.message));
    void load();
    const timer = setInterval(load, 30_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [session.spaceId, days]);
  return { overview, error };
}

export function OverviewScreen(props: { session: Session }) {
  const { overview, error } = useOverview(props.session, 30);
  useEffect(() => {
    document.title = 'Forms · Folio inbox';
  }, []);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Forms</h1>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {overview === null ? (
        <p class="loading">Loading…</p>
      ) : overview.forms.length === 0 ? (
        <p>This space has no forms yet.</p>
      ) : (
        <table class="forms">
          <caption class="visually-hidden">
            Forms with their status, counts and the last 30 days (times in {overview.timeZone})
          </caption>
          <thead>
            <tr>
              <th scope="col">Form</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                New
              </th>
              <th scope="col" class="num">
                Total
              </th>
              <th scope="col" class="num">
                Spam
              </th>
              <th scope="col">Last submission</th>
              <th scope="col">Last 30 days</th>
            </tr>
          </thead>
          <tbody>
            {overview.forms.map((f) => (
              <tr key={f.key}>
                <th scope="row" data-label="Form">
                  <a href={formHref(f.key)}>{f.name}</a>
                  {f.name !== f.key && <span class="key">{f.key}</span>}
                </th>
                <td data-label="Status">
                  <span class={`badge status-${f.status ?? 'deleted'}`}>
                    {f.deleted ? 'deleted' : f.status}
                  </span>
                </td>
                <td class="num" data-label="New">
                  {f.counts.new}
                </td>
                <td class="num" data-label="Total">
                  {f.counts.inbox}
                </td>
                <td class="num" data-label="Spam">
                  {f.counts.spam}
                </td>
                <td data-label="Last submission">{formatTime(f.lastSubmissionAt, overview.timeZone)}</td>
                <td data-label="Last 30 days">
                  <Sparkline
                    values={f.daily.inbox}
                    label={`${f.name}: ${f.daily.inbox.reduce((a, b) => a + b, 0)} submissions in the last 30 days`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
