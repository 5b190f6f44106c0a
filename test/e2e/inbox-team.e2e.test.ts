import { mkdirSync, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { TOKENS } from '../helpers/fixture.js';
import { PROCESS_TEST_MS } from '../helpers/processes.js';
import { storePerson } from '../helpers/tokens.js';
import { FORM, type InboxSite, SPACE, startInboxSite } from './inbox-site.js';

// The team inbox in real Chromium: two people sign in. Mara (English, light) opens submissions, which turn
// read for her only; Bo (German, dark) filters by an option, sorts oldest first, searches "MÜLLER", assigns the
// submission to Mara by name, and exports CSV and XLSX (opened here with exceljs); both at 320 px too. A name
// holding U+202E leaves the rest of its row in order; an Arabic message reads from the right. Screenshots go to
// test-output/inbox-team-*.png.

const RLO_NAME = 'Mallory \u202Eevil';
const ARABIC = 'مرحبا، أريد الاستفسار عن الفاتورة';

let browser: Browser;
let site: InboxSite;
let mara: { id: string; token: string };
let bo: { id: string; token: string };
const ids: Record<string, string> = {};
const problems: string[] = [];

async function submit(values: Record<string, unknown>): Promise<string> {
  site.t.clock.current = new Date(site.t.clock.current.getTime() + 1000);
  const res = await site.t.inject({
    method: 'POST',
    url: `/v1/${SPACE}/forms/${FORM}/submissions`,
    headers: { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' },
    payload: values,
  });
  if (res.status !== 200) throw new Error(`submit: ${res.text}`);
  const list = await site.t.inject({
    method: 'GET',
    url: `/v1/spaces/${SPACE}/forms/${FORM}/submissions?limit=1`,
    headers: { authorization: `Bearer ${TOKENS.management}` },
  });
  return String(list.body.items[0].id);
}

beforeAll(async () => {
  site = await startInboxSite();
  mara = await storePerson(site.t.store, SPACE, 'Mara Rossi', 'mara@example.com', ['forms.read']);
  bo = await storePerson(site.t.store, SPACE, 'Bo Brandt', null, ['forms.read', 'forms.write']);
  ids['muller'] = await submit({
    name: 'Jürgen Müller',
    email: 'juergen@example.com',
    topic: 'bug',
    message: 'Der Export bricht nach 10 000 Zeilen ab.',
  });
  ids['rlo'] = await submit({ name: RLO_NAME, email: 'mallory@example.com', topic: 'billing' });
  ids['arabic'] = await submit({
    name: 'سارة',
    email: 'sara@example.com',
    topic: 'billing',
    message: ARABIC,
  });
  browser = await launchChromium();
  mkdirSync('test-output', { recursive: true });
}, PROCESS_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(
  locale: string,
  colorScheme: 'light' | 'dark',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale,
    colorScheme,
    acceptDownloads: true,
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  return { context, page };
}

async function signIn(page: Page, token: string, words: { token: string; signIn: string }): Promise<void> {
  await page.goto(`${site.base}/inbox/`);
  await page.getByLabel(words.token).fill(token);
  await page.getByRole('button', { name: words.signIn }).click();
  await page.locator('main h1').first().waitFor();
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-output/inbox-team-${name}.png`, fullPage: true });
const row = (page: Page, text: string) => page.locator('.items li', { hasText: text });
const readFor = async (token: string, id: string) => {
  const res = await fetch(`${site.base}/v1/spaces/${SPACE}/forms/${FORM}/submissions/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { submission: { read: boolean } }).submission.read;
};
const widest = (page: Page) => page.evaluate('document.documentElement.scrollWidth');

describe('the team inbox in Chromium', { timeout: PROCESS_TEST_MS }, () => {
  it('Mara, in English and light: unread in bold and in the title; opening marks read for her only', async () => {
    const { context, page } = await open('en-GB', 'light');
    await signIn(page, mara.token, { token: 'Management token', signIn: 'Sign in' });
    const overview = page.getByRole('row', { name: /Support requests/ });
    await overview.waitFor();
    // Everything is unread for a person who never opened anything: 57 inbox submissions of the seed and 3 more.
    await expect.poll(() => page.title()).toMatch(/^\(\d+\) Forms · Folio inbox$/);
    expect(await overview.getAttribute('class')).toBe('unread');
    await shot(page, 'overview-en-light');

    await page.getByRole('link', { name: 'Support requests' }).click();
    await row(page, 'Jürgen Müller').waitFor();
    expect(await row(page, 'Jürgen Müller').getAttribute('class')).toContain('unread');
    // A computed style, read in the page (the test's types have no DOM: the page's global is named here).
    type Styled = { getComputedStyle(e: unknown): Record<string, string> };
    const computed = (e: unknown, property: string) =>
      (globalThis as unknown as Styled).getComputedStyle(e)[property] ?? '';
    expect(await row(page, 'Jürgen Müller').locator('.title').evaluate(computed, 'fontWeight')).toBe('700');
    // Rows read well: who, the address as a reply link to the form, the choice by its label, a preview.
    const muller = row(page, 'Jürgen Müller');
    expect(await muller.locator('a.reply').getAttribute('href')).toBe(
      'mailto:juergen@example.com?subject=Re%3A%20Support%20requests',
    );
    expect(await muller.locator('.choice').textContent()).toBe('Something is broken');
    expect(await muller.locator('.preview').textContent()).toContain('Der Export bricht');
    expect(await muller.locator('time').getAttribute('title')).toMatch(/\(Europe\/Berlin\)$/);

    // U+202E in a name: the address and the choice after it stay in order, left to right.
    const rlo = row(page, 'mallory@example.com');
    const x = async (selector: string) => (await rlo.locator(selector).first().boundingBox())?.x ?? -1;
    const [name, reply, choice] = [await x('.title'), await x('a.reply'), await x('.choice')];
    expect(name).toBeLessThan(reply);
    expect(reply).toBeLessThan(choice);
    // Arabic reads from the right, within its own paragraph.
    const arabic = row(page, 'سارة').locator('.preview');
    expect(await arabic.evaluate(computed, 'direction')).toBe('rtl');
    await shot(page, 'list-en-light');

    await muller.locator('a.row-link').click();
    await page.getByRole('heading', { name: /^Submission of/ }).waitFor();
    await expect.poll(() => readFor(mara.token, ids['muller'] ?? '')).toBe(true);
    // Bo has not opened it: still unread for him.
    expect(await readFor(bo.token, ids['muller'] ?? '')).toBe(false);
    await shot(page, 'detail-en-light');
    await page.keyboard.press('u');
    await row(page, 'Jürgen Müller').waitFor();
    await expect
      .poll(async () => (await row(page, 'Jürgen Müller').getAttribute('class')) ?? '')
      .not.toContain('unread');

    await page.setViewportSize({ width: 320, height: 700 });
    await page.waitForTimeout(100);
    expect(await widest(page)).toBeLessThanOrEqual(320);
    await shot(page, 'list-en-light-320');
    await context.close();
  });

  it('Bo, in German and dark: filters by an option, oldest first, searches MÜLLER, assigns to Mara, exports', async () => {
    const { context, page } = await open('de-DE', 'dark');
    await signIn(page, bo.token, { token: 'Verwaltungs-Token', signIn: 'Anmelden' });
    await page.getByRole('row', { name: /Support requests/ }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('de');
    expect(await page.getByRole('columnheader', { name: 'Ungelesen' }).count()).toBe(1);
    // Dark follows the system: the page's background is dark.
    expect(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')).toBe(
      'rgb(21, 23, 26)',
    );
    await shot(page, 'overview-de-dark');

    await page.getByRole('link', { name: 'Support requests' }).click();
    await page.locator('.items li').first().waitFor();
    await page.getByLabel('Topic', { exact: true }).selectOption({ label: 'Something is broken' });
    await page.getByLabel('Reihenfolge').selectOption({ label: 'Älteste zuerst' });
    await page.getByRole('button', { name: 'Anwenden' }).click();
    await page.waitForURL(/o\.topic=bug.*sort=oldest|sort=oldest.*o\.topic=bug/);
    await expect
      .poll(() => page.locator('.total').textContent())
      .toMatch(/^\d+ Einsendungen gefunden · Älteste zuerst$/);
    const total = Number((await page.locator('.total').textContent())?.split(' ')[0]);
    expect(total).toBe(32);
    // Oldest first: the seed's oldest "bug" (Person 59) leads.
    expect(await page.locator('.items li').first().textContent()).toContain('Person 59');

    await page.getByLabel('Suche').fill('MÜLLER');
    await page.getByRole('button', { name: 'Anwenden' }).click();
    await expect.poll(() => page.locator('.items li').count()).toBe(1);
    // The option and the order stay chosen when the search is added.
    expect(await page.locator('.total').textContent()).toBe('1 Einsendung gefunden · Älteste zuerst');
    expect(await page.getByLabel('Topic', { exact: true }).inputValue()).toBe('bug');
    await shot(page, 'list-de-dark');

    await page.locator('.items a.row-link').first().click();
    await page.getByRole('heading', { name: /^Einsendung vom/ }).waitFor();
    await page.getByLabel('Zugewiesen an').selectOption({ label: 'Mara Rossi' });
    await page.locator('p.notice', { hasText: 'Zuweisung gespeichert.' }).waitFor();
    const stored = await site.t.store.db
      .selectFrom('submissions')
      .select('assignee_id')
      .where('id', '=', ids['muller'] ?? '')
      .executeTakeFirstOrThrow();
    expect(stored.assignee_id).toBe(mara.id);
    await expect.poll(() => page.locator('.activity').textContent()).toContain('zugewiesen an Mara Rossi');
    await shot(page, 'detail-de-dark');

    await page.keyboard.press('u');
    await page.locator('.items li').first().waitFor();
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'CSV' }).click();
    const csv = readFileSync(await (await csvDownload).path(), 'utf8');
    const [header, line] = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(
      'ID,Eingegangen (Europe/Berlin),Ordner,Status,Zugewiesen an,Seite,Sprache,Your name,Email,Topic,Newsletter,Message',
    );
    expect(line).toContain('Jürgen Müller');
    expect(line).toContain(',Mara Rossi,');
    expect(line).toContain('Something is broken');
    expect(line).toMatch(/,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},Posteingang,Neu,/);

    const xlsxDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Excel' }).click();
    const xlsx = await xlsxDownload;
    expect(xlsx.suggestedFilename()).toMatch(/^support-submissions-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await xlsx.path());
    const sheet = book.worksheets[0];
    expect((sheet?.getRow(1).values as unknown[]).slice(1, 6)).toEqual([
      'ID',
      'Eingegangen (Europe/Berlin)',
      'Ordner',
      'Status',
      'Zugewiesen an',
    ]);
    const rows = (sheet?.getSheetValues() ?? []).slice(2) as unknown[][];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.[1]).toBe(ids['muller']);
    expect(rows[0]?.[2]).toBeInstanceOf(Date);
    expect(rows[0]?.[5]).toBe('Mara Rossi');
    expect(rows[0]?.[10]).toBe('Something is broken');

    await page.setViewportSize({ width: 320, height: 700 });
    await page.waitForTimeout(100);
    expect(await widest(page)).toBeLessThanOrEqual(320);
    await shot(page, 'list-de-dark-320');
    // Mara finds it assigned to her by the person filter, not by typing a name.
    const hers = await fetch(
      `${site.base}/v1/spaces/${SPACE}/forms/${FORM}/submissions?assignee=${mara.id}`,
      { headers: { authorization: `Bearer ${mara.token}` } },
    );
    expect(((await hers.json()) as { total: number }).total).toBe(1);
    await context.close();
  });

  it('no dialog opened, no page error and no CSP violation on any page', () => {
    expect(problems).toEqual([]);
  });
});
