// The job handlers of a submission's notifications (spec 3.2, 4.4 rule 6): the owner emails, the chat post and the
// visitor's confirmation. Each reads the stored submission when it runs, sends at most once per recipient
// (./send-once.ts), and leaves retrying to the job runner.

import { defaultLocale, localeChain, pickLocalized } from '../../content/locales.js';
import { loadMasterKey } from '../../store/secrets-repo.js';
import { MAIL_LINK_DEFAULT_SECONDS, mailLinkKey, signedFileUrl } from '../uploads/file-links.js';
import type { ClaimedJob } from '../../jobs/jobs-repo.js';
import { type JobHandler, PermanentJobError } from '../../jobs/runner.js';
import type { Config } from '../../config/config.js';
import type { Store } from '../../store/open-store.js';
import { postJson } from '../../outbound/send.js';
import { submissionAnswers } from './answers.js';
import { chatMessage } from './chat-message.js';
import { confirmationEmail } from './confirmation-email.js';
import {
  NOTIFY_CHAT,
  NOTIFY_CONFIRMATION,
  NOTIFY_EMAIL,
  parseChatJob,
  parseConfirmationJob,
  parseEmailJob,
} from './jobs.js';
import { loadNotice, type Notice } from './load-notice.js';
import { type Mailer, openMailer } from './mailer.js';
import { messageIdFor } from './message-id.js';
import { ownerEmail } from './owner-email.js';
import { sendOnce } from './send-once.js';
import { isPlainMailbox, visitorAddress } from './visitor-address.js';

export interface NotifyDeps {
  store: Store;
  config: Pick<Config, 'mail' | 'publicUrl' | 'webhookAllowPrivate' | 'secret'>;
  /** Default: `openMailer(config.mail)`, which holds no connection between messages (nothing to close). */
  mailer?: Mailer;
  /** Per chat post (default 10 s, as webhooks). */
  chatTimeoutMs?: number;
}

/** Marks every message as machine-made (RFC 3834), so auto-responders do not answer it. */
const AUTO_HEADERS = { 'Auto-Submitted': 'auto-generated' } as const;

export function notifyJobHandlers(deps: NotifyDeps): [kind: string, handler: JobHandler][] {
  const mailer = deps.mailer ?? openMailer(deps.config.mail);
  return [
    [NOTIFY_EMAIL, ownerEmailHandler(deps, mailer, linkKeyOnce(deps))],
    [NOTIFY_CHAT, chatHandler(deps)],
    [NOTIFY_CONFIRMATION, confirmationHandler(deps, mailer)],
  ];
}

/**
 * The answers of a notice, made once for all its messages: the jobs of one submission share their notice
 * (load-notice.ts), and every message lists the same answers.
 */
const answersMade = new WeakMap<Notice, ReturnType<typeof submissionAnswers>>();

function answersOf(notice: Notice) {
  const made = answersMade.get(notice);
  if (made) return made;
  const answers = submissionAnswers({
    form: notice.form,
    values: notice.submission.values,
    defaultLocale: defaultLocale(notice.space.settings),
    lists: notice.lists,
    files: notice.files,
  });
  answersMade.set(notice, answers);
  return answers;
}

/** The owner email of a notice, by its links' expiry: the same for every owner recipient, so rendered once. */
const ownerMailMade = new WeakMap<Notice, { expires: number; mail: ReturnType<typeof ownerEmail> }>();

/** The mail links' key, loaded once per set of handlers (the master key lives in the store). */
function linkKeyOnce(deps: NotifyDeps): () => Promise<Buffer> {
  let key: Promise<Buffer> | null = null;
  return () => {
    key ??= loadMasterKey(deps.store, deps.config.secret).then((master) =>
      mailLinkKey(master, deps.config.mail.fileLinkSecret),
    );
    key.catch(() => (key = null));
    return key;
  };
}

