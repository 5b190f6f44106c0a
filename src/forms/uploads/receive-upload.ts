// POST /forms/<key>/uploads (spec 2.14, 3.3, 4.4 rule 5, 7.3): one file for one file field of a form that uses
// Turnstile, cut off while streaming at min(10 MB, the field's maxSize), checked against `accept` and against its
// content, stored privately. No HTTP here: the route turns multipart parts into UploadPart values.

import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { BlobStore } from '../../blobs/blob-store.js';
import { defaultLocale, localeChain } from '../../content/locales.js';
import { newId } from '../../lib/ids.js';
import {
  type FolioError,
  invalidBody,
  invalidField,
  notFound,
  tooLarge as tooLargeError,
  turnstileFailed,
  turnstileRequired,
  validationFailed,
} from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { currentSpace } from '../delivery/current-space.js';
import { CONTROL_KEYS } from '../submission/controls.js';
import { KEY_FORMAT } from '../definition/index.js';
import type { FormSource } from '../delivery/form-source.js';
import { fieldError, type FieldError } from '../rules/codes.js';
import { type FormField, usesTurnstile } from '../rules/index.js';
import { checkStatus } from '../submission/submit.js';
import type { TurnstileVerifier } from '../submission/turnstile.js';
import { type ContentSniffer, acceptsSniffed } from '../../files/sniff.js';
import { FileTooLarge, SniffingLimit } from '../../files/sniff-stream.js';
import { completeUpload, deleteUploadRow, insertPendingUpload } from './uploads-repo.js';

/** spec 8: a file is at most 10 MB. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** spec 3.3: an upload no submission uses within one day is deleted. */
export const UNCLAIMED_UPLOAD_MS = 24 * 60 * 60_000;

export type UploadPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; mimetype: string; stream: Readable };

export interface UploadDeps {
  store: Store;
  blobs: BlobStore;
  forms: FormSource;
  turnstile: TurnstileVerifier;
}

export interface UploadRequest {
  spaceId: string;
  formKey: string;
  /** The multipart parts in order; a file part's stream must be read before the next part comes. */
  parts: AsyncIterable<UploadPart>;
  /** Used only for siteverify's `remoteip` (spec 2.13); never stored. */
  remoteIp: string;
  now: Date;
}

/** spec 2.14. */
export interface UploadResult {
  id: string;
  name: string;
  size: number;
  type: string;
}

/** The limit of a field: 10 MB, or its maxSize when smaller (spec 2.10, 8). */
export function fileLimitOf(field: Pick<FormField, 'maxSize'>): number {
  return Math.min(MAX_FILE_BYTES, field.maxSize ?? MAX_FILE_BYTES);
}

const fieldFailure = (key: string, error: FieldError): FolioError =>
  validationFailed('The file is not valid.', { details: { fields: { [key]: error } } });

/**
 * spec 7.2/7.3: a file over the limit is 413 `too_large`; `details.fields` carries the field code of 7.4
 * (`file_too_large` with `max`) so renderers show it next to the field as they show 422 field errors.
 */
export const tooLarge = (key: string, max: number): FolioError =>
  tooLargeError(`The file is larger than ${max} bytes.`, {
    details: { fields: { [key]: fieldError('file_too_large', { max }) } },
  });

/** A file name fit for display and a Content-Disposition header: no paths, no control characters, bounded. */
export function displayName(raw: string): string {
  // Browsers send `"` in multipart file names as %22 (WHATWG HTML "multipart/form-data encoding algorithm").
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/%22/g, '"');
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const clean = base.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, '').trim();
  return (clean === '' ? 'file' : clean).slice(0, 200);
}

interface Collected {
  field: FormField | null;
  token: string | undefined;
  stored: {
    id: string;
    name: string;
    size: number;
    blobKey: string;
    /** What was read of the file on its way to the blob store (its type is decided from it). */
    sniffer: ContentSniffer;
    declared: string;
  } | null;
}

