/**
 * One `folio` command in a process of its own for the import bench: runs the CLI's `main` with the given
 * arguments (the environment picks the store), then prints one JSON line with its exit code, the RSS once the
 * modules were loaded (idle) and the process's peak RSS.
 */
import { main } from '../src/cli/main.js';
import { peakRssMb } from './lib-peak-rss.js';

const idleMb = Math.round(process.memoryUsage().rss / 1024 / 1024);
const code = await main(process.argv.slice(2));
console.log(JSON.stringify({ code, idleMb, peakMb: peakRssMb() }));
process.exit(0);
