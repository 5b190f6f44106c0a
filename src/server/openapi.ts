import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Config } from '../config/config.js';
import { DELIVERY_SHARED_SCHEMAS } from '../delivery/schemas.js';
import { contractDocument } from './openapi-contract.js';
import {
  documentOnly,
  errorEnvelopeSchema,
  json,
  NO_SECURITY,
  S,
  SECURITY_SCHEMES,
} from '../lib/api-schema.js';

/** The document's tags, in the order a reader meets them. Every route names one or more (test/openapi.test.ts). */
export const OPENAPI_TAGS = [
  {
    name: 'delivery',
    description: 'Published content under /v1/<spaceId>: public and preview tokens, cached per cv.',
  },
  { name: 'search', description: 'Semantic search (spaces with AI switched on).' },
  { name: 'sync', description: 'What changed between two cache versions.' },
  { name: 'assets', description: 'Asset files and derived images; asset upload (management).' },
  { name: 'forms', description: 'Form definitions, submissions and uploads; form management.' },
  { name: 'inbox', description: 'Stored submissions: list, read, change, export, files, erasure.' },
  { name: 'management', description: 'The management API under /v1/spaces/<spaceId>: management tokens.' },
  {
    name: 'operations',
    description: 'Outside /v1, without a token: liveness, readiness, metrics; this document.',
  },
];

/** The package's version, for `info.version` ("1" when package.json cannot be read). */
function packageVersion(): string {
  try {
    // src/server/ and dist/server/ both sit two folders below the package root.
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const version = (pkg as { version?: unknown }).version;
    return typeof version === 'string' ? version : '1';
  } catch {
    return '1';
  }
}

type Params = { type: string; required?: string[]; properties?: Record<string, unknown> };

/** `/entries/by-path/*` is documented as `/entries/by-path/{path}`: OpenAPI names every path parameter. */
function wildcardAsPath({ schema, url }: { schema: FastifySchema; url: string }) {
  if (!url.endsWith('/*')) return { schema, url };
  const params = schema.params as Params | undefined;
  const { '*': wildcard, ...others } = params?.properties ?? {};
  const renamed: Params = {
    type: 'object',
    required: [...(params?.required ?? []).filter((n) => n !== '*'), 'path'],
    properties: { ...others, path: wildcard ?? { type: 'string' } },
  };
  return { schema: { ...schema, params: renamed }, url: `${url.slice(0, -1)}:path` };
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas, at `GET /v1/openapi.json`. Registered on the root
 * before any route (`@fastify/swagger` collects routes as they are added), with the schema compilers that keep
 * schemas documentation (src/lib/api-schema.ts): replies keep `JSON.stringify`, and nothing outside the
 * management API (which sets its own compiler for bodies) is validated by a schema.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  app.setValidatorCompiler(documentOnly);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addSchema(errorEnvelopeSchema);
  for (const schema of DELIVERY_SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio',
        version: packageVersion(),
        description:
          'Content delivery and forms. The reference with every decision and example is docs/api.md; errors are the envelope of spec 7.1 (`FolioError`).',
      },
      servers: [{ url: config.publicUrl }],
      tags: OPENAPI_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Shared schemas keep their `$id` as their name in components.schemas (`FolioError`).
    refResolver: {
      buildLocalReference: (schema, _baseUri, _fragment, i) =>
        typeof schema.$id === 'string' ? schema.$id : `def-${i}`,
    },
    stripBasePath: false,
    transform: wildcardAsPath,
    // operationIds, parameter constraints, 405, 429 headers and links.
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? contractDocument(documentObject.openapiObject)
        : documentObject.swaggerObject,
  });

  app.get(
    '/v1/openapi.json',
    {
      schema: {
        summary: 'This OpenAPI 3.1 document',
        description: 'Generated from the route schemas; no token. `Cache-Control: public, max-age=300`.',
        tags: ['operations'],
        security: NO_SECURITY,
        response: { 200: json('The OpenAPI 3.1 document.', S.anyObject) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return app.swagger();
    },
  );
}
