// GET /v1/<spaceId>/forms/<key>/drafts/<id>: the values of a failed plain post, for its ten minutes.

import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors/errors.js';
import { rejectUnknown } from '../../delivery/params.js';
import { deliveryRead, json, object, pathParams, S, SPACE_ID } from '../../lib/api-schema.js';
import type { Store } from '../../store/open-store.js';
import { readDraft } from './drafts.js';

type Params = { spaceId: string; key: string; id: string };

const draftSchema = deliveryRead({
  summary: 'Read back what a visitor typed before a plain form post failed',
  description:
    'The `draft=<id>` of an error redirect names the values a visitor typed into a form posted without JavaScript (no file fields). Every read within 10 minutes answers them (a reload of the error page shows them again); then the draft is gone. Never cached.',
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
      if (values === null) throw notFound('No such draft: it expired, or never existed.');
      return { values };
    },
  );
}