export async function receiveUpload(deps: UploadDeps, req: UploadRequest): Promise<UploadResult> {
  const space = await currentSpace(deps.store, req.spaceId);
  const form =
    space && KEY_FORMAT.test(req.formKey) ? await deps.forms.load(space.id, req.formKey, space.cv) : null;
  if (!space || !form) throw notFound(`Form "${req.formKey}" not found.`);
  const def = form.definition;
  // Status first, as for submissions (spec 3.1): a closed form takes no files either.
  const locale = defaultLocale(space.settings);
  await checkStatus(deps.store, {
    space,
    form,
    locale,
    chain: localeChain(space.settings, locale),
    now: req.now,
  });
  // spec 4.4 rule 5: only forms with Turnstile take files (checked before any byte is read).
  if (!usesTurnstile(def.settings))
    throw turnstileRequired('This form does not use Turnstile, so it takes no files.');

  const got: Collected = { field: null, token: undefined, stored: null };
  try {
    for await (const part of req.parts) {
      if (part.kind === 'field') {
        if (part.name === 'field') got.field = fileField(def.fields, part.value);
        else if (part.name === CONTROL_KEYS.turnstile) got.token = part.value;
        continue;
      }
      if (part.name !== 'file' || got.stored) {
        part.stream.resume();
        continue;
      }
      if (!got.field) throw invalidBody('Send the "field" part before the "file" part.');
      got.stored = await store(deps, space.id, def.key, got.field, part, req.now);
    }
    if (!got.field) throw invalidField('Name a file field of this form in "field".');
    const stored = got.stored;
    if (!stored) throw invalidBody('The request has no "file" part.');

    const field = got.field;
    // spec 4.4 rule 5: decided from the whole file (SVG and XML read through), before it is accepted.
    const sniffed = await stored.sniffer.outcome(stored.declared);
    if (!sniffed.ok)
      throw fieldFailure(field.key, {
        ...fieldError('invalid_file'),
        message: `This file is not valid: ${sniffed.reason}.`,
      });
    if (!acceptsSniffed(field.accept, sniffed, stored.name))
      throw fieldFailure(field.key, fieldError('file_type', { accept: (field.accept ?? []).join(', ') }));
    // Verified last, as for submissions, so a rejected file does not spend the visitor's single-use token.
    const outcome = await deps.turnstile.verify(def.settings.turnstileSecret ?? '', got.token, req.remoteIp);
    if (!outcome.ok) throw turnstileFailed();
    await completeUpload(deps.store.db, stored.id, stored.size, sniffed.type);
    return { id: stored.id, name: stored.name, size: stored.size, type: sniffed.type };
  } catch (err) {
    if (got.stored) await discard(deps, got.stored);
    throw err;
  }
}

/** spec 4.4 "invalid_field": the named field must be a file field of this form. */
function fileField(fields: readonly FormField[], key: string): FormField {
  const field = fields.find((f) => f.key === key && f.type === 'file');
  if (!field) throw invalidField(`"${key.slice(0, 100)}" is not a file field of this form.`);
  return field;
}

async function store(
  deps: UploadDeps,
  spaceId: string,
  formKey: string,
  field: FormField,
  part: Extract<UploadPart, { kind: 'file' }>,
  now: Date,
): Promise<NonNullable<Collected['stored']>> {
  const id = newId('fup');
  const blobKey = `uploads/${spaceId}/${id}`;
  const name = displayName(part.filename);
  // The row comes first: if this process dies while the bytes stream in, the row expires and the sweep removes
  // whatever was written (nothing half-written is left behind for long, and never claimable: type is empty).
  await insertPendingUpload(deps.store.db, {
    id,
    spaceId,
    formKey,
    fieldKey: field.key,
    name,
    blobKey,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + UNCLAIMED_UPLOAD_MS).toISOString(),
  });
  const max = fileLimitOf(field);
  const inspect = new SniffingLimit(max);
  try {
    // pipeline() ties the two: a client that goes away mid-file fails the store's write, and our cut-off stops
    // reading the part. The store's put reports the error; this callback only keeps it from being unhandled.
    const source = pipeline(part.stream, inspect, () => {});
    await deps.blobs.put(blobKey, source, { contentType: 'application/octet-stream' });
    // The parser cuts a file off at its own limit (just above ours) and ends the stream: never accept a cut file.
    if ((part.stream as Readable & { truncated?: boolean }).truncated === true) throw new FileTooLarge();
  } catch (err) {
    part.stream.destroy();
    await discard(deps, { id, blobKey });
    if (err instanceof FileTooLarge) throw tooLarge(field.key, max);
    throw err;
  }
  return {
    id,
    name,
    size: inspect.size,
    blobKey,
    sniffer: inspect.sniffer,
    declared: part.mimetype,
  };
}

async function discard(deps: UploadDeps, stored: { id: string; blobKey: string }): Promise<void> {
  await deps.blobs.delete(stored.blobKey);
  await deleteUploadRow(deps.store.db, stored.id);
}
