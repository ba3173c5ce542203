/**
 * Session renewal from the browser (docs/SPEC.md section 4): the islands renew only when the readable
 * marker says a refresh cookie is there, so an anonymous or signed-out visit asks for nothing that
 * cannot succeed, and a teacher whose access cookie expired goes on without signing in again.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abrir, correoNuevo, docenteActivo, hidratada, ingresar, navegador, url } from './helpers.ts';

const CLAVE = 'ClaveSegura1';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

/** The statuses of the renewals the page asks for from now on (null: asked, not yet answered). */
function renovaciones(page: Page): () => (number | null)[] {
  const vistas = new Map<Request, number | null>();
  const esRenovacion = (request: Request) => new URL(request.url()).pathname === '/auth/renovar_token/';
  page.on('request', (request) => {
    if (esRenovacion(request)) vistas.set(request, null);
  });
  page.on('response', (response) => {
    if (esRenovacion(response.request())) vistas.set(response.request(), response.status());
  });
  return () => [...vistas.values()];
}

/** Loads a page and waits until its islands are live and the network has gone quiet. */
async function cargar(page: Page, ruta: string): Promise<void> {
  await page.goto(ruta);
  await hidratada(page);
  await page.waitForLoadState('networkidle');
}

const cookie = async (page: Page, nombre: string) => (await page.context().cookies()).find((c) => c.name === nombre);

async function docenteConSesion(): Promise<Page> {
  const email = correoNuevo('renovacion');
  await docenteActivo(email, CLAVE);
  const page = await abrir(browser);
  await ingresar(page, email, CLAVE);
  return page;
}

describe('no renewal that cannot succeed', () => {
  it('an anonymous visit to /ingresar/ asks for none and gets no error answer', async () => {
    const page = await abrir(browser);
    const pedidas = renovaciones(page);
    const fallidas: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) fallidas.push(`${r.status()} ${r.url()}`);
    });
    await cargar(page, '/ingresar/');
    expect(pedidas()).toEqual([]);
    expect(fallidas).toEqual([]);
    // The island is usable: the store settled without asking.
    expect(await page.getByRole('button', { name: 'Ingresar' }).isEnabled()).toBe(true);
  });

  it('after signing out, the sign-in page asks for none', async () => {
    const page = await docenteConSesion();
    expect((await cookie(page, 'ed_sesion'))?.httpOnly).toBe(false);
    const pedidas = renovaciones(page);
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await page.waitForURL(url('/ingresar/'));
    await hidratada(page);
    await page.waitForLoadState('networkidle');
    expect(await cookie(page, 'ed_sesion')).toBeUndefined();
    await cargar(page, '/ingresar/');
    expect(pedidas()).toEqual([]);
  });

  /** Ends the page's session from outside the browser, as signing out on another device does. */
  async function cerrarEnOtraParte(page: Page): Promise<void> {
    const refresh = (await cookie(page, 'ed_refresh'))?.value;
    const salida = await fetch(url('/auth/logout/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh }),
    });
    expect(salida.status).toBe(200);
  }

  it('a session ended elsewhere: the sign-in page, rendered on request, clears the marker itself and asks for none', async () => {
    const page = await docenteConSesion();
    await cerrarEnOtraParte(page);
    const pedidas = renovaciones(page);
    await cargar(page, '/ingresar/');
    expect(pedidas()).toEqual([]);
    expect(await cookie(page, 'ed_sesion')).toBeUndefined();
    expect(await page.getByRole('button', { name: 'Ingresar' }).isEnabled()).toBe(true);
  });

  it('a session ended elsewhere: a prerendered page asks for it once, then the cleared marker stops the asking', async () => {
    const page = await docenteConSesion();
    await cerrarEnOtraParte(page);
    const pedidas = renovaciones(page);
    await cargar(page, '/registrar/?token=no-sirve');
    // Playwright's network idle fires once per navigation: under load it can come before the
    // island's check starts, so the renewal is awaited rather than assumed done.
    await expect.poll(pedidas, { timeout: 15_000 }).toEqual([401]);
    expect(await cookie(page, 'ed_sesion')).toBeUndefined();
    await cargar(page, '/registrar/?token=no-sirve');
    expect(pedidas()).toHaveLength(1);
  });
});

describe('a teacher whose access cookie expired', () => {
  it('is renewed once by the sign-in page and sent on, with rotated cookies', async () => {
    const page = await docenteConSesion();
    const antes = (await cookie(page, 'ed_refresh'))?.value;
    // The access cookie lives exactly as long as its token: an expired token is a missing cookie.
    await page.context().clearCookies({ name: 'ed_access' });
    const pedidas = renovaciones(page);
    await page.goto('/ingresar/');
    await page.waitForURL(url('/'));
    await page.waitForLoadState('networkidle');
    expect(pedidas()).toEqual([200]);
    expect((await cookie(page, 'ed_access'))?.value).toBeTruthy();
    expect((await cookie(page, 'ed_refresh'))?.value).not.toBe(antes);
    expect((await cookie(page, 'ed_sesion'))?.value).toBe('1');
  });

  it('is renewed by the page request itself, with no renewal from the islands', async () => {
    const page = await docenteConSesion();
    await page.context().clearCookies({ name: 'ed_access' });
    const pedidas = renovaciones(page);
    await cargar(page, '/ayuda');
    expect(page.url()).toBe(url('/ayuda'));
    expect((await cookie(page, 'ed_access'))?.value).toBeTruthy();
    expect((await cookie(page, 'ed_sesion'))?.value).toBe('1');
    expect(pedidas()).toEqual([]);
  });
});
