// Erase by email (spec 4.5): a dry run counts first and lists the submissions
// it would delete (each a link to open it), and only a confirmed second call deletes.

import { useEffect, useState } from 'preact/hooks';
import { call, spacePath } from './api.js';
import { Dialog } from './dialog.js';
import { formatTime, plural } from './format.js';
import { t } from './i18n/index.js';
import { setTitle } from './list.js';
import { type EraseCounts, readErase, type Session } from './read.js';
import { detailHref } from './router.js';

export function Erase(props: { session: Session }) {
  const { session } = props;
  const [email, setEmail] = useState('');
  const [counts, setCounts] = useState<EraseCounts | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [done, setDone] = useState<EraseCounts | null>(null);
  const [error, setError] = useState('');
  const path = spacePath(session.spaceId, 'forms', 'erase');
  useEffect(() => setTitle(0, t('eraseTitle')), []);
  if (!session.scopes.includes('forms.erase'))
    return (
      <section>
        <h1>{t('eraseTitle')}</h1>
        <p>{t('eraseNoScope')}</p>
      </section>
    );

  const dryRun = async (e: Event) => {
    e.preventDefault();
    const value = String(new FormData(e.currentTarget as HTMLFormElement).get('email') ?? '').trim(); // this form
    setError('');
    setDone(null);
    setCounts(null);
    try {
      setCounts(readErase(await call('POST', path, { email: value, dryRun: true })));
      setEmail(value);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const erase = async () => {
    setConfirm(false);
    try {
      setDone(readErase(await call('POST', path, { email, dryRun: false })));
      setCounts(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section aria-labelledby="erase-title">
      <h1 id="erase-title">{t('eraseTitle')}</h1>
      <p>{t('eraseIntro')}</p>
      <form class="erase" onSubmit={dryRun}>
        <div class="field grow">
          <label for="e-email">{t('emailAddress')}</label>
          <input id="e-email" name="email" type="email" required maxLength={320} />
        </div>
        <button type="submit">{t('countSubmissions')}</button>
      </form>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div aria-live="polite">
        {counts !== null && (
          <div class="dry-run">
            <h2>
              {t('dryRunFor')} <bdi>{email}</bdi>
            </h2>
            <p>{plural(counts.submissions, 'wouldDelete', { files: plural(counts.files, 'file') })}</p>
            {counts.items.length > 0 && (
              <table>
                <caption>{t('theseSubmissions')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('received')}</th>
                    <th scope="col">{t('form')}</th>
                    <th scope="col">{t('folder')}</th>
                  </tr>
                </thead>
                <tbody>
                  {counts.items.map((i) => (
                    <tr key={i.id}>
                      <td>
                        <a href={detailHref(i.form, i.id)}>{formatTime(i.createdAt, session.timeZone)}</a>
                      </td>
                      <td>{i.form}</td>
                      <td>{i.folder === 'spam' ? t('spam') : t('inbox')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {counts.submissions > counts.items.length && (
              <p class="help">{t('moreNotListed', { n: counts.submissions - counts.items.length })}</p>
            )}
            {counts.submissions > 0 && (
              <button type="button" class="danger" onClick={() => setConfirm(true)}>
                {plural(counts.submissions, 'eraseCount')}
              </button>
            )}
          </div>
        )}
        {done !== null && (
          <p class="notice" role="status">
            {plural(done.submissions, 'erased', { files: plural(done.files, 'file') })}
          </p>
        )}
      </div>
      <Dialog title={t('eraseConfirmTitle')} open={confirm} onClose={() => setConfirm(false)}>
        <p>{plural(counts?.submissions ?? 0, 'eraseWarning', { email })}</p>
        <div class="actions">
          <button type="button" class="danger" onClick={() => void erase()}>
            {t('erase')}
          </button>
          <button type="button" onClick={() => setConfirm(false)}>
            {t('cancel')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
