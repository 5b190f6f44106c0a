// Charts: submissions per day per form over 30 or 90 days and the spam share, as SVG with a
// title and description for screen readers and the same numbers in a table. No inline style: colours come from
// classes (CSP `style-src 'self'`).

import { useEffect } from 'preact/hooks';
import type { Overview, Session } from './read.js';
import { useOverview } from './overview.js';
import { t } from './i18n/index.js';
import { setTitle } from './list.js';

export function Sparkline(props: { values: number[]; label: string }) {
  const { values } = props;
  const w = 120;
  const h = 24;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(h - 2 - (v / max) * (h - 4)).toFixed(1)}`);
  return (
    <svg class="spark" viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={props.label}>
      <polyline points={points.join(' ')} />
    </svg>
  );
}

const SERIES = 6;

function DailyChart(props: { overview: Overview; id: string }) {
  const { overview } = props;
  const forms = overview.forms.filter((f) => f.daily.inbox.some((v) => v > 0));
  const n = overview.dates.length;
  const w = 720;
  const h = 240;
  const pad = { l: 36, r: 8, t: 8, b: 24 };
  const max = Math.max(1, ...forms.flatMap((f) => f.daily.inbox));
  const x = (i: number) => pad.l + (n > 1 ? (i * (w - pad.l - pad.r)) / (n - 1) : 0);
  const y = (v: number) => h - pad.b - (v / max) * (h - pad.t - pad.b);
  const total = forms.reduce((s, f) => s + f.daily.inbox.reduce((a, b) => a + b, 0), 0);
  return (
    <figure>
      <svg
        class="chart"
        viewBox={`0 0 ${w} ${h}`}
        role="img"
        aria-labelledby={`${props.id}-t ${props.id}-d`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${props.id}-t`}>{t('chartDailyTitle')}</title>
        <desc id={`${props.id}-d`}>
          {t('chartDailyDesc', {
            total,
            forms: forms.length,
            from: overview.dates[0] ?? '',
            to: overview.dates[n - 1] ?? '',
          })}
        </desc>
        <line class="axis" x1={pad.l} y1={h - pad.b} x2={w - pad.r} y2={h - pad.b} />
        <line class="axis" x1={pad.l} y1={pad.t} x2={pad.l} y2={h - pad.b} />
        <text class="tick" x={pad.l - 4} y={pad.t + 8} text-anchor="end">
          {max}
        </text>
        <text class="tick" x={pad.l - 4} y={h - pad.b} text-anchor="end">
          0
        </text>
        <text class="tick" x={pad.l} y={h - 6}>
          {overview.dates[0]}
        </text>
        <text class="tick" x={w - pad.r} y={h - 6} text-anchor="end">
          {overview.dates[n - 1]}
        </text>
        {forms.map((f, s) => (
          <polyline
            key={f.key}
            class={`series s${s % SERIES}`}
            points={f.daily.inbox.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
          />
        ))}
      </svg>
      <figcaption>
        <ul class="legend">
          {forms.map((f, s) => (
            <li key={f.key}>
              <span class={`swatch s${s % SERIES}`} aria-hidden="true" /> {f.name}
            </li>
          ))}
        </ul>
      </figcaption>
      <details>
        <summary>{t('chartDailyTable')}</summary>
        <div class="scroll">
          <table>
            <caption>{t('chartDailyCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('day')}</th>
                {forms.map((f) => (
                  <th scope="col" key={f.key}>
                    {f.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {overview.dates.map((date, i) => (
                <tr key={date}>
                  <th scope="row">{date}</th>
                  {forms.map((f) => (
                    <td class="num" key={f.key}>
                      {f.daily.inbox[i] ?? 0}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function SpamShare(props: { overview: Overview }) {
  const rows = props.overview.forms
    .map((f) => {
      const inbox = f.daily.inbox.reduce((a, b) => a + b, 0);
      const spam = f.daily.spam.reduce((a, b) => a + b, 0);
      return { key: f.key, name: f.name, inbox, spam, share: inbox + spam === 0 ? 0 : spam / (inbox + spam) };
    })
    .filter((r) => r.inbox + r.spam > 0);
  const w = 720;
  const bar = 22;
  const h = Math.max(1, rows.length) * (bar + 10) + 10;
  const label = 180;
  return (
    <figure>
      <svg class="chart" viewBox={`0 0 ${w} ${h}`} role="img" aria-labelledby="spam-t spam-d">
        <title id="spam-t">{t('chartSpamTitle')}</title>
        <desc id="spam-d">
          {rows.map((r) => `${r.name}: ${t('spamPercent', { n: Math.round(r.share * 100) })}`).join('; ') ||
            t('noSubmissions')}
        </desc>
        {rows.map((r, i) => (
          <g key={r.key} transform={`translate(0 ${10 + i * (bar + 10)})`}>
            <text class="tick" x={label - 8} y={bar / 2 + 4} text-anchor="end">
              {r.name}
            </text>
            <rect class="track" x={label} y={0} width={w - label - 60} height={bar} />
            <rect class="spam-bar" x={label} y={0} width={(w - label - 60) * r.share} height={bar} />
            <text class="tick" x={w - 52} y={bar / 2 + 4}>
              {`${Math.round(r.share * 100)}%`}
            </text>
          </g>
        ))}
      </svg>
      <details>
        <summary>{t('chartSpamTable')}</summary>
        <table>
          <caption>{t('chartSpamCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('form')}</th>
              <th scope="col" class="num">
                {t('inbox')}
              </th>
              <th scope="col" class="num">
                {t('spam')}
              </th>
              <th scope="col" class="num">
                {t('spamShare')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.name}</th>
                <td class="num">{r.inbox}</td>
                <td class="num">{r.spam}</td>
                <td class="num">{`${Math.round(r.share * 100)}%`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

export function Charts(props: { session: Session; days: 30 | 90 }) {
  const { overview, error } = useOverview(props.session, props.days);
  useEffect(() => setTitle(0, t('charts')), []);
  return (
    <section aria-labelledby="charts-title">
      <h1 id="charts-title">{t('chartsTitle', { days: props.days })}</h1>
      <nav aria-label={t('period')} class="tabs">
        <a href="#/charts?days=30" aria-current={props.days === 30 ? 'page' : undefined}>
          {t('daysN', { n: 30 })}
        </a>
        <a href="#/charts?days=90" aria-current={props.days === 90 ? 'page' : undefined}>
          {t('daysN', { n: 90 })}
        </a>
      </nav>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {overview === null ? (
        <p class="loading">{t('loading')}</p>
      ) : (
        <>
          <h2>{t('perDayAndForm')}</h2>
          <DailyChart overview={overview} id="daily" />
          <h2>{t('spamShare')}</h2>
          <SpamShare overview={overview} />
          <p class="help">{t('daysIn', { zone: overview.timeZone })}</p>
        </>
      )}
    </section>
  );
}