/** `notify.email`: one owner recipient; Reply-To is the visitor's address (spec 2.10). */
function ownerEmailHandler(deps: NotifyDeps, mailer: Mailer, linkKey: () => Promise<Buffer>): JobHandler {
  return async (job: ClaimedJob) => {
    const p = parseEmailJob(job.payload);
    if (!isPlainMailbox(p.to)) throw new PermanentJobError('the recipient is not a plain email address');
    const notice = await loadNotice(deps.store, job.spaceId, p);
    if (!notice) return;
    const { submission } = notice;
    const replyTo = notice.form ? visitorAddress(notice.form.fields, submission.values) : null;
    const settings = notice.space.settings;
    const chain = localeChain(settings, defaultLocale(settings));
    const key = await linkKey();
    // Signed when the message is composed; a retry composes again, with a fresh expiry.
    const expires =
      Math.floor(Date.now() / 1000) + (deps.config.mail.fileLinkSeconds ?? MAIL_LINK_DEFAULT_SECONDS);
    const ref = { spaceId: job.spaceId, key: p.formKey, submissionId: submission.id };
    const made = ownerMailMade.get(notice);
    const mail =
      made?.expires === expires
        ? made.mail
        : ownerEmail({
            formName: notice.form?.name ?? p.formKey,
            formKey: p.formKey,
            submissionId: submission.id,
            answers: answersOf(notice),
            page: submission.page,
            submittedAt: submission.createdAt,
            locale: submission.locale,
            timeZone: settings.timeZone,
            replyToVisitor: replyTo !== null,
            fileUrl: (uploadId) => signedFileUrl(deps.config.publicUrl, key, { ...ref, uploadId }, expires),
            linksExpireAt: new Date(expires * 1000),
            subjectTemplate: pickLocalized(notice.form?.settings.notifySubject, chain),
            introTemplate: pickLocalized(notice.form?.settings.notifyIntro, chain),
            values: submission.values,
          });
    ownerMailMade.set(notice, { expires, mail });
    const messageId = messageIdFor(job.id, deps.config.mail.from);
    const sendKey = { id: job.id, spaceId: job.spaceId, submissionId: submission.id, messageId };
    await sendOnce(deps.store, { ...sendKey, channel: 'email' }, () =>
      mailer.send({
        from: deps.config.mail.from,
        to: p.to,
        ...(replyTo === null ? {} : { replyTo }),
        ...mail,
        messageId,
        headers: AUTO_HEADERS,
      }),
    );
  };
}

/** `notify.chat`: one post to the form's chat incoming webhook; 2xx is sent, a forbidden target gives up. */
function chatHandler(deps: NotifyDeps): JobHandler {
  return async (job: ClaimedJob) => {
    const p = parseChatJob(job.payload);
    if (!/^https?:\/\//i.test(p.url)) throw new PermanentJobError('the chat webhook is not an http(s) URL');
    const notice = await loadNotice(deps.store, job.spaceId, p);
    if (!notice) return;
    const body = JSON.stringify(
      chatMessage({
        formName: notice.form?.name ?? p.formKey,
        answers: answersOf(notice),
        page: notice.submission.page,
        submittedAt: notice.submission.createdAt,
      }),
    );
    const key = { id: job.id, spaceId: job.spaceId, submissionId: notice.submission.id, messageId: null };
    await sendOnce(deps.store, { ...key, channel: 'chat' }, async () => {
      // The webhooks' sender: the same SSRF guard (WEBHOOK_ALLOW_PRIVATE), timeout and no redirects.
      const res = await postJson(
        p.url,
        body,
        { 'user-agent': 'Folio-Notify/1' },
        { timeoutMs: deps.chatTimeoutMs ?? 10_000, allowPrivate: deps.config.webhookAllowPrivate },
      );
      if (res.status !== null && res.status >= 200 && res.status < 300) return;
      if (res.forbidden) throw new PermanentJobError(res.error ?? 'the chat webhook target is not allowed');
      // 410 Gone: the incoming webhook was revoked or its channel archived (as for webhooks, retrying cannot help).
      if (res.status === 410) throw new PermanentJobError('the chat webhook answered 410 Gone');
      throw new Error(res.error ?? `the chat webhook answered ${res.status}`);
    });
  };
}

/**
 * `notify.confirmation`: to the visitor's address as stored, in their language (spec 4.4 `_locale`, rule 6). The
 * payload names neither address nor answers, so an erased submission sends nothing; a form deleted meanwhile has
 * no texts left to send.
 */
function confirmationHandler(deps: NotifyDeps, mailer: Mailer): JobHandler {
  return async (job: ClaimedJob) => {
    const p = parseConfirmationJob(job.payload);
    const notice = await loadNotice(deps.store, job.spaceId, p);
    if (!notice?.form) return;
    const to = visitorAddress(notice.form.fields, notice.submission.values);
    const mail = confirmationEmail(
      notice.form.settings,
      localeChain(notice.space.settings, notice.submission.locale),
    );
    if (to === null || mail === null) return;
    const messageId = messageIdFor(job.id, deps.config.mail.from);
    const key = { id: job.id, spaceId: job.spaceId, submissionId: notice.submission.id, messageId };
    await sendOnce(deps.store, { ...key, channel: 'confirmation' }, () =>
      mailer.send({ from: deps.config.mail.from, to, ...mail, messageId, headers: AUTO_HEADERS }),
    );
  };
}
