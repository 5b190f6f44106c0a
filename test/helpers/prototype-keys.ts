// The space and the requests of test/prototype-keys.test.ts: keys named like Object.prototype
// members wherever a client, an author or a bundle chooses one.

import type { HTTPMethods } from 'fastify';
import { fixtureBundle, TOKENS } from './fixture.js';

/** Every name an object literal answers for without having it, and the one that sets its prototype. */
export const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;
/** Those a field, type, menu, list or form key may be (keys start with a letter). */
export const KEYABLE = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

export const pub = { authorization: `Bearer ${TOKENS.public}` };
export const prv = { authorization: `Bearer ${TOKENS.preview}` };
export const mgt = { authorization: `Bearer ${TOKENS.management}` };
const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };

/** The fixture space with a type, fields, a global, a menu, a list, a form and a preset named like prototype members. */
export function protoBundle(): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fixture is extended loosely
  const b = fixtureBundle() as any;
  b.space.imagePresets = { constructor: { width: 40, height: 20 } };
  b.types.push(
    {
      key: 'constructor',
      kind: 'collection',
      pages: true,
      fields: [
        { key: 'constructor', type: 'text' },
        { key: 'toString', type: 'number' },
        { key: 'valueOf', type: 'option', options: [{ value: 'constructor', label: { en: 'C' } }] },
        { key: 'hasOwnProperty', type: 'reference', to: ['constructor'] },
        { key: 'dict', type: 'dictionary' },
      ],
    },
    { key: 'valueOf', kind: 'global', fields: [{ key: 'toString', type: 'text' }] },
  );
  b.entries.push(
    {
      id: 'ent_c1',
      type: 'constructor',
      name: 'C1',
      slug: 'c1',
      parent: null,
      position: 5,
      tags: ['constructor'],
      published,
      fields: {
        constructor: 'x',
        toString: 3,
        valueOf: 'constructor',
        hasOwnProperty: 'ent_c2',
        // JSON.parse makes `__proto__` an own member, as a bundle file read from disk does.
        dict: JSON.parse('{"constructor":{"en":"c"},"__proto__":{"en":"p"}}') as unknown,
      },
    },
    {
      id: 'ent_c2',
      type: 'constructor',
      name: 'C2',
      slug: 'c2',
      parent: null,
      position: 6,
      tags: [],
      published,
      fields: {},
    },
    {
      id: 'ent_v',
      type: 'valueOf',
      name: 'V',
      slug: 'v',
      parent: null,
      position: 0,
      tags: [],
      published,
      fields: {},
    },
  );
  b.menus.push({ key: 'constructor', name: 'C', items: [] });
  b.lists.push({ key: 'toString', options: [{ value: 'constructor', label: { en: 'C' } }] });
  b.forms.push({
    key: 'constructor',
    name: 'C',
    fields: [
      { key: 'toString', type: 'select', label: 'Pick', list: 'toString' },
      { key: 'constructor', type: 'email', label: 'Email' },
      { key: 'valueOf', type: 'text', label: 'Text' },
    ],
    settings: { uniqueField: 'constructor', notify: ['team@example.com'] },
  });
  return b;
}

