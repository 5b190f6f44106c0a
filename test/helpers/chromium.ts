import type { Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), or CHROMIUM_PATH; the test setup installs it as root. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless, and no connection of its own: this machine's network is closed, and without the background-networking
 * flags Chromium keeps opening connections that are refused. Playwright gives each launch a fresh profile.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One browser for a test file (playwright-core drives it; never a browser of Playwright's own download). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}
