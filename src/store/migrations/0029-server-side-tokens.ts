import type { Kysely } from 'kysely';

/**
 * `tokens.server_side`: a public token made for a site's server (server-side rendering), set when the token is
 * created. Only such a token may name its visitor in `Folio-Visitor-Ip`; a browser can copy any token a page
 * carries, so a claim from every other token is ignored. 0 (no) for every existing token.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0029ServerSideTokens(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tokens')
    .addColumn('server_side', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
