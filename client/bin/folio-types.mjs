#!/usr/bin/env node
// folio-types: writes a TypeScript module of a space's content model (GET /types), for createClient<FolioTypes>().
//
//   npx folio-types --url http://127.0.0.1:3000 --space spc_… --token folio_pub_… --out src/folio-types.ts
//
// Options (or the environment): --url (FOLIO_URL), --space (FOLIO_SPACE), --token (FOLIO_TOKEN), --out (default:
// stdout), --cv (a pinned cv), --client (the module the types import, default @folio/client).

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateTypes } from '../dist/codegen.js';
import { createClient } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    space: { type: 'string' },
    token: { type: 'string' },
    out: { type: 'string' },
    cv: { type: 'string' },
    client: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    'usage: folio-types --url <folio> --space <spc_…> --token <token> [--out <file.ts>] [--cv <n>]',
  );
  process.exit(0);
}
const baseUrl = values.url ?? process.env.FOLIO_URL;
const spaceId = values.space ?? process.env.FOLIO_SPACE;
const token = values.token ?? process.env.FOLIO_TOKEN;
if (!baseUrl || !spaceId || !token) {
  console.error(
    'folio-types: --url, --space and --token (or FOLIO_URL, FOLIO_SPACE, FOLIO_TOKEN) are required',
  );
  process.exit(2);
}
const cv = values.cv === undefined ? undefined : Number(values.cv);
if (cv !== undefined && (!Number.isInteger(cv) || cv < 1)) {
  console.error(`folio-types: --cv is a positive integer, not ${values.cv}`);
  process.exit(2);
}

try {
  const current = createClient({ baseUrl, spaceId, token });
  // Everything at one cv: the model and its shared option lists agree.
  const model = await current.types(cv === undefined ? {} : { cv });
  const client = current.at(model.cv);
  const listKeys = new Set(model.types.flatMap((t) => t.fields.flatMap((f) => (f.list ? [f.list] : []))));
  const lists = {};
  for (const key of listKeys) {
    const { list } = await client.lists.get(key);
    lists[key] = list.options.map((o) => o.value);
  }
  // Menu keys type `menus.get` (an unknown key is 404); every menu, whatever the locale, has its key.
  const { menus } = await client.menus.all();
  const source = generateTypes({
    types: model.types,
    lists,
    menus: Object.keys(menus),
    clientModule: values.client,
    source: `space ${spaceId} at cv ${model.cv}`,
  });
  if (values.out === undefined) process.stdout.write(source);
  else {
    writeFileSync(values.out, source);
    console.error(`folio-types: wrote ${values.out} (${model.types.length} types, cv ${model.cv})`);
  }
} catch (err) {
  console.error(`folio-types: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
