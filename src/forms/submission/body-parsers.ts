import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidBody } from '../../errors/errors.js';
import { storableText } from './controls.js';
import { formDataToRecord } from '../rules/index.js';
import type { FormEntry } from '../rules/index.js';

/** spec 4.4 / 8: a submission body is at most 64 KB, whatever its encoding (files in multipart included). */
export const MAX_BODY_BYTES = 64 * 1024;

/** A parsed submission: the body's values, and how they came (plain HTML posts are the form encodings). */
export interface SubmissionBody {
  encoding: 'json' | 'urlencoded' | 'multipart';
  /** A parsed JSON object, or a prototype-less record of form data (repeated names and `name[]` as lists). */
  values: Record<string, unknown>;
}

const reviver = (_key: string, value: unknown): unknown =>
  typeof value === 'string' ? storableText(value) : value;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Replaces the content-type parsers in the submission route's scope (spec 4.4, 7.2): JSON objects,
 * urlencoded and multipart form data, each within 64 KB (413 `too_large`); anything else 415; unparsable 400.
 * JSON is parsed with JSON.parse, which makes `__proto__` an own key, never a prototype; form data lands in
 * prototype-less records; and only keys of the form's fields are ever read afterwards.
 */
export function registerSubmissionParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const opts = { parseAs: 'string', bodyLimit: MAX_BODY_BYTES } as const;

  app.addContentTypeParser<string>('application/json', opts, (_request, body, done) => {
    let value: unknown;
    try {
      value = JSON.parse(body, reviver);
    } catch {
      done(invalidBody('The request body is not valid JSON.'), undefined);
      return;
    }
    if (!isObject(value)) done(invalidBody('The request body must be a JSON object.'), undefined);
    else done(null, { encoding: 'json', values: value } satisfies SubmissionBody);
  });

  app.addContentTypeParser<string>('application/x-www-form-urlencoded', opts, (_request, body, done) => {
    const pairs = [...new URLSearchParams(body)].map(([k, v]): FormEntry => [k, storableText(v)]);
    const values = formDataToRecord(pairs);
    done(null, { encoding: 'urlencoded', values } satisfies SubmissionBody);
  });

  app.addContentTypeParser<Buffer>(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES },
    async (request: FastifyRequest, body: Buffer): Promise<SubmissionBody> => {
      let form: FormData;
      try {
        // The platform's multipart parser (undici); the body is already bounded to 64 KB.
        const headers = { 'content-type': request.headers['content-type'] ?? '' };
        form = await new Response(body, { headers }).formData();
      } catch {
        throw invalidBody('The request body is not valid multipart form data.');
      }
      const entries: FormEntry[] = [];
      // spec 4.4: files in multipart are ignored (file fields carry upload ids).
      for (const [name, value] of form)
        if (typeof value === 'string') entries.push([name, storableText(value)]);
      return { encoding: 'multipart', values: formDataToRecord(entries) };
    },
  );
}
