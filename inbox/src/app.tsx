// The page: sign-in, then the screens of the routes, in the owner's language (chosen from the browser, switchable).
// What is offered follows the token's scopes; the API checks them regardless.

import type { JSX } from 'preact';
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
import { initialLang, type Lang, LANG_NAMES, LANGS, setLang, t } from './i18n/index.js';

function LanguageSwitch(props: { lang: Lang; onChange: (lang: Lang) => void }) {
  return (
    <span class="lang">
      <label for="lang" class="visually-hidden">
        {t('language')}
      </label>
      <select
        id="lang"
        value={props.lang}
        onChange={(e) => {
          const value = (e.currentTarget as HTMLSelectElement).value; // this select
          const lang = LANGS.find((l) => l === value);
          if (lang) props.onChange(lang);
        }}
      >
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANG_NAMES[l]}
          </option>
        ))}
      </select>
    </span>
  );
}

type State = { kind: 'loading' } | { kind: 'signed-out'; notice: string } | { kind: 'in'; session: Session };

export function App() {
  const [lang, chooseLang] = useState<Lang>(() => {
    const l = initialLang();
    setLang(l, false);
    return l;
  });
  const switchLang = (l: Lang) => {
    setLang(l, true);
    chooseLang(l);
  };
  return <Page key={lang} lang={lang} onLang={switchLang} />;
}

/** Everything under one language: a switch remounts it, so every word and date is rendered again. */
function Page(props: { lang: Lang; onLang: (lang: Lang) => void }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [help, setHelp] = useState(false);
  const ended = () => {
    forgetSession();
    setState({ kind: 'signed-out', notice: t('sessionEnded') });
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

  const switcher = <LanguageSwitch lang={props.lang} onChange={props.onLang} />;
  if (state.kind === 'loading') return <p class="loading">{t('loading')}</p>;
  if (state.kind === 'signed-out') return <SignIn notice={state.notice} onIn={enter} switcher={switcher} />;
  return (
    <>
      <Header
        session={state.session}
        switcher={switcher}
        onOut={() => setState({ kind: 'signed-out', notice: t('signedOut') })}
      />
      <main id="main" tabIndex={-1}>
        <Screen session={state.session} />
      </main>
      <HelpDialog open={help} onClose={() => setHelp(false)} />
    </>
  );
}

function SignIn(props: { notice: string; onIn: (body: unknown) => void; switcher: JSX.Element }) {
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
        err instanceof ApiError && err.status === 401 ? t('tokenRefused') : String((err as Error).message),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <p class="signin-lang">{props.switcher}</p>
      <h1>{t('appName')}</h1>
      {props.notice !== '' && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form onSubmit={submit} aria-describedby="signin-help">
        <label for="token">{t('managementToken')}</label>
        <input id="token" name="token" type="password" autoComplete="off" required spellcheck={false} />
        <p id="signin-help" class="help">
          {t('signInHelp')}
        </p>
        {error !== '' && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('signIn')}
        </button>
      </form>
    </main>
  );
}

function Header(props: { session: Session; onOut: () => void; switcher: JSX.Element }) {
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
        {t('skipToContent')}
      </a>
      <p class="brand">
        <a href="#/">{t('spaceInbox', { space: session.spaceName || 'Folio' })}</a>
      </p>
      <nav aria-label={t('mainNav')}>
        <a href="#/">{t('forms')}</a>
        {session.scopes.includes('forms.read') && <a href="#/charts">{t('charts')}</a>}
        {session.scopes.includes('forms.erase') && <a href="#/erase">{t('erase')}</a>}
      </nav>
      <p class="who">
        {props.switcher}
        <span class="token-name">
          <bdi>{session.person?.name ?? session.tokenName}</bdi>
        </span>
        <button type="button" class="link" onClick={signOut}>
          {t('signOut')}
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
        <h1>{t('noSubmissionsTitle')}</h1>
        <p>{t('noSubmissionsText')}</p>
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
