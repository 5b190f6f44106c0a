// The notification email to the form's owners (spec 3.2 "emailed to notification addresses", 4.4 rule 6).
// A plain-text and an HTML part saying the same; files are signed links that open without a token for a
// while (never attachments, never public URLs: spec 3.3); times in the space's time zone; the subject and intro
// are the form's templates when it has them.

import { labelled } from '../rules/index.js';
import { type Answer, formatSize } from './answers.js';

export interface OwnerEmailInput {
  formName: string;
  formKey: string;
  submissionId: string;
  answers: readonly Answer[];
  page: string | null;
  submittedAt: string;
  locale: string;
  /** The space's time zone: the time of the submission is given in it. */
  timeZone: string;
  /** Whether the message has a Reply-To (the visitor's address). */
  replyToVisitor: boolean;
  /** A signed download link of one file (opens without a token until `linksExpireAt`). */
  fileUrl: (uploadId: string) => string;
  /** When the file links stop working. */
  linksExpireAt: Date;
  /** The form's `notifySubject` / `notifyIntro` in the space's default locale, when set. */
  subjectTemplate?: string | undefined;
  introTemplate?: string | undefined;
  /** The stored values, for `{field:<key>}` in the templates. */
  values: Readonly<Record<string, unknown>>;
}

export interface OwnerMail {
  subject: string;
  text: string;
  html: string;
}

/** One line of a header or a label: line breaks would end it early. */
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Formatters by time zone: making one costs more than composing the rest of a message (a burst makes thousands). */
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-GB', {
        timeZone,
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      f = null; // not a zone this runtime knows: UTC below
    }
    if (formatters.size < 100) formatters.set(timeZone, f);
  }
  return f;
}

/** `27 Nov 2026, 15:12 (Europe/Zurich)`: a time an owner reads at a glance, in the space's zone. */
export function localTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const f = formatterFor(timeZone);
  return f === null ? `${at.toISOString()} (UTC)` : `${f.format(at)} (${timeZone})`;
}

/**
 * Fills a template: `{form}` the form's name, `{date}` the submission's day and time, `{field:<key>}` a field's
 * value as text (lists comma-separated; an unknown or empty field leaves nothing). Unknown placeholders stay.
 */
export function fillTemplate(
  template: string,
  ctx: { form: string; date: string; values: Readonly<Record<string, unknown>> },
): string {
  return template.replace(
    /\{(form|date|field:([A-Za-z][A-Za-z0-9_]{0,63}))\}/g,
    (_m, what: string, key?: string) => {
      if (what === 'form') return ctx.form;
      if (what === 'date') return ctx.date;
      const value = key !== undefined && Object.hasOwn(ctx.values, key) ? ctx.values[key] : undefined;
      if (Array.isArray(value)) return value.map(String).join(', ');
      return value === undefined || value === null || typeof value === 'object' ? '' : String(value);
    },
  );
}

export function ownerEmail(input: OwnerEmailInput): OwnerMail {
  const name = oneLine(input.formName) || input.formKey;
  const date = localTime(input.submittedAt, input.timeZone);
  const fill = (t: string) => fillTemplate(t, { form: name, date, values: input.values });
  const subject = oneLine(fill(input.subjectTemplate ?? 'New submission: {form}')).slice(0, 250);
  const intro = input.introTemplate
    ? fill(input.introTemplate).trim()
    : `New submission to the form "${name}" (${input.formKey}).`;
  const expires = localTime(input.linksExpireAt.toISOString(), input.timeZone);
  const hasFiles = input.answers.some((a) => a.kind === 'files');

  const lines: string[] = [intro, ''];
  for (const answer of input.answers) lines.push(...answerLines(answer, input.fileUrl));
  const facts: [string, string][] = [
    ['Page', input.page === null ? '(unknown)' : oneLine(input.page)],
    ['Submitted', date],
    ['Language', input.locale],
    ['Submission', input.submissionId],
  ];
  lines.push('', ...facts.map(([k, v]) => `${k}: ${v}`));
  if (hasFiles) lines.push('', `File links open without a login until ${expires}.`);
  if (input.replyToVisitor) lines.push('', 'Reply to this email to answer the visitor.');
  const text = `${lines.join('\n')}\n`;

  const rows = input.answers.map((a) => answerRow(a, input.fileUrl)).join('');
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1f24">` +
    `<p>${escapeHtml(intro).replace(/\n/g, '<br>')}</p>` +
    `<table cellpadding="6" style="border-collapse:collapse">${rows}</table>` +
    `<p style="color:#4f5661;font-size:14px">${facts.map(([k, v]) => `${k}: ${escapeHtml(v)}`).join('<br>')}</p>` +
    (hasFiles ? `<p>File links open without a login until ${escapeHtml(expires)}.</p>` : '') +
    (input.replyToVisitor ? '<p>Reply to this email to answer the visitor.</p>' : '') +
    `</body></html>`;
  return { subject, text, html };
}

/** A ticked consent as a sentence: the wording the visitor agreed to, quoted. */
const consentSentence = (label: string): string => `The visitor agreed to: “${label}”`;

function answerLines(answer: Answer, fileUrl: (uploadId: string) => string): string[] {
  const label = oneLine(answer.label);
  if (answer.kind === 'files') {
    return [
      labelled(label, ''),
      ...answer.files.map((f) =>
        f.size === null
          ? `  - ${oneLine(f.name)} (no longer stored)`
          : `  - ${oneLine(f.name)} (${formatSize(f.size)}): ${fileUrl(f.id)}`,
      ),
    ].map((l) => l.trimEnd());
  }
  if (answer.consent) return [consentSentence(label)];
  const text = answer.text.replace(/\r\n?/g, '\n');
  // Several lines (a textarea) go below their label, indented, so answers stay apart.
  if (!text.includes('\n')) return [labelled(label, text)];
  return [labelled(label, '').trimEnd(), ...text.split('\n').map((l) => `  ${l}`)];
}

function answerRow(answer: Answer, fileUrl: (uploadId: string) => string): string {
  const label = escapeHtml(oneLine(answer.label));
  const th = (text: string) =>
    `<th align="left" valign="top" style="border-bottom:1px solid #ddd">${text}</th>`;
  const td = (html: string) => `<td valign="top" style="border-bottom:1px solid #ddd">${html}</td>`;
  if (answer.kind === 'files') {
    const items = answer.files.map((f) =>
      f.size === null
        ? `<li>${escapeHtml(oneLine(f.name))} (no longer stored)</li>`
        : `<li><a href="${escapeHtml(fileUrl(f.id))}">${escapeHtml(oneLine(f.name))}</a> (${formatSize(f.size)})</li>`,
    );
    return `<tr>${th(label)}${td(`<ul style="margin:0;padding-left:18px">${items.join('')}</ul>`)}</tr>`;
  }
  if (answer.consent)
    return `<tr><td colspan="2" style="border-bottom:1px solid #ddd">${escapeHtml(consentSentence(oneLine(answer.label)))}</td></tr>`;
  const text = escapeHtml(answer.text.replace(/\r\n?/g, '\n')).replace(/\n/g, '<br>');
  return `<tr>${th(label)}${td(text)}</tr>`;
}
