import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { PROCESS_TEST_MS } from '../helpers/processes.js';
import { FORM, type InboxSite, PDF, SPACE, startInboxSite, XSS_NAME, XSS_PAGE } from './inbox-site.js';

// In real Chromium: the inbox page served by the app, signed in with a management token, used as a form
// owner would (overview, list, filters, search, a submission, a note, bulk "done", CSV and file downloads, erase's
// dry run, sign-out), and its defences: submitted markup and a `javascript:` page render as inert text (no dialog,
// no CSP report), a cross-site form post is refused, a token without forms.read sees no submission, a revoked
// token's session ends. Screenshots go to test-output/inbox-*.png.

let browser: Browser;
let site: InboxSite;
const dialogs: string[] = [];
const cspReports: string[] = [];

beforeAll(async () => {
  site = await startInboxSite();
  browser = await launchChromium();
  mkdirSync('test-output', { recursive: true });
}, PROCESS_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(width = 1280, height = 900): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m: ConsoleMessage) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) cspReports.push(m.text());
  });
  page.on('pageerror', (e) => cspReports.push(`page error: ${e.message}`));
  return { context, page };
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${site.base}/inbox/`);
  await page.getByLabel('Management token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Forms', exact: true }).waitFor();
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-output/inbox-${name}.png`, fullPage: true });

