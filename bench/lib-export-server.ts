/**
 * The server side of `npm run bench -- export`, in a child process of its own so its memory is its own:
 *   lib-export-server.ts folio <dataDir> [<postgres schema>]   Folio over a store the bench filled
 *   lib-export-server.ts bare <rows>                           bare Fastify streaming <rows> generated rows
 * Both answer `GET /__bench/memory[?reset=1]` with `{ rssMb, peakMb }`: RSS now, and the peak (VmHWM) since the
 * last reset. A reset collects garbage first and then resets VmHWM (`/proc/self/clear_refs` 5), so a peak
 * measured after it is the download's, not start-up's. Prints `{ port, peakReset }` when listening; on SIGTERM
 * prints `{ maxRssMb, cpuMs }` and exits.
 */
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { openRuntime } from '../src/cli/runtime.js';
import { planColumns } from '../src/forms/export/columns.js';
import {
  csvHeader,
  csvLine,
  type ExportLayout,
  type ExportRow,
  ndjsonLine,
} from '../src/forms/export/formats.js';
import { EXPORT_WORDS, fieldLabels } from '../src/forms/export/labels.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/config/config.js';
import { benchValues, EXPORT_BUNDLE } from './lib-export-space.js';
import { peakRssMb } from './lib-peak-rss.js';
import { serveBenchChild } from './lib-serve.js';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false where that is not possible. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** The largest V8 heap in use since the last reset, sampled: garbage not yet collected is part of the peak. */
let heapPeak = 0;
setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 10).unref();

async function listen(app: FastifyInstance, onStop: () => Promise<unknown>): Promise<void> {
  app.get<{ Querystring: { reset?: string } }>('/__bench/memory', async (request) => {
    if (request.query.reset === '1') {
      gc();
      gc();
      resetPeak();
      heapPeak = 0;
    }
    const heap = process.memoryUsage().heapUsed;
    return {
      rssMb: mb(process.memoryUsage.rss()),
      peakMb: peakRssMb(),
      heapMb: mb(heap),
      heapPeakMb: mb(heapPeak),
    };
  });
  await serveBenchChild(app, { peakReset: resetPeak() }, async () => {
    await onStop();
  });
}

async function folio(dataDir: string, schema: string | undefined): Promise<void> {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    FOLIO_DEMO: 'false',
    FOLIO_WORKER: 'false',
    ...(schema === undefined ? { DATABASE_URL: '' } : { DATABASE_SCHEMA: schema }),
  });
  const rt = await openRuntime(config);
  const app = await buildApp(rt);
  await listen(app, async () => {
    await app.close();
    await rt.close();
  });
}

/**
 * The baseline: the same rows (same values, same encoders, so the same bytes per row) made in memory and
 * streamed in chunks of 500 like the export, so the difference to Folio is reading them from the store.
 */
async function bare(rows: number): Promise<void> {
  const app = Fastify({
    logger: { level: 'warn' },
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 },
    logController: new LogController({ disableRequestLogging: true }),
  });
  const fields = EXPORT_BUNDLE.forms[0]?.fields.map((f) => f.key) ?? [];
  // The export's default layout: headings and options in words, times in the space's zone.
  const columns: ExportLayout = {
    header: 'labels',
    columns: planColumns(fields, []),
    labels: fieldLabels([EXPORT_BUNDLE.forms[0]], 'en', {}),
    words: EXPORT_WORDS.en,
    timeZone: 'UTC',
    people: new Map(),
  };
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  const row = (i: number): ExportRow => ({
    id: `sub_${String(i).padStart(20, '0')}`,
    createdAt: new Date(start + i * 60_000).toISOString(),
    folder: 'inbox',
    status: i % 4 === 0 ? 'done' : 'new',
    assignee: i % 10 === 0 ? 'Grace' : null,
    assigneeId: null,
    page: '/contact',
    locale: 'en',
    values: benchValues(i),
    consent: { consent: { label: 'I agree to the storage of my data.' } },
  });
  app.get<{ Querystring: { format?: string } }>('/export', async (request, reply) => {
    const csv = request.query.format !== 'ndjson';
    async function* body(): AsyncGenerator<string> {
      if (csv) yield csvHeader(columns);
      for (let from = 0; from < rows; from += 500) {
        const page = Array.from({ length: Math.min(500, rows - from) }, (_, k) => row(from + k));
        yield page.map((r) => (csv ? csvLine(r, columns) : ndjsonLine(r))).join('');
      }
    }
    return reply
      .header('content-type', csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson')
      .send(Readable.from(body(), { objectMode: false }));
  });
  await listen(app, async () => app.close());
}

const [mode, arg, schema] = process.argv.slice(2);
if (mode === 'folio' && arg) await folio(arg, schema);
else if (mode === 'bare' && arg) await bare(Number(arg));
else {
  console.error('usage: lib-export-server.ts folio <dataDir> [<schema>] | bare <rows>');
  process.exit(2);
}
