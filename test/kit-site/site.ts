// A small site on @folio/client with generated types: compiled by test/client-kit.test.ts
// in a fresh project under `tsc --strict`, no `any`, no cast, then run against the demo space.
import {
  createClient,
  findIncluded,
  FolioApiError,
  imageUrl,
  picture,
  renderRichText,
  responseInfo,
  srcset,
  type Asset,
  type FieldError,
  type Link,
  type SyncChange,
} from '@folio/client';
import { renderForm } from '@folio/client/forms';
import type { EnhanceOptions } from '@folio/client/enhance';
import type { FolioBlock, FolioTypes, PageEntry, PostEntry } from './folio-types.js';

const [baseUrl = '', spaceId = '', token = ''] = process.argv.slice(2);
const folio = createClient<FolioTypes>({ baseUrl, spaceId, token });
const out: string[] = [];

function hrefOf(link: Link | null, links: Record<string, { path: string }>): string | null {
  if (link === null) return null;
  switch (link.kind) {
    case 'url':
      return link.url;
    case 'email':
      return `mailto:${link.email}`;
    case 'asset':
      return link.url;
    case 'entry':
      return links[link.entry]?.path ?? null;
  }
}

function image(asset: Asset | null): string {
  return asset === null ? '' : picture(asset, { sizes: '(min-width: 60rem) 50vw, 100vw', ar: '4:3' });
}

function block(b: FolioBlock, links: Record<string, { path: string }>): string {
  switch (b.type) {
    case 'hero':
      return `<section class="hero hero--${b.fields.theme ?? 'light'}"><h1>${b.fields.heading ?? ''}</h1>${image(b.fields.image)}</section>`;
    case 'textBlock':
      return renderRichText(b.fields.text, { links });
    case 'gallery':
      return b.fields.images.map((a) => `<img src="${imageUrl(a, { preset: 'thumb' })}">`).join('');
    case 'cta':
      return `<a href="${hrefOf(b.fields.link, links) ?? '#'}">${b.fields.label ?? ''}</a>`;
    case 'formBlock':
      return b.fields.form.definition === null
        ? ''
        : renderForm(b.fields.form.definition, { baseUrl, spaceId, token });
    case 'linkItem':
      return `<a href="${hrefOf(b.fields.link, links) ?? '#'}">${b.fields.label ?? ''}</a>`;
    default: {
      const never: never = b;
      return String(never);
    }
  }
}

// A post, typed by its type key and checked by the client; `include` takes the post's reference fields only.
const post = await folio.entries.byPath('/blog/hello-world', { type: 'post', include: 'author' });
const postEntry: PostEntry = post.entry;
const fields = postEntry.content.fields;
const rating: number | null = fields.rating;
const category: 'news' | 'guides' | 'releases' | null = fields.category;
out.push(`<h1>${fields.title ?? ''}</h1>`, `rating ${rating ?? '-'} ${category ?? ''}`);
// The included author, narrowed to its type (undefined when it is not there).
const author = findIncluded(post, fields.author, 'author');
out.push(`by ${author?.content.fields.name ?? 'nobody'}`);
out.push(renderRichText(fields.body, { links: post.included.links }));
if (fields.cover !== null) out.push(image(fields.cover), `srcset: ${srcset(fields.cover, [320, 640])}`);
out.push(`cv ${responseInfo(post)?.cv ?? 0} tags ${responseInfo(post)?.tags.length ?? 0}`);

// A page with blocks, in German.
const about = await folio.entries.byPath<'page'>('/ueber-uns', { locale: 'de', type: 'page' });
const page: PageEntry = about.entry;
out.push(`<h1>${page.content.fields.title ?? ''}</h1>`);
for (const b of page.content.fields.body) out.push(block(b, about.included.links));

// Posts, typed by the list's type, with the filter members and sort keys the server accepts for posts.
const best = folio.entries.list({
  type: 'post',
  limit: 2,
  sort: ['-fields.rating', 'name'],
  filter: { 'fields.rating': { gte: 4 } },
});
for await (const item of best) {
  const title: string | null = item.content.fields.title;
  out.push(`<li>${title ?? item.name} ${item.content.fields.rating ?? '-'}</li>`);
}

// Without a type, by path is one of the page types.
const home = await folio.entries.byPath('/');
out.push(`home is a ${home.entry.type === 'page' ? 'page' : 'post'}`);

// Menus by their (typed) keys.
const { menu } = await folio.menus.get('main');
out.push(`menu ${menu.key} ${menu.items.length}`);

// A global's dictionary.
const footer = await folio.globals.get('footer');
const labels: Record<string, string> = footer.entry.content.fields.labels;
out.push(`labels ${Object.keys(labels).length}`);

// The contact form: what forms.get() gives is what renderForm() takes; FolioApiError.fields feed fieldErrors.
const { form } = await folio.forms.get('contact');
let fieldErrors: Record<string, FieldError> = {};
try {
  await folio.forms.submit('contact', {});
} catch (err) {
  if (err instanceof FolioApiError) fieldErrors = err.fields;
}
out.push(renderForm(form, { baseUrl, spaceId, token, fieldErrors }));
const enhance: EnhanceOptions = {};
out.push(`enhance options ${Object.keys(enhance).length}`);

// Sync items narrowed by kind.
const feed = folio.sync({ since: 0 });
const kinds = new Set<string>();
for await (const change of feed) {
  const c: SyncChange = change;
  if (c.change === 'changed' && c.item.kind === 'entry') kinds.add(`${c.item.kind}:${c.item.page}`);
  else kinds.add(c.item.kind);
}
out.push(`sync to ${feed.toCv ?? 0}: ${[...kinds].sort().join(' ')}`);

console.log(out.join('\n'));