/** Requests that put each prototype name where a client chooses a key; none may answer 5xx. */
export function probes(
  k: string,
): { method: HTTPMethods; url: string; headers: Record<string, string>; body?: unknown }[] {
  const e = encodeURIComponent;
  const get = (url: string, headers = pub) => ({ method: 'GET' as const, url, headers });
  const send = (method: HTTPMethods, url: string, body: unknown, headers = mgt) => ({
    method,
    url,
    headers,
    body,
  });
  const d = '/v1/spc_test';
  const m = '/v1/spaces/spc_test';
  return [
    // Delivery: query parameters, locale codes, include and fields keys, type keys, filter and sort members.
    get(`${d}/entries?${k}=1`),
    get(`${d}/entries?locale=${k}`),
    get(`${d}/entries?include=${k}&fields=${k}`),
    get(`${d}/entries?type=${k}`),
    get(`${d}/entries?sort=${k}`),
    get(`${d}/entries?sort=-fields.${k}`),
    get(`${d}/entries?type=page&sort=fields.${k}`),
    get(`${d}/entries?${e(`filter[${k}]`)}=1`),
    get(`${d}/entries?${e(`filter[fields.${k}]`)}=1`),
    get(`${d}/entries?${e(`filter[name][${k}]`)}=1`),
    get(`${d}/entries?type=page&${e(`filter[fields.${k}][${k}]`)}=1`),
    get(`${d}/entries?tags=${k}&under=/${k}`),
    get(`${d}/entries/ent_home?locale=${k}&include=${k}&fields=${k}`),
    get(`${d}/entries/${k}`),
    get(`${d}/entries/by-path/${k}`),
    get(`${d}/globals/${k}`),
    get(`${d}/globals?keys=${k}`),
    get(`${d}/menus/${k}?locale=${k}`),
    get(`${d}/menus?keys=main,${k}`),
    get(`${d}/lists/${k}`),
    get(`${d}/lists/colors?locale=${k}`),
    get(`${d}/forms/${k}?locale=${k}`),
    get(`${d}/assets/ast_pic/pic.png?preset=${k}`),
    get(`${d}/assets/ast_pic/pic.png?fm=${k}&${k}=1`),
    get(`${d}/assets/${k}/pic.png`),
    get(`${d}/tree?locale=${k}&under=/${k}`),
    get(`${d}/sitemap?locale=${k}`),
    get(`${d}/search?q=${k}&type=${k}&locale=${k}`),
    get(`${d}/redirects?locale=${k}`),
    get(`${d}/sync?${k}=1`),
    get(`${d}/sync?full=1&locale=${k}`),
    get(`${d}/entries?draft=1&type=page&sort=fields.${k}&${e(`filter[fields.${k}]`)}=1`, prv),
    get(`${d}/entries/ent_home?draft=1&include=${k}&fields=${k}`, prv),
    // Forms: submission keys (field keys of the body), form keys, option values.
    send('POST', `${d}/forms/contact/submissions`, { [k]: 'x', [`${k}[]`]: ['y'] }, pub),
    send('POST', `${d}/forms/${k}/submissions`, { [k]: 'x' }, pub),
    // The inbox and exports: field filters, unknown parameters, bulk filters.
    get(`${m}/forms/contact/submissions?${e(`field[${k}]`)}=x`, mgt),
    get(`${m}/forms/contact/submissions?${k}=x`, mgt),
    get(`${m}/forms/contact/submissions/export?format=${k}&${e(`field[${k}]`)}=x`, mgt),
    send('POST', `${m}/forms/contact/submissions/bulk`, {
      action: 'status',
      status: 'done',
      filter: { [k]: 'x' },
    }),
    send('POST', `${m}/forms/contact/submissions/bulk`, { action: k, ids: ['sub_x'] }),
    // Management: ids and keys in paths, members and locale keys in bodies.
    get(`${m}/forms/${k}`, mgt),
    get(`${m}/activity?action=${k}`, mgt),
    get(`${m}/entries?type=${k}&parent=${k}`, mgt),
    send('POST', `${m}/forms`, {
      key: `x${k}`,
      name: 'X',
      fields: [{ key: 'a', type: k, label: 'A' }],
      settings: { [k]: 1 },
    }),
    send('POST', `${m}/forms`, {
      key: `y${k}`,
      name: 'Y',
      fields: [{ key: 'a', type: 'select', label: 'A', list: k, translations: { [k]: { label: 'x' } } }],
      settings: { uniqueField: k, successMessage: { [k]: 'x' } },
    }),
    send('POST', `${m}/entries`, { type: k, name: 'x', slug: `x${k}` }),
    send('POST', `${m}/entries`, {
      type: 'page',
      name: 'x',
      slug: `y${k}`,
      slugs: { [k]: 'y' },
      fields: { [k]: 'x', title: { [k]: 'x' } },
    }),
    send('POST', `${m}/entries/ent_about/rename`, { slugs: { [k]: 'x' } }),
    send('PUT', `${m}/menus/main`, {
      name: 'x',
      items: [{ id: 'mni_a', label: { [k]: 'x' }, link: { kind: k }, children: [] }],
    }),
    send('POST', `${m}/redirects`, { from: `/${k}`, to: null, locale: k }),
    send('PUT', `${m}/lists/colors`, { options: [{ value: 'red', label: { [k]: 'x' } }] }),
    send('POST', `${m}/webhooks`, { url: 'https://example.com/hook', events: [k] }),
    send('POST', `${m}/tokens`, { kind: 'management', scopes: [k] }),
  ];
}