describe('the inbox in Chromium', { timeout: PROCESS_TEST_MS }, () => {
  it('is a page with a strict CSP, served from the app, the token kept out of page storage', async () => {
    const res = await fetch(`${site.base}/inbox/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/<style|style=/);
  });

  it('signs in, shows the overview, a form, filters, search, load more, a submission and its note', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.admin);
    const storage = await page.evaluate(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie',
    );
    expect(storage).not.toContain(site.tokens.admin);
    // HttpOnly: the page's script cannot read the cookie.
    expect(String(storage)).not.toContain('folio_inbox');

    const row = page.getByRole('row', { name: /Support requests/ });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/open/);
    await shot(page, 'overview-1280');

    await page.getByRole('link', { name: 'Support requests' }).click();
    await page.getByRole('heading', { name: 'Support requests' }).waitFor();
    await page.locator('.items li').first().waitFor();
    expect(await page.locator('.items li').count()).toBe(50);
    await shot(page, 'list-1280');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.locator('.items li').count()).toBe(57);

    await page.getByLabel('Search').fill('Grace');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('.items li').count()).toBe(1);
    expect(await page.locator('.items li').first().textContent()).toContain('Grace Hopper');
    await page.getByRole('link', { name: 'Clear' }).click();
    await page.getByLabel('Status', { exact: true }).selectOption('new');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=new/);
    await expect.poll(() => page.locator('.items li').count()).toBe(50);
    await page.getByRole('link', { name: 'Clear' }).click();

    // One submission: labels of its form version (the option's label, Yes/No), page, language.
    await page.locator('.items a', { hasText: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: /^Submission of/ }).waitFor();
    const answers = page.locator('.answers');
    await expect.poll(() => answers.textContent()).toContain('Something is broken');
    expect(await answers.textContent()).toContain('Your name');
    expect(await answers.textContent()).toMatch(/NewsletterYes/);
    await page.getByLabel('New note').fill('Called her back.');
    await page.getByLabel('Your name').fill('Bo');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('.notes li', { hasText: 'Called her back.' }).waitFor();
    await expect.poll(() => page.locator('.activity').textContent()).toContain('Note added');
    await shot(page, 'detail-1280');
    // A note deleted: gone from the thread, recorded in the activity.
    await page.getByLabel('New note').fill('A mistake.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('button', { name: 'Delete the note by Bo' }).nth(1).click();
    await expect.poll(() => page.locator('.notes li').count()).toBe(1);
    await expect.poll(() => page.locator('.activity').textContent()).toContain('Note deleted');
    await context.close();
  });

  it('renders submitted markup and a javascript: page as inert text', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.admin);
    await page.goto(`${site.base}/inbox/#/f/${FORM}/s/${site.xssId}`);
    const answers = page.locator('.answers');
    await expect.poll(() => answers.textContent()).toContain(XSS_NAME);
    expect(await answers.textContent()).toContain('<script>alert(2)</script>');
    expect(await page.locator('.answers img, .answers script').count()).toBe(0);
    expect(await page.locator('.page-text').textContent()).toBe(XSS_PAGE);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    // The list shows it as text too.
    await page.goto(`${site.base}/inbox/#/f/${FORM}?q=onerror`);
    await expect.poll(() => page.locator('.items li').first().textContent()).toContain(XSS_NAME);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('selects several and marks them done in one go; downloads the CSV export and a file', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.admin);
    await page.goto(`${site.base}/inbox/#/f/${FORM}`);
    await page.locator('.items li').first().waitFor();
    const boxes = page.locator('.items input[type=checkbox]');
    for (const i of [1, 2, 3]) await boxes.nth(i).check();
    const ids = await page
      .locator('.items li')
      .evaluateAll((els) =>
        els.slice(1, 4).map((el) => el.querySelector('input')?.id.replace('sel-', '') ?? ''),
      );
    await page.getByLabel('Status for the selected').selectOption('done');
    await expect
      .poll(() => page.locator('[role=status]').first().textContent())
      .toContain('3 submissions marked Done');
    const rows = await site.t.store.db
      .selectFrom('submissions')
      .select(['id', 'status'])
      .where('id', 'in', ids)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done']);

    const csv = page.waitForEvent('download');
    await page.getByRole('link', { name: 'CSV' }).click();
    const csvFile = await (await csv).path();
    const text = readFileSync(csvFile, 'utf8');
    // Headed in words (the labels of the form), times in the space's zone.
    expect(text.split('\r\n')[0]).toContain(
      'ID,Received (Europe/Berlin),Folder,Status,Assigned to,Page,Language,Your name,Email,Topic',
    );
    expect(text).toContain('Grace Hopper');

    await page.goto(`${site.base}/inbox/#/f/${FORM}/s/${site.fileSubmission}`);
    const file = page.waitForEvent('download');
    await page.getByRole('link', { name: /Download file/ }).click();
    const download = await file;
    expect(download.suggestedFilename()).toBe('report.pdf');
    expect(readFileSync(await download.path()).equals(PDF)).toBe(true);
    await context.close();
  });

  it('moves with j/k, marks done with e, shows help on ?', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.admin);
    await page.goto(`${site.base}/inbox/#/f/${FORM}?status=new`);
    await page.locator('.items li').first().waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await page.locator('.items li.current a.row-link').getAttribute('id')).toBe('row-1');
    await page.keyboard.press('o');
    await page.getByRole('heading', { name: /^Submission of/ }).waitFor();
    await page.keyboard.press('e');
    await expect.poll(() => page.getByLabel('Status', { exact: true }).inputValue()).toBe('done');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    // Inside a field the letters are typed, not obeyed.
    await page.getByLabel('New note').fill('');
    await page.getByLabel('New note').press('j');
    expect(await page.getByLabel('New note').inputValue()).toBe('j');
    await context.close();
  });

  it('reaches every control of the list and of a submission with Tab', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.admin);
    /** What Tab reaches from the top of the page, as `tag#id` or `tag:text`, in order. */
    const tabStops = async (count: number): Promise<string[]> => {
      // From the first stop of the page: the skip link.
      await page.locator('.skip').focus();
      const stops: string[] = [];
      for (let i = 0; i < count; i++) {
        await page.keyboard.press('Tab');
        stops.push(
          String(
            await page.evaluate(
              `(() => { const e = document.activeElement; return e.tagName.toLowerCase() + (e.id ? '#' + e.id : ':' + (e.textContent || '').trim().slice(0, 20)); })()`,
            ),
          ),
        );
      }
      return stops;
    };
    await page.goto(`${site.base}/inbox/#/f/${FORM}`);
    await page.locator('.items li').first().waitFor();
    await page.locator('.items input[type=checkbox]').first().check();
    const list = await tabStops(40);
    for (const stop of [
      'input#f-q',
      'select#f-status',
      'input#f-from',
      'input#f-to',
      'select#f-assignee',
      'input#f-unassigned',
      'button:Apply',
      'a:CSV',
      'a:NDJSON',
      'input#select-all',
      'select#bulk-status',
      'select#bulk-assign',
      'button:Spam',
      'button:Delete…',
      'a#row-0',
    ])
      expect(
        list.some((s) => s.startsWith(stop)),
        `${stop} in ${list.join(' ')}`,
      ).toBe(true);
    await page.goto(`${site.base}/inbox/#/f/${FORM}/s/${site.fileSubmission}`);
    await page.locator('.answers dl').waitFor();
    const detail = await tabStops(30);
    for (const stop of [
      'a:Download file fup_',
      'select#d-status',
      'select#d-assignee',
      'textarea#n-text',
      'input#n-author',
      'button:Add note',
    ])
      expect(
        detail.some((s) => s.startsWith(stop)),
        `${stop} in ${detail.join(' ')}`,
      ).toBe(true);
    await context.close();
  });

  it('shows new submissions without a reload, announced politely', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.admin);
    await page.goto(`${site.base}/inbox/#/f/${FORM}`);
    await page.locator('.items li').first().waitFor();
    site.t.clock.current = new Date(Date.now());
    const res = await fetch(`${site.base}/v1/${SPACE}/forms/${FORM}/submissions`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer folio_pub_TestPublicToken000000000001',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Katherine Johnson', email: 'kj@example.com' }),
    });
    expect(res.status).toBe(200);
    await page.locator('.items li', { hasText: 'Katherine Johnson' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('[aria-live=polite]').first().textContent()).toContain(
      '1 new submission arrived',
    );
    await context.close();
  });

  it('draws the charts, with tables for screen readers; runs an erase dry run; signs out', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.admin);
    await page.getByRole('link', { name: 'Charts' }).click();
    await page.getByRole('img', { name: /Submissions per day per form/ }).waitFor();
    expect(await page.locator('details table').first().locator('tbody tr').count()).toBe(30);
    await page.locator('summary', { hasText: 'Submissions per day as a table' }).click();
    await shot(page, 'chart-1280');
    await page.getByRole('link', { name: '90 days' }).click();
    await expect.poll(() => page.locator('details table').first().locator('tbody tr').count()).toBe(90);

    await page.getByRole('link', { name: 'Erase' }).click();
    await page.getByLabel('Email address').fill('grace@example.com');
    await page.getByRole('button', { name: 'Count submissions' }).click();
    await expect
      .poll(() => page.locator('.dry-run').textContent())
      .toContain('1 submission and 0 files would be deleted');
    await page.getByRole('button', { name: /Erase 1 submission/ }).click();
    await page.getByRole('dialog', { name: 'Erase for good?' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    const kept = await site.t.store.db
      .selectFrom('submissions')
      .select('id')
      .where('values', 'like', '%grace@example.com%')
      .execute();
    expect(kept).toHaveLength(1);

    const cookies = await context.cookies();
    const cookie = cookies.find((c) => c.name === 'folio_inbox');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Management token').waitFor();
    const after = await fetch(`${site.base}/v1/spaces/${SPACE}/forms-overview`, {
      headers: { cookie: `folio_inbox=${cookie?.value ?? ''}` },
    });
    expect(after.status).toBe(401);
    await context.close();
  });

  it('at 375 and 320 px: overview, list, submission and chart fit the phone', async () => {
    const { context, page } = await open(375, 800);
    await signIn(page, site.tokens.admin);
    await page.getByRole('row', { name: /Support requests/ }).waitFor();
    await shot(page, 'overview-375');
    await page.goto(`${site.base}/inbox/#/f/${FORM}`);
    await page.locator('.items li').first().waitFor();
    await shot(page, 'list-375');
    await page.goto(`${site.base}/inbox/#/f/${FORM}/s/${site.fileSubmission}`);
    await page.locator('.answers dl').waitFor();
    await shot(page, 'detail-375');
    await page.goto(`${site.base}/inbox/#/charts`);
    await page.getByRole('img', { name: /Submissions per day per form/ }).waitFor();
    await shot(page, 'chart-375');
    // Nothing wider than the screen, down to 320 px.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of ['#/', `#/f/${FORM}`, `#/f/${FORM}/s/${site.fileSubmission}`, '#/charts', '#/erase']) {
      await page.goto(`${site.base}/inbox/${path}`);
      await page.locator('main h1').first().waitFor();
      await page.waitForTimeout(200);
      expect([path, await page.evaluate('document.documentElement.scrollWidth')]).toEqual([path, 320]);
    }
    await context.close();
  });

  it('refuses a cross-site form post', async () => {
    const { context, page } = await open();
    await page.goto(site.evil);
    const answer = page.waitForResponse((r) => r.url().endsWith('/inbox/session'));
    await page.click('#go');
    const res = await answer;
    expect(res.status()).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'forbidden' } });
    expect((await context.cookies()).find((c) => c.name === 'folio_inbox')).toBeUndefined();
    await context.close();
  });

  it('a token without forms.read sees no submission', async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.writerOnly);
    await page.getByRole('heading', { name: 'No submissions for this token' }).waitFor();
    expect(await page.getByRole('link', { name: 'Charts' }).count()).toBe(0);
    const status = await page.evaluate(
      `fetch('/v1/spaces/${SPACE}/forms/${FORM}/submissions').then((r) => r.status)`,
    );
    expect(status).toBe(403);
    await page.goto(`${site.base}/inbox/#/f/${FORM}`);
    await page.getByRole('heading', { name: 'No submissions for this token' }).waitFor();
    expect(await page.locator('.items li').count()).toBe(0);
    await context.close();
  });

  it("a revoked token's session ends", async () => {
    const { context, page } = await open();
    await signIn(page, site.tokens.revocable);
    await page.getByRole('row', { name: /Support requests/ }).waitFor();
    const session = (await page.evaluate(`fetch('/inbox/session').then((r) => r.json())`)) as {
      session: { token: { id: string } };
    };
    const revoke = await fetch(`${site.base}/v1/spaces/${SPACE}/tokens/${session.session.token.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${site.tokens.admin}` },
    });
    expect(revoke.status).toBe(200);
    await page.getByRole('link', { name: 'Support requests' }).click();
    await page.getByText('Your session has ended. Sign in again.').waitFor();
    await context.close();
  });

  it('no dialog opened and no CSP violation was reported on any page', () => {
    expect(dialogs).toEqual([]);
    expect(cspReports).toEqual([]);
  });
});
