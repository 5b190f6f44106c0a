// Erase by email (issue 32 item 6; spec 4.5): a dry run counts first, the counts are shown, and only a confirmed
// second call deletes.

import { useEffect, useState } from 'preact/hooks';
import { call, spacePath } from './api.js';
import { Dialog } from './dialog.js';
import { plural } from './format.js';
import { type EraseCounts, readErase, type Session } from './read.js';

export function Erase(props: { session: Session }) {
  const { session } = props;
  const [email, setEmail] = useState('');
  const [counts, setCounts] = useState<EraseCounts | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [done, setDone] = useState<EraseCounts | null>(null);
  const [error, setError] = useState('');
  const path = spacePath(session.spaceId, 'forms', 'erase');
  useEffect(() => {
    document.title = 'Erase · Folio inbox';
  }, []);
  if (!session.scopes.includes('forms.erase'))
    return (
      <section>
        <h1>Erase by email</h1>
        <p>
          This token does not have the <code>forms.erase</code> scope.
        </p>
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
      <h1 id="erase-title">Erase by email</h1>
      <p>
        A visitor asked to be forgotten. Every submission whose email fields hold the address, in the inbox
        and in spam, is deleted with its notes and files. The activity log records the counts, never the
        address.
      </p>
      <form class="erase" onSubmit={dryRun}>
        <div class="field grow">
          <label for="e-email">Email address</label>
          <input id="e-email" name="email" type="email" required maxLength={320} />
        </div>
        <button type="submit">Count submissions</button>
      </form>
      {error !== '' && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div aria-live="polite">
        {counts !== null && (
          <div class="dry-run">
            <h2>Dry run for {email}</h2>
            <p>
              {plural(counts.submissions, 'submission')} and {plural(counts.files, 'file')} would be deleted.
            </p>
            {counts.forms.length > 0 && (
              <table>
                <caption>Per form</caption>
                <thead>
                  <tr>
                    <th scope="col">Form</th>
                    <th scope="col" class="num">
                      Inbox
                    </th>
                    <th scope="col" class="num">
                      Spam
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {counts.forms.map((f) => (
                    <tr key={f.form}>
                      <th scope="row">{f.form}</th>
                      <td class="num">{f.inbox}</td>
                      <td class="num">{f.spam}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {counts.submissions > 0 && (
              <button type="button" class="danger" onClick={() => setConfirm(true)}>
                Erase {plural(counts.submissions, 'submission')}…
              </button>
            )}
          </div>
        )}
        {done !== null && (
          <p class="notice" role="status">
            Erased {plural(done.submissions, 'submission')} and {plural(done.files, 'file')}.
          </p>
        )}
      </div>
      <Dialog title="Erase for good?" open={confirm} onClose={() => setConfirm(false)}>
        <p>
          {plural(counts?.submissions ?? 0, 'submission')} of {email} will be deleted with their notes and
          files. This cannot be undone.
        </p>
        <div class="actions">
          <button type="button" class="danger" onClick={() => void erase()}>
            Erase
          </button>
          <button type="button" onClick={() => setConfirm(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </section>
  );
}
