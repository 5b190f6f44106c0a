/**
 * `npm run bench -- <name> [args]`: runs bench/<name>.ts, whose default export does the measuring and prints
 * the figures beside a baseline measured in the same run. Benchmarks are not tests: they assert nothing.
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

const here = dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !['run.ts'].includes(f) && !f.startsWith('lib-'))
  .map((f) => f.slice(0, -3));
const [name, ...args] = process.argv.slice(2);
if (!name || !names.includes(name)) {
  console.error(`Usage: npm run bench -- <${names.join('|')}>`);
  process.exit(2);
}
const mod = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<void> };
await mod.default(args);
process.exit(0);
