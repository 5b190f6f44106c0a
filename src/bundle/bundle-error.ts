import type { Problem } from '../lib/problems.js';

/** A bundle that cannot be imported, with every problem named by its JSON path; the store is left unchanged. */
export class BundleError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`Invalid bundle:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`);
    this.name = 'BundleError';
  }
}
