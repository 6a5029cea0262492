/**
 * Headless Chromium for browser tests: Debian's `chromium` package driven by playwright-core with the
 * system executable (browser downloads are not possible here). `.ci/run` installs the package.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser; `CHROMIUM_PATH` overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run on this machine, or undefined when they can. */
export const noBrowserReason = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

/**
 * Launches headless Chromium with the flags this sandboxed, offline machine needs: no sandbox (runs as
 * root), no GPU, and no background networking (its connections would be refused).
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
