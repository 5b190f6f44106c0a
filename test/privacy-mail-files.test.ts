import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepRetention } from '../src/forms/retention/sweeps.js';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { mailFileName, mailTempName, submissionOfMailFile } from '../src/forms/notify/mail-files.js';
import { messageIdFor } from '../src/forms/notify/message-id.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { drainJobs, submittedId } from './helpers/jobs.js';

// Without SMTP_URL, notification email is written to DATA_DIR/outbox-mail as .eml files holding the
// visitor's name, address and answers. They are part of the store: erase, retention and the inbox's delete remove
// them with the submission, and the sweep removes any whose submission is gone.

const DAY = 86_400_000;
const mgt = { authorization: `Bearer ${TOKENS.management}` };

describe('mail file names', () => {
  it('name the submission they were written for, and nothing else', () => {
    const from = 'Folio <forms@folio.test>';
    for (const job of ['sub_Ab9.mail.0123456789abcdef', 'sub_Ab9.chat', 'sub_Ab9.confirmation']) {
      const name = mailFileName(new Date(), messageIdFor(job, from));
      expect([name, submissionOfMailFile(name), submissionOfMailFile(mailTempName(name))]).toEqual([
        name,
        'sub_Ab9',
        'sub_Ab9',
      ]);
    }
    for (const other of ['README.txt', 'sub_Ab9.eml', '2026-01-01T00-00-00-000Z-sub_Ab9.eml.bak'])
      expect(submissionOfMailFile(other)).toBeNull();
  });
});

describe.each(ENGINES)('.eml files of submissions on %s', (engine) => {
  let t: FormsApp;
  let runner: JobRunner;
  const { submit } = formClient(() => t);
  const mails = () => readdirSync(t.config.mail.outboxDir).sort();
  const mailsOf = (sub: string) => mails().filter((n) => submissionOfMailFile(n) === sub);

  /** Submits and runs the notification jobs: one .eml file to the owner. */
  async function mailed(email: string): Promise<string> {
    const sub = await submittedId(t.store, submit, 'mailed', { email });
    await drainJobs(t.store, runner);
    expect(mailsOf(sub)).toHaveLength(1);
    return sub;
  }

  beforeAll(async () => {
    t = await openFormsApp(engine, { worker: false });
    t.clock.current = new Date();
    expect(t.config.mail.smtpUrl).toBeNull();
    await putForms(t, 'spc_test', [emailForm('mailed', { retentionDays: 1, notify: ['owner@example.com'] })]);
    runner = createJobRunner({ store: t.store, blobs: t.blobs, config: t.config });
  });
  afterAll(async () => t.close());

  it('erase deletes the files of the erased submissions, and only theirs', async () => {
    const ada = await mailed('ada@example.com');
    const bob = await mailed('bob@example.com');
    const res = await t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/forms/erase',
      payload: { email: 'ada@example.com' },
      headers: mgt,
    });
    expect([res.status, res.body.submissions]).toEqual([200, 1]);
    expect(mailsOf(ada)).toEqual([]);
    expect(mailsOf(bob)).toHaveLength(1);
  });

  it("the inbox's delete deletes them", async () => {
    const sub = await mailed('carol@example.com');
    const res = await t.inject({
      method: 'DELETE',
      url: `/v1/spaces/spc_test/forms/mailed/submissions/${sub}`,
      headers: mgt,
    });
    expect(res.status).toBe(200);
    expect(mailsOf(sub)).toEqual([]);
  });

  it('a sweep deletes the files of a submission gone behind its back, and leaves other files alone', async () => {
    const sub = await mailed('dora@example.com');
    // What a file written while its submission was being erased, or one another machine's erase could not reach, is.
    await t.store.db.deleteFrom('submissions').where('id', '=', sub).execute();
    writeFileSync(join(t.config.mail.outboxDir, 'README.txt'), 'the operator’s own file');
    const counts = await sweepRetention(
      t.store,
      { blobs: t.blobs, mailDir: t.config.mail.outboxDir },
      new Date(),
    );
    expect(counts).toMatchObject({ submissions: 0, mailFiles: 1 });
    expect(mailsOf(sub)).toEqual([]);
    expect(mails()).toContain('README.txt');
  });

  it('retention deletes them with the submission', async () => {
    const sub = await mailed('erin@example.com');
    const later = createJobRunner(
      { store: t.store, blobs: t.blobs, config: t.config },
      { clock: () => new Date(Date.now() + 2 * DAY) },
    );
    later.start();
    await later.stop();
    expect(await t.store.db.selectFrom('submissions').select('id').execute()).toEqual([]);
    expect(mailsOf(sub)).toEqual([]);
    expect(mails()).toEqual(['README.txt']);
  });
});
