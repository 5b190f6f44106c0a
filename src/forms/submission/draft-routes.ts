// GET /v1/<spaceId>/forms/<key>/drafts/<id> (issue 30 item 1): the values of a failed plain post, read once.

import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors/errors.js';
import { rejectUnknown } from '../../delivery/params.js';
import { deliveryRead, json, object, pathParams, S, SPACE_ID } from '../../lib/api-schema.js';
import type { Store } from '../../store/open-store.js';
import { readDraft } from './drafts.js';

type Params = { spaceId: string; key: string; id: string };

const draftSchema = deliveryRead({
  summary: 'Read back what a visitor typed before a plain form post failed (once)',
  description:
    'The `draft=<id>` of an error redirect names the values a visitor typed into a form posted without JavaScript (no file fields). The first read answers them and deletes them; a draft is gone after 10 minutes in any case. Never cached.',
  tags: ['delivery', 'forms'],
  params: pathParams({
    spaceId: SPACE_ID,
    key: "The form's key.",
    id: 'The `draft` of the redirect: `drf_…`.',
  }),
  response: {
    200: json(
      'The kept values by field key: strings, lists of strings (checkboxes), `true` for ticked boxes.',
      object({ values: S.anyObject }),
    ),
  },
});

export async function draftRoutes(
  app: FastifyInstance,
  opts: { store: Store; clock: () => Date },
): Promise<void> {
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/v1/:spaceId/forms/:key/drafts/:id',
    { config: { delivery: 'read', cache: false }, schema: draftSchema },
    async (request, reply) => {
      rejectUnknown(request.query, []);
      const { spaceId, key, id } = request.params;
      const values = await readDraft(opts.store, { spaceId, formKey: key, id }, opts.clock());
      reply.header('cache-control', 'no-store');
      if (values === null) throw notFound('No such draft: it was read already, expired, or never existed.');
      return { values };
    },
  );
}
