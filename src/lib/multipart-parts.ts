// The parts of a multipart/form-data request (@fastify/multipart) as plain values, for the routes that take
// files (form uploads, assets). The parser's own failures are the client's: 415 or 400, never a 500.

import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { FolioError, invalidBody, unsupportedMediaType } from '../errors/errors.js';

export type MultipartPart =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | { kind: 'file'; name: string; filename: string; mimetype: string; stream: Readable };

/** What a route tells a client whose body is not its multipart (the messages differ, the codes do not). */
export interface MultipartMessages {
  /** Not multipart at all: 415. */
  unsupported: string;
  /** Malformed, too many parts, a prototype key: 400 `invalid_body`. */
  invalid: string;
}

export function multipartFailure(err: unknown, messages: MultipartMessages): FolioError {
  if (err instanceof FolioError) return err;
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return unsupportedMediaType(messages.unsupported);
  return invalidBody(messages.invalid);
}

/** The request's parts in order; a file part's stream must be read before the next part comes. */
export async function* multipartParts(
  request: FastifyRequest,
  messages: MultipartMessages,
): AsyncGenerator<MultipartPart> {
  const iterator = request.parts();
  while (true) {
    let next: Awaited<ReturnType<typeof iterator.next>>;
    try {
      next = await iterator.next();
    } catch (err) {
      throw multipartFailure(err, messages);
    }
    if (next.done) return;
    const p = next.value;
    if (p.type === 'file') {
      // busboy takes a part without a file name for a file when its type is not text/plain, and then gives
      // `filename` undefined whatever its type says: a nameless file, not a 500.
      const filename: unknown = p.filename;
      yield {
        kind: 'file',
        name: p.fieldname,
        filename: typeof filename === 'string' ? filename : '',
        mimetype: p.mimetype,
        stream: p.file,
      };
    } else {
      // A part sent as application/json arrives parsed; callers parse the text themselves, whichever way it came.
      const value = typeof p.value === 'string' ? p.value : JSON.stringify(p.value);
      yield { kind: 'field', name: p.fieldname, value, truncated: p.valueTruncated };
    }
  }
}
