// Benchmarks run the compiled `dist/` that `npm start` runs, not Folio's sources through tsx: tsx compiles with
// esbuild's keepNames, which wraps every named function and arrow in a `__name(fn, 'name')` call as it is created,
// a cost on every closure made per request that the shipped build does not have. Loaded with `--import` after tsx
// (`npm run bench` and every bench server): the bench's own files still run through tsx, and any import that tsx
// resolves to a file under src/ is answered with its dist/ twin, so a process holds one copy of each module.
// dist/ is compiled first when a file under src/ is newer. `BENCH_FROM_SOURCE=1` leaves everything to tsx.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';

const root = join(import.meta.dirname, '..');

/** The newest modification time of the files under `dir` whose names end with `ext` (0 when there is none). */
function newest(dir, ext) {
  let max = 0;
  let entries = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0; // no dist/ yet
  }
  for (const entry of entries)
    if (entry.isFile() && entry.name.endsWith(ext))
      max = Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  return max;
}

if (process.env.BENCH_FROM_SOURCE !== '1') {
  if (newest(join(root, 'dist'), '.js') < newest(join(root, 'src'), '.ts')) {
    process.stderr.write('bench: dist/ is older than src/; compiling it (tsc -p tsconfig.build.json)\n');
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
  register('./lib-dist-resolve.mjs', import.meta.url);
}
