// The forms overview: every form, its status, unread (for the person signed in)
// / new / total / spam counts, the last submission and a 30-day sparkline. Refreshed every 30 s; the tab's title
// leads with the unread count.

import { useEffect, useState } from 'preact/hooks';
import { call, spacePath } from './api.js';
import { Sparkline } from './charts.js';
import { formatTime, plural } from './format.js';
import { t } from './i18n/index.js';
import { setTitle } from './list.js';
import { type Overview, readOverview, type Session } from './read.js';
import { formHref } from './router.js';

export function useOverview(session: Session, days: 30 | 90): { overview: Overview | null; error: string } {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    // The first load is the person's; the timed reloads are the page's own (they do not extend the session).
    const load = (background: boolean) =>
      call('GET', `${spacePath(session.spaceId, 'forms-overview')}?days=${days}`, undefined, { background })
        .then((body) => live && (setOverview(readOverview(body)), setError('')))
        .catch((err: Error) => live && setError(err.message));
    void load(false);
    const timer = setInterval(() => void load(true), 30_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [session.spaceId, days]);
  return { overview, error };
}

export function OverviewScreen(props: { session: Session }) {
  const { overview, error } = useOverview(props.session, 30);
  const unread = overview?.forms.reduce((n, f) => n + f.counts.unread, 0) ?? 0;
  useEffect(() => setTitle(unread, t('forms')), [unread]);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">{t('forms')}</h1>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {overview === null ? (
        <p class="loading">{t('loading')}</p>
      ) : overview.forms.length === 0 ? (
        <p>{t('noForms')}</p>
      ) : (
        <table class="forms">
          <caption class="visually-hidden">{t('overviewCaption', { zone: overview.timeZone })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('form')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col" class="num">
                {t('unreadColumn')}
              </th>
              <th scope="col" class="num">
                {t('status_new')}
              </th>
              <th scope="col" class="num">
                {t('total')}
              </th>
              <th scope="col" class="num">
                {t('spam')}
              </th>
              <th scope="col">{t('lastSubmission')}</th>
              <th scope="col">{t('last30Days')}</th>
            </tr>
          </thead>
          <tbody>
            {overview.forms.map((f) => (
              <tr key={f.key} class={f.counts.unread > 0 ? 'unread' : undefined}>
                <th scope="row" data-label={t('form')}>
                  <a href={formHref(f.key)}>{f.name}</a>
                  {f.name !== f.key && <span class="key">{f.key}</span>}
                </th>
                <td data-label={t('status')}>
                  <span class={`badge status-${f.status ?? 'deleted'}`}>
                    {f.deleted ? t('formDeleted') : t(`form_${f.status ?? 'closed'}`)}
                  </span>
                </td>
                <td class="num" data-label={t('unreadColumn')}>
                  {f.counts.unread}
                </td>
                <td class="num" data-label={t('status_new')}>
                  {f.counts.new}
                </td>
                <td class="num" data-label={t('total')}>
                  {f.counts.inbox}
                </td>
                <td class="num" data-label={t('spam')}>
                  {f.counts.spam}
                </td>
                <td data-label={t('lastSubmission')}>{formatTime(f.lastSubmissionAt, overview.timeZone)}</td>
                <td data-label={t('last30Days')}>
                  <Sparkline
                    values={f.daily.inbox}
                    label={`${f.name}: ${plural(
                      f.daily.inbox.reduce((a, b) => a + b, 0),
                      'inLast30Days',
                    )}`}
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
