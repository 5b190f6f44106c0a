// The page: sign-in, then the screens of the routes. What is offered follows the token's scopes; the API checks
// them regardless.

import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, forgetSession, useSession } from './api.js';
import { Charts } from './charts.js';
import { Detail } from './detail.js';
import { HelpDialog } from './dialog.js';
import { Erase } from './erase.js';
import { useKeys } from './keys.js';
import { List } from './list.js';
import { OverviewScreen } from './overview.js';
import { readSession, type Session } from './read.js';
import { useRoute } from './router.js';

type State = { kind: 'loading' } | { kind: 'signed-out'; notice: string } | { kind: 'in'; session: Session };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [help, setHelp] = useState(false);
  const ended = () => {
    forgetSession();
    setState({ kind: 'signed-out', notice: 'Your session has ended. Sign in again.' });
  };
  const enter = (body: unknown) => {
    const session = readSession(body);
    useSession(session.csrfToken, ended);
    setState({ kind: 'in', session });
  };
  useEffect(() => {
    call('GET', '/inbox/session')
      .then(enter)
      .catch(() => setState({ kind: 'signed-out', notice: '' }));
  }, []);
  useKeys({ '?': () => setHelp((h) => !h) });

  if (state.kind === 'loading') return <p class="loading">Loading…</p>;
  if (state.kind === 'signed-out') return <SignIn notice={state.notice} onIn={enter} />;
  return (
    <>
      <Header session={state.session} onOut={() => setState({ kind: 'signed-out', notice: 'Signed out.' })} />
      <main id="main" tabIndex={-1}>
        <Screen session={state.session} />
      </main>
      <HelpDialog open={help} onClose={() => setHelp(false)} />
    </>
  );
}

function SignIn(props: { notice: string; onIn: (body: unknown) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement; // the form this handler is on
    const input = form.elements.namedItem('token');
    const token = input instanceof HTMLInputElement ? input.value.trim() : '';
    setBusy(true);
    setError('');
    try {
      const body = await call('POST', '/inbox/session', { token });
      // The token leaves the page: only the HttpOnly cookie stands for it from now on.
      if (input instanceof HTMLInputElement) input.value = '';
      props.onIn(body);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? 'That is not a management token.'
          : String((err as Error).message),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Folio inbox</h1>
      {props.notice !== '' && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form onSubmit={submit} aria-describedby="signin-help">
        <label for="token">Management token</label>
        <input id="token" name="token" type="password" autoComplete="off" required spellcheck={false} />
        <p id="signin-help" class="help">
          A management token of your space (<code>folio_mgt_…</code>). It is exchanged for a session cookie
          and not kept by this page.
        </p>
        {error !== '' && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

function Header(props: { session: Session; onOut: () => void }) {
  const { session } = props;
  const signOut = async () => {
    try {
      await call('DELETE', '/inbox/session');
    } finally {
      forgetSession();
      props.onOut();
    }
  };
  return (
    <header class="top">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <p class="brand">
        <a href="#/">{session.spaceName || 'Folio'} inbox</a>
      </p>
      <nav aria-label="Main">
        <a href="#/">Forms</a>
        {session.scopes.includes('forms.read') && <a href="#/charts">Charts</a>}
        {session.scopes.includes('forms.erase') && <a href="#/erase">Erase</a>}
      </nav>
      <p class="who">
        <span class="token-name">{session.tokenName}</span>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </p>
    </header>
  );
}

function Screen(props: { session: Session }) {
  const route = useRoute();
  const { session } = props;
  if (!session.scopes.includes('forms.read') && route.name !== 'erase')
    return (
      <section>
        <h1>No submissions for this token</h1>
        <p>
          This token does not have the <code>forms.read</code> scope, so it sees no submissions. Sign in with
          a token that has it.
        </p>
      </section>
    );
  switch (route.name) {
    case 'overview':
      return <OverviewScreen session={session} />;
    case 'list':
      return <List session={session} form={route.form} params={route.params} />;
    case 'detail':
      return <Detail session={session} form={route.form} id={route.id} params={route.params} />;
    case 'charts':
      return <Charts session={session} days={route.days} />;
    case 'erase':
      return <Erase session={session} />;
  }
}
