/**
 * Debian's Chromium driven by playwright-core (a test tool's own browser download cannot work here).
 * Every context it opens records the Content-Security-Policy violations its pages report and
 * validates the HTML documents they receive (tests/support/html.ts); the browser suite fails a
 * test that leaves either (tests/e2e/helpers.ts), and closing the browser with some still unread
 * fails too.
 */
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { erroresHtml, vigilarHtml } from './html.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Debian Chromium without the background traffic that would blur a measure or a test. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const violaciones: string[] = [];

/** The violations reported since the last call, which it forgets. */
export function violacionesCsp(): string[] {
  return violaciones.splice(0);
}

/** The page's own report (securitypolicyviolation) and Chromium's console line for the same block. */
async function vigilarCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__violacionCsp', ({ page }, detalle: string) => {
    violaciones.push(`${page.url()}: ${detalle}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const avisar: (detalle: string) => void = Reflect.get(window, '__violacionCsp');
      avisar(`${e.effectiveDirective} bloqueó ${e.blockedURI || 'inline'} en ${e.sourceFile}:${e.lineNumber} «${e.sample}»`);
    });
  });
  context.on('console', (mensaje) => {
    if (/Content Security Policy/i.test(mensaje.text())) violaciones.push(`${mensaje.page()?.url()}: ${mensaje.text()}`);
  });
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: run \`npm test\` (it installs it) or apt-get install chromium`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await vigilarCsp(context);
    vigilarHtml(context);
    return context;
  };
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    await close(options);
    const pendientes = violacionesCsp();
    if (pendientes.length > 0) throw new Error(`Violaciones de Content-Security-Policy:\n${pendientes.join('\n')}`);
    const html = await erroresHtml();
    if (html.length > 0) throw new Error(`Errores de html-validate:\n${html.join('\n')}`);
  };
  return browser;
}

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 740 };

export async function newPage(browser: Browser, baseURL: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'es-CL' });
  return context.newPage();
}
