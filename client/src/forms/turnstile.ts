// The Turnstile widget (spec 2.9 `turnstile`, 4.4 `cf-turnstile-response`), loaded only for forms that use it.
// Tokens are single-use (docs/api.md "Turnstile"): each upload and the submission take their own, and the widget
// is reset after every take so the next one is on its way.

/** Cloudflare's script, explicit rendering: the enhancer decides when and where the widget appears. */
export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface RenderParams {
  sitekey: string;
  callback: (token: string) => void;
  'expired-callback': () => void;
  'error-callback': () => void;
}

interface TurnstileApi {
  render(container: HTMLElement, params: RenderParams): string | null | undefined;
  reset(widgetId?: string): void;
}

function isTurnstileApi(value: unknown): value is TurnstileApi {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'render') === 'function' &&
    typeof Reflect.get(value, 'reset') === 'function'
  );
}

const loads = new Map<string, Promise<TurnstileApi | null>>();

/** Loads the script once per page (and URL); null when it fails to load or defines no `turnstile`. */
function loadApi(doc: Document, src: string): Promise<TurnstileApi | null> {
  const view = doc.defaultView;
  const present: unknown = view ? Reflect.get(view, 'turnstile') : undefined;
  if (isTurnstileApi(present)) return Promise.resolve(present);
  let pending = loads.get(src);
  if (!pending) {
    pending = new Promise((resolve) => {
      const script = doc.createElement('script');
      script.src = src;
      script.async = true;
      script.addEventListener('load', () => {
        const api: unknown = view ? Reflect.get(view, 'turnstile') : undefined;
        resolve(isTurnstileApi(api) ? api : null);
      });
      script.addEventListener('error', () => resolve(null));
      doc.head.append(script);
    });
    loads.set(src, pending);
  }
  return pending;
}

export class TurnstileTokens {
  private token: string | null = null;
  private waiters: ((token: string) => void)[] = [];
  private api: Promise<TurnstileApi | null>;
  private widget: string | undefined;

  constructor(container: HTMLElement, siteKey: string, src: string) {
    this.api = loadApi(container.ownerDocument, src).then((api) => {
      const id = api?.render(container, {
        sitekey: siteKey,
        callback: (token) => this.receive(token),
        'expired-callback': () => {
          this.token = null;
        },
        // The widget shows its own error and retries; takers wait until their timeout.
        'error-callback': () => {},
      });
      this.widget = typeof id === 'string' ? id : undefined;
      return api;
    });
  }

  private receive(token: string): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(token);
    else this.token = token;
  }

  /** A fresh token, or null when none came within `timeoutMs` (the script did not load, or no challenge passed). */
  async take(timeoutMs: number): Promise<string | null> {
    const api = await this.api;
    if (!api) return null;
    let token = this.token;
    this.token = null;
    if (token === null) {
      let waiter: ((t: string) => void) | undefined;
      token = await new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs);
        waiter = (t) => {
          clearTimeout(timer);
          resolve(t);
        };
        this.waiters.push(waiter);
      });
      if (token === null) this.waiters = this.waiters.filter((w) => w !== waiter);
    }
    // Spent by whoever took it: start the next challenge now.
    if (token !== null) api.reset(this.widget);
    return token;
  }
}
