// The site's pages: one per entry that is a page (at its site URL, as the loader stored it) and a thanks page per
// locale for the contact form. (getStaticPaths runs on its own: what it uses is imported from here.)
import { getCollection } from 'astro:content';
import { LOCALES } from '../folio';

export type PageProps = { kind: 'entry'; id: string } | { kind: 'thanks'; locale: string };
export interface PagePath {
  params: { slug: string | undefined };
  props: PageProps;
}

export const THANKS: Record<string, { path: string; title: string; text: string }> = {
  en: { path: '/thanks', title: 'Thank you', text: 'We got your message.' },
  de: { path: '/de/danke', title: 'Danke', text: 'Wir haben Ihre Nachricht erhalten.' },
};

/** Astro's rest parameter for a site URL: undefined for the root. */
const slugOf = (path: string) => (path === '/' ? undefined : path.replace(/^\/+/, ''));

export async function pagePaths(): Promise<PagePath[]> {
  const entries = await getCollection('entries');
  const pages = entries.flatMap((e): PagePath[] =>
    e.data.path === null
      ? []
      : [{ params: { slug: slugOf(e.data.path) }, props: { kind: 'entry', id: e.id } }],
  );
  const thanks = LOCALES.flatMap((locale): PagePath[] => {
    const page = THANKS[locale];
    return page === undefined
      ? []
      : [{ params: { slug: slugOf(page.path) }, props: { kind: 'thanks', locale } }];
  });
  return [...pages, ...thanks];
}
