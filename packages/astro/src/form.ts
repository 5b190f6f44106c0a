// The contact form of a static Astro page: rendered at build time with the client's renderer, posting straight
// to Folio. With JavaScript the enhancer (`import '@folio/client/enhance'` in a <script>) keeps the visitor on the
// page; without it the post goes to Folio, which answers a failed one with the form again (errors beside fields,
// values kept) and a good one with a redirect back to the site's thanks page.

import { renderForm } from '@folio/client/forms';
import type { FolioSource } from './source.js';

export interface FolioFormOptions {
  /** The form's key, e.g. `contact`. */
  key: string;
  locale: string;
  /** The absolute URL of the page the form is on (`Astro.url.href` at build time with `site` set). */
  page: string;
  /** The absolute URL a successful post without JavaScript comes back to. */
  thanks: string;
  /** The cv the page was built from (`entry.data.cv`); default: the source's pinned cv. */
  cv?: number;
  /** Heading level of the form's title (default 2). */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/** The form's HTML (with its style), for `<Fragment set:html={…} />`. */
export async function renderFolioForm(source: FolioSource, options: FolioFormOptions): Promise<string> {
  const client = options.cv === undefined ? await source.pinned() : source.client.at(options.cv);
  const [{ form }, { locales, timeZone }] = await Promise.all([
    client.forms.get(options.key, { locale: options.locale }),
    source.status(),
  ]);
  return renderForm(form, {
    baseUrl: source.options.baseUrl,
    spaceId: source.options.spaceId,
    token: source.options.token,
    redirect: options.thanks,
    // A plain post made before the enhancer ran comes back here; the enhancer shows its errors and values.
    redirectError: options.page,
    page: options.page,
    // A static page cannot read a post's draft without JavaScript: Folio shows the form again itself.
    errorPage: 'folio-without-js',
    locales,
    ...(typeof timeZone === 'string' ? { timeZone } : {}),
    headingLevel: options.headingLevel ?? 2,
  });
}
