import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The version of this Folio: package.json's `version` (the release CHANGELOG.md names), read once from the package
 * this file ships in (src/lib and dist/lib both sit two levels below it). What `folio --version` prints and
 * `/healthz` answers, so an operator can tell which binary runs during an upgrade.
 */
function readVersion(): string {
  try {
    const pkg: unknown = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
    );
    const version = typeof pkg === 'object' && pkg !== null ? Reflect.get(pkg, 'version') : undefined;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const FOLIO_VERSION = readVersion();
