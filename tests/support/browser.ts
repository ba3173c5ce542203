/** Debian's Chromium driven by playwright-core (a test tool's own browser download cannot work here). */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: run \`npm test\` (it installs it) or apt-get install chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
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

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 740 };

export async function newPage(browser: Browser, baseURL: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'es-CL' });
  return context.newPage();
}
