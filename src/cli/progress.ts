import cliProgress from 'cli-progress';
import type { ImportProgress } from '../bundle/import-bundle.js';

const LABELS: Record<ImportProgress['phase'], string> = {
  validate: 'checking the bundle',
  assets: 'copying asset files',
  entries: 'writing entries',
  publish: 'publishing (log, lists, search)',
  commit: 'committing',
};

/** Plain lines this often at most within a phase (a log file, CI): every phase start is printed regardless. */
const LINE_EVERY_MS = 5_000;

export interface ProgressDisplay {
  update(progress: ImportProgress): void;
  /** Ends the display (clears a bar); safe to call more than once. */
  stop(): void;
}

/**
 * An import's progress on stderr: a bar per counted phase on a terminal (cli-progress), plain periodic lines
 * otherwise, so stdout keeps only the result line.
 */
export function importProgress(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  let phase: ImportProgress['phase'] | undefined;
  let lastLine = 0;
  let bar: cliProgress.SingleBar | undefined;
  const stopBar = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    update(p) {
      const changed = p.phase !== phase;
      phase = p.phase;
      if (stream.isTTY) {
        if (changed) {
          stopBar();
          if (p.total === 0) stream.write(`${LABELS[p.phase]}…\n`);
          else {
            bar = new cliProgress.SingleBar(
              {
                stream,
                format: `${LABELS[p.phase].padEnd(32)} [{bar}] {percentage}% {value}/{total} {duration}s`,
                hideCursor: true,
              },
              cliProgress.Presets.shades_classic,
            );
            bar.start(p.total, p.done);
          }
        } else bar?.update(p.done);
        return;
      }
      const now = performance.now();
      if (!changed && now - lastLine < LINE_EVERY_MS && p.done !== p.total) return;
      lastLine = now;
      const count = p.total > 0 ? ` ${p.done}/${p.total}` : '';
      stream.write(`import: ${LABELS[p.phase]}${count} (${seconds()} s)\n`);
    },
    stop: stopBar,
  };
}
