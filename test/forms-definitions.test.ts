import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBundle } from '../src/bundle/export-bundle.js';
import { BundleError, importBundle } from '../src/bundle/import-bundle.js';
import { ENGINES } from './helpers/engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { contactForm, emailForm } from './helpers/form-defs.js';
import { type FormsApp, formsHttp, openFormsApp } from './helpers/forms.js';

const base = '/v1/spc_test';
const forms = '/v1/spaces/spc_test/forms';

describe.each(ENGINES)('form definitions on %s (spec 2.9–2.12, 4.5)', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
  });
  afterAll(async () => t.close());

  const { manage, deliver, cvNow } = formsHttp(() => t);

  describe('GET /forms/<key> (spec 2.9)', () => {
    beforeAll(async () => {
      await manage(
        'PUT',
        `${forms}/contact`,
        contactForm('contact', {
          turnstileSiteKey: 'site-1',
          turnstileSecret: 'never-delivered',
          maxSubmissions: 100,
        }),
      );
    });

    it('resolves texts along the locale chain and shared lists into options; leaves out translations and secrets', async () => {
      const res = await deliver('/forms/contact?locale=de-ch');
      expect(res.status).toBe(200);
      expect(res.headers['x-folio-cv']).toBe(String(res.body.cv));
      expect(res.headers['cache-control']).toContain('max-age=10');
      const form = res.body.form;
      expect(form).toMatchObject({
        key: 'contact',
        name: 'Contact',
        locale: 'de-ch',
        honeypot: 'website',
        turnstile: true,
        turnstileSiteKey: 'site-1',
        successMessage: 'Danke!',
        status: 'open',
        closedMessage: 'Zurzeit geschlossen.',
        opensAt: null,
        closesAt: null,
      });
      const byKey = Object.fromEntries(form.fields.map((f: { key: string }) => [f.key, f]));
      expect(byKey.email.label).toBe('E-Mail');
      expect(byKey.topic.options).toEqual([
        { value: 'general', label: 'Allgemein' },
        { value: 'press', label: 'Presse' },
      ]);
      expect(byKey.color).toMatchObject({ label: 'Farbe', options: [{ value: 'red', label: 'Rot' }] });
      expect(byKey.color.list).toBeUndefined();
      expect(byKey.consent.link).toEqual({
        label: 'Datenschutz',
        url: 'https://site.example/de/datenschutz',
      });
      expect(res.text).not.toContain('translations');
      expect(res.text).not.toContain('never-delivered');
      expect(res.text).not.toContain('team@example.com');
      const en = await deliver('/forms/contact');
      expect(en.body.form).toMatchObject({ locale: 'en', successMessage: 'Thanks!' });
    });

    it('evaluates status at response time (spec 3.1) and still delivers closed forms', async () => {
      await manage(
        'PUT',
        `${forms}/timed`,
        emailForm('timed', {
          opensAt: '2026-04-01T00:00:00.000Z',
          closesAt: '2026-05-01T00:00:00.000Z',
          closedMessage: { en: 'See you in April.' },
        }),
      );
      // Responses are cached per cv and query (spec 3.1: a cached status reflects the time of its response), so
      // each moment asks in another locale to get a fresh one.
      const at = async (iso: string, locale: string) => {
        t.clock.current = new Date(iso);
        return (await deliver(`/forms/timed?locale=${locale}`)).body.form;
      };
      expect(await at('2026-03-15T00:00:00.000Z', 'en')).toMatchObject({
        status: 'scheduled',
        closedMessage: 'See you in April.',
        opensAt: '2026-04-01T00:00:00.000Z',
      });
      expect((await at('2026-04-15T00:00:00.000Z', 'de')).status).toBe('open');
      expect((await at('2026-05-01T00:00:00.000Z', 'de-ch')).status).toBe('closed');
      t.clock.current = new Date('2026-03-15T12:00:00.000Z');
      await manage('PUT', `${forms}/timed`, emailForm('timed', { active: false }));
      expect((await deliver('/forms/timed')).body.form).toMatchObject({
        status: 'closed',
        closedMessage: null,
      });
    });

    it('answers 404 for unknown forms and 400 for unknown parameters; pins cv', async () => {
      expect((await deliver('/forms/nope')).status).toBe(404);
      expect((await deliver('/forms/contact?x=1')).status).toBe(400);
      const old = await cvNow();
      await manage('PUT', `${forms}/contact`, { ...contactForm(), name: 'Contact v2' });
      const pinned = await deliver(`/forms/contact?cv=${old}`);
      expect([pinned.body.form.name, pinned.body.cv]).toEqual(['Contact', old]);
      expect(pinned.headers['cache-control']).toContain('immutable');
      expect((await deliver('/forms/contact')).body.form.name).toBe('Contact v2');
    });
  });

  describe('form fields of entries (spec 2.9)', () => {
    it('deliver the form in the entry locale, and null once the form is deleted', async () => {
      await manage('PUT', `${forms}/contact`, contactForm());
      const home = await deliver('/entries/ent_home?locale=de');
      expect(home.body.entry.content.fields.contact).toMatchObject({
        form: 'contact',
        definition: { key: 'contact', locale: 'de', successMessage: 'Danke!', status: 'open' },
      });
      const beforeDelete = home.body.cv;
      const del = await manage('DELETE', `${forms}/contact`);
      expect([del.status, del.body.cv]).toEqual([200, beforeDelete + 1]);
      const after = await deliver('/entries/ent_home');
      expect(after.body.entry.content.fields.contact).toEqual({ form: 'contact', definition: null });
      expect((await deliver('/forms/contact')).status).toBe(404);
      // The published log keeps the old version for pinned requests.
      const pinned = await deliver(`/entries/ent_home?cv=${beforeDelete}`);
      expect(pinned.body.entry.content.fields.contact.definition.key).toBe('contact');
      expect((await manage('DELETE', `${forms}/contact`)).status).toBe(404);
      // Draft previews see the forms of the current cv.
      const draft = await t.inject({
        method: 'GET',
        url: `${base}/entries/ent_home?draft=1`,
        headers: { authorization: `Bearer ${TOKENS.preview}` },
      });
      expect(draft.body.entry.content.fields.contact.definition).toBeNull();
    });
  });

  describe('bundles', () => {
    it('reject an invalid form with its JSON path and change nothing', async () => {
      const bundle = fixtureBundle('spc_badforms') as { forms: unknown[] };
      bundle.forms = [
        emailForm('ok'),
        {
          key: 'bad',
          name: 'Bad',
          fields: [
            { key: 'a', type: 'text', label: 'A' },
            { key: 'b', type: 'text', label: 'B' },
            { key: 'c', type: 'text', label: 'C', maxLength: 900 },
          ],
          settings: {},
        },
        emailForm('ok'),
      ];
      const err = await importBundle(t.store, t.blobs, bundle, { baseDir: await fixtureDir() }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BundleError);
      const problems = (err as BundleError).problems;
      expect(problems).toContainEqual({
        path: 'forms[1].fields[2].maxLength',
        message: 'text fields allow at most 500',
      });
      expect(problems.map((p) => p.path)).toContain('forms[2].key');
      expect(
        await t.store.db.selectFrom('spaces').select('id').where('id', '=', 'spc_badforms').execute(),
      ).toEqual([]);
    });

    it('publish forms at import and round-trip them on export', async () => {
      const bundle = fixtureBundle('spc_formsrt') as { forms: unknown[]; tokens: unknown[] };
      const authored = [
        contactForm('a'),
        emailForm('b', { maxSubmissions: 5, turnstileSiteKey: 'k', turnstileSecret: 's' }),
      ];
      bundle.forms = authored;
      bundle.tokens = [{ kind: 'public', value: 'folio_pub_RoundTripToken0000000001' }];
      await importBundle(t.store, t.blobs, bundle, { baseDir: await fixtureDir() });
      const res = await t.inject({
        method: 'GET',
        url: '/v1/spc_formsrt/forms/b',
        headers: { authorization: 'Bearer folio_pub_RoundTripToken0000000001' },
      });
      expect([res.status, res.body.form.key, res.body.cv]).toEqual([200, 'b', 1]);
      const { bundle: exported } = await exportBundle(t.store, 'spc_formsrt', { secrets: true });
      expect(exported.forms).toEqual(authored);
    });
  });
});
