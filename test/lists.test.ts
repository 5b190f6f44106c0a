import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { ENGINES } from './helpers/engines.js';
import { LIST_SPACE, LIST_TOKENS, openListApp } from './helpers/list-fixture.js';

const v1 = `/v1/${LIST_SPACE}`;
const pub = { authorization: `Bearer ${LIST_TOKENS.public}` };
const prv = { authorization: `Bearer ${LIST_TOKENS.preview}` };

describe.each(ENGINES)('GET /lists/<key> on %s (spec 2.8)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openListApp(engine);
  });
  afterAll(async () => t.close());

  const labels = async (query: string, headers = pub) => {
    const r = await t.get(`${v1}/lists/colors${query}`, headers);
    expect(r.status).toBe(200);
    return r.body.list.options.map((o: { value: string; label: string }) => `${o.value}=${o.label}`);
  };

  it('resolves labels along the locale chain, the value when no locale has one', async () => {
    expect(await labels('')).toEqual(['red=Red', 'green=Green', 'blue=blue', 'plain=plain']);
    expect(await labels('?locale=de')).toEqual(['red=Rot', 'green=Grün', 'blue=Blau', 'plain=plain']);
    expect(await labels('?locale=de-ch')).toEqual(['red=Rot', 'green=Grüen', 'blue=Blau', 'plain=plain']);
  });

  it('answers the documented envelope, cacheable per cv', async () => {
    const r = await t.get(`${v1}/lists/colors?locale=de&cv=1`, pub);
    expect(r.body).toEqual({
      list: {
        key: 'colors',
        name: 'Colours',
        options: [
          { value: 'red', label: 'Rot' },
          { value: 'green', label: 'Grün' },
          { value: 'blue', label: 'Blau' },
          { value: 'plain', label: 'plain' },
        ],
      },
      cv: 1,
    });
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['x-folio-cv']).toBe('1');
  });

  it('reads the authored list for previews', async () => {
    expect(await labels('?draft=1&locale=de', prv)).toEqual([
      'red=Rot',
      'green=Grün',
      'blue=Blau',
      'plain=plain',
    ]);
  });

  it('answers 404 for an unknown list and 400 for parameters it does not take', async () => {
    for (const key of ['sizes', 'a%00b']) {
      const missing = await t.get(`${v1}/lists/${key}`, pub);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
    }
    for (const [query, parameter] of [
      ['include=x', 'include'],
      ['locale=fr', 'locale'],
      ['fields=a', 'fields'],
    ]) {
      const r = await t.get(`${v1}/lists/colors?${query}`, pub);
      expect(r.status).toBe(400);
      expect(r.body.error.details).toEqual({ parameter });
    }
    expect((await t.get(`${v1}/lists/colors`)).status).toBe(401);
  });
});
