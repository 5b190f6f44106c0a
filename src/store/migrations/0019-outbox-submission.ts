import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Outbox rows name the submission they are about: `submission_id` on the `form.submitted` event,
 * the webhook deliveries it fans out to and the notification jobs, so that retention, erase and the inbox's delete
 * remove them with the submission (an indexed delete, not a scan of every payload). Those rows carry ids from now
 * on, never answers: the visitor's values, page and language of a `form.submitted` are read from the stored
 * submission when each webhook is sent.
 *
 * Rows written before: their submission is copied out of the payload, and the answers (`values`, `page`,
 * `locale`) are removed from it; webhooks still pending read them at send time like new ones.
 *
 * Frozen: spells out its own SQL per engine and never calls repository code.
 */
export async function up0019OutboxSubmission(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('submission_id', 'text').execute();
  await sql`create index outbox_submission on outbox (submission_id) where submission_id is not null`.execute(
    db,
  );
  if (engine === 'postgres') {
    await sql`update outbox set submission_id = payload #>> '{data,submissionId}',
        payload = payload #- '{data,values}' #- '{data,page}' #- '{data,locale}'
      where kind = 'event' and payload ->> 'type' = 'form.submitted'`.execute(db);
    await sql`update outbox set submission_id = payload #>> '{event,data,submissionId}',
        payload = payload #- '{event,data,values}' #- '{event,data,page}' #- '{event,data,locale}'
      where kind = 'webhook' and payload #>> '{event,type}' = 'form.submitted'`.execute(db);
    await sql`update outbox set submission_id = payload ->> 'submissionId'
      where kind like 'notify.%' and jsonb_typeof(payload -> 'submissionId') = 'string'`.execute(db);
    return;
  }
  // SQLite keeps the payload as JSON text; json_valid first, so a row that is not JSON is left alone.
  await sql`update outbox set submission_id = json_extract(payload, '$.data.submissionId'),
      payload = json_remove(payload, '$.data.values', '$.data.page', '$.data.locale')
    where kind = 'event' and json_valid(payload) and json_extract(payload, '$.type') = 'form.submitted'`.execute(
    db,
  );
  await sql`update outbox set submission_id = json_extract(payload, '$.event.data.submissionId'),
      payload = json_remove(payload, '$.event.data.values', '$.event.data.page', '$.event.data.locale')
    where kind = 'webhook' and json_valid(payload) and json_extract(payload, '$.event.type') = 'form.submitted'`.execute(
    db,
  );
  await sql`update outbox set submission_id = json_extract(payload, '$.submissionId')
    where kind like 'notify.%' and json_valid(payload) and json_type(payload, '$.submissionId') = 'text'`.execute(
    db,
  );
}
