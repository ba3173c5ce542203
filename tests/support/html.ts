/**
 * html-validate on every HTML document the browser suite navigates to: the server's response as
 * sent (not the DOM after hydration), judged by the committed .htmlvalidate.json. Every context
 * `launchBrowser()` opens reports here (tests/support/browser.ts); the suite fails a test whose
 * pages left any error (tests/e2e/helpers.ts). The same HTML is validated once per run.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { FileSystemConfigLoader, HtmlValidate, type Message } from 'html-validate';
import type { BrowserContext, Response } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../..');
/** A file name at the project's root, so the loader finds .htmlvalidate.json as the CLI would. */
const NOMBRE = path.join(root, 'pagina.html');
const validador = new HtmlValidate(new FileSystemConfigLoader());

/** The errors found for each distinct HTML (by its SHA-256), validated once. */
const cache = new Map<string, Promise<string[]>>();
const errores: string[] = [];
const pendientes = new Set<Promise<void>>();

function describir(html: string, m: Message): string {
  const linea = html.split('\n')[m.line - 1] ?? '';
  const extracto = linea.slice(Math.max(0, m.column - 60), m.column + 60);
  return `${m.ruleId}: ${m.message} (${m.selector ?? `${m.line}:${m.column}`}) «…${extracto}…»`;
}

function validar(html: string): Promise<string[]> {
  const clave = createHash('sha256').update(html).digest('hex');
  let resultado = cache.get(clave);
  if (!resultado) {
    resultado = validador
      .validateString(html, NOMBRE)
      .then((informe) => informe.results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => describir(html, m))));
    cache.set(clave, resultado);
  }
  return resultado;
}

/**
 * The body as the server sent it. A page that navigated on at once (an island that sends a
 * missing token to /ingresar/) may have dropped it before it was read: a GET is then asked again
 * with the context's cookies, and kept only if it is the same kind of answer (a test that signed
 * out meanwhile gets a redirect with no body, which is not that page); any other method is not
 * repeated (it could change data).
 */
async function cuerpo(context: BrowserContext, response: Response): Promise<string | undefined> {
  try {
    return await response.text();
  } catch {
    if (response.request().method() !== 'GET') return undefined;
    const otra = await context.request.get(response.url(), { maxRedirects: 0, timeout: 10_000 });
    const html = (otra.headers()['content-type'] ?? '').startsWith('text/html');
    return otra.status() === response.status() && html ? otra.text() : undefined;
  }
}

async function revisar(context: BrowserContext, response: Response): Promise<void> {
  const url = response.url();
  try {
    const html = await cuerpo(context, response);
    if (html === undefined) return;
    for (const error of await validar(html)) errores.push(`${url}: ${error}`);
  } catch (e) {
    // A context closed while its page was still loading: nothing left to read.
    if (!/closed|disposed/i.test(String(e))) errores.push(`${url}: no se pudo validar (${e})`);
  }
}

/** Origins whose pages are not ours to validate (the OpenID Connect provider of the sign-in tests, issue 32). */
const ajenos = new Set<string>();

/** The pages of this origin are another server's (a test's identity provider): not validated. */
export function noValidarOrigen(origen: string): void {
  ajenos.add(new URL(origen).origin);
}

/** Validates every HTML document a page of the context receives (not redirects, not fetches). */
export function vigilarHtml(context: BrowserContext): void {
  context.on('response', (response) => {
    if (response.request().resourceType() !== 'document' || (response.status() >= 300 && response.status() < 400)) return;
    if (ajenos.has(new URL(response.url()).origin)) return;
    if (!(response.headers()['content-type'] ?? '').startsWith('text/html')) return;
    const tarea = revisar(context, response).finally(() => pendientes.delete(tarea));
    pendientes.add(tarea);
  });
}

/** The errors found since the last call (once every document received so far is validated), which it forgets. */
export async function erroresHtml(): Promise<string[]> {
  while (pendientes.size > 0) await Promise.all(pendientes);
  return errores.splice(0);
}
