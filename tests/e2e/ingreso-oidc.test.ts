/**
 * Sign-in with a school account in Chromium (issue 32, decision 0063), against a real OpenID
 * Connect provider on this machine (oidc-provider) and a server of its own configured for it:
 * the sign-in screen's 'Ingresar con Google' link; an invited teacher of the allowed domain
 * signs in and lands signed in; a stranger of that domain is refused, then admitted once an admin
 * turns automatic accounts on in the console; a wrong domain, a replayed callback and a tampered
 * state end on the sign-in screen with a Spanish reason. The many other refusals are API tests
 * (tests/api/oidc.test.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENSAJES_OIDC } from '../../src/lib/ingreso-externo.ts';
import { DESKTOP, MOBILE, newPage } from '../support/browser.ts';
import { noValidarOrigen } from '../support/html.ts';
import { iniciarProveedor, type ProveedorPrueba } from '../support/oidc.ts';
import { ADMIN, freePort, type RunningServer, removeDir, runCli, startServer } from '../support/server.ts';
import { navegador, violacionesGraves } from './helpers.ts';

let browser: Browser;
let idp: ProveedorPrueba;
let server: RunningServer;

beforeAll(async () => {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  idp = await iniciarProveedor([`${publicUrl}/auth/oidc/escuela/callback`]);
  // The provider's development sign-in form is not our page.
  noValidarOrigen(idp.issuer);
  const proveedor = idp.config({ id: 'escuela', nombre: 'Google', dominios: ['colegio.cl'], publicUrl });
  server = await startServer({ port, env: { OIDC_PROVEEDORES: JSON.stringify([proveedor]) } });
  browser = await navegador();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDir(server.dataDir);
  await idp?.close();
});

/** A fresh browser (no provider session) at /ingresar/, through 'Ingresar con Google' and the provider's form as `login`. */
async function ingresarConProveedor(login: string, ruta = '/ingresar/'): Promise<Page> {
  const page = await newPage(browser, server.url);
  await page.goto(ruta);
  await page.getByRole('link', { name: 'Ingresar con Google' }).click();
  await page.waitForURL((u) => u.origin === idp.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('cualquiera');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.origin === server.url && !u.pathname.startsWith('/auth/'));
  return page;
}

async function motivo(page: Page): Promise<string> {
  expect(new URL(page.url()).pathname).toBe('/ingresar/');
  return (await page.locator('#error-oidc').textContent()) ?? '';
}

describe('Ingresar con Google (a real OpenID Connect provider)', () => {
  it('the sign-in screen offers the provider under the SPEC form, as a link that works without script', async () => {
    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await newPage(browser, server.url, viewport);
      await page.goto('/ingresar/?siguiente=%2Fforo%2F');
      expect(await page.getByLabel('Correo').count()).toBe(1);
      const enlace = page.getByRole('link', { name: 'Ingresar con Google' });
      expect(await enlace.getAttribute('href')).toBe('/auth/oidc/escuela/?siguiente=%2Fforo%2F');
      expect(await violacionesGraves(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/ingresar-oidc-${viewport.width}.png`, fullPage: true });
      await page.context().close();
    }
  });

  it('an invited teacher of the school domain signs in and lands signed in, with no activation mail', { timeout: 90_000 }, async () => {
    const email = 'profesora.invitada@colegio.cl';
    const salida = await runCli(['crear', '--email', email, '--nombres', 'Carla', '--apellidos', 'Rojas'], server.env);
    expect(salida.code, salida.stderr + salida.stdout).toBe(0);
    const page = await ingresarConProveedor(email);
    // Signed in: the first page after a first sign-in is the privacy notice, then home.
    expect(new URL(page.url()).pathname).toBe('/privacidad/aceptar/');
    await page.getByRole('button', { name: 'Acepto y continúo' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).toEqual(expect.arrayContaining(['ed_access', 'ed_refresh', 'ed_sesion']));
    expect(cookies.some((c) => c.name === 'ed_oidc')).toBe(false);
    // Her profile lists the school account; without a password it cannot be unlinked.
    await page.goto('/perfil/cuentas-vinculadas');
    expect(await page.locator('.lista-sesiones').first().textContent()).toContain(email);
    for (const viewport of [DESKTOP, MOBILE]) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `/tmp/cuentas-vinculadas-${viewport.width}.png`, fullPage: true });
    }
    await page.getByRole('button', { name: 'Desvincular tu cuenta de Google' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/^No puedes desvincular tu única forma de ingresar/);
    await page.context().close();
  });

  it('a stranger of the school domain is refused, then admitted once an admin turns automatic accounts on', {
    timeout: 90_000,
  }, async () => {
    const email = 'recien.llegado@colegio.cl';
    const rechazado = await ingresarConProveedor(email);
    expect(await motivo(rechazado)).toBe(MENSAJES_OIDC.sin_cuenta);
    expect((await rechazado.context().cookies()).some((c) => c.name === 'ed_refresh')).toBe(false);
    await rechazado.screenshot({ path: '/tmp/ingresar-oidc-rechazo.png', fullPage: true });
    await rechazado.context().close();

    const admin = await newPage(browser, server.url);
    const respuesta = await admin.request.post(`${server.url}/auth/login/`, { data: ADMIN });
    expect(respuesta.status()).toBe(200);
    await admin.goto('/admin/ingreso-externo');
    await admin.getByLabel('Crear cuentas automáticamente para @colegio.cl').check();
    await admin.getByRole('button', { name: 'Guardar' }).click();
    await admin.getByRole('status').filter({ hasText: 'Cambios guardados.' }).waitFor();
    await admin.screenshot({ path: '/tmp/admin-ingreso-externo.png', fullPage: true });
    await admin.context().close();

    const admitido = await ingresarConProveedor(email);
    expect(new URL(admitido.url()).pathname).toBe('/privacidad/aceptar/');
    await admitido.context().close();
  });

  it('a wrong domain, a replayed callback and a tampered state end on the sign-in screen', { timeout: 90_000 }, async () => {
    const ajena = await ingresarConProveedor('alguien@otro.cl');
    expect(await motivo(ajena)).toBe(MENSAJES_OIDC.dominio);
    await ajena.context().close();

    // The callback a browser went through, replayed in another browser (a URL copied from a
    // history or a log): refused, no session. (Replayed in the same signed-in browser it is refused
    // too, but /ingresar/ then sends a signed-in person home.)
    const page = await newPage(browser, server.url);
    let retorno = '';
    page.on('request', (r) => {
      if (r.url().includes('/callback?')) retorno = r.url();
    });
    await page.goto('/ingresar/');
    await page.getByRole('link', { name: 'Ingresar con Google' }).click();
    await page.locator('input[name="login"]').fill('profesora.invitada@colegio.cl');
    await page.locator('input[name="password"]').fill('cualquiera');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((u) => u.origin === server.url && u.pathname === '/');
    const ajeno = await newPage(browser, server.url);
    await ajeno.goto(retorno);
    expect(await motivo(ajeno)).toBe(MENSAJES_OIDC.estado);
    expect((await ajeno.context().cookies()).some((c) => c.name === 'ed_refresh')).toBe(false);
    await ajeno.context().close();

    // The provider's answer with another state: refused, and no session from it. The answer is
    // read without following it (the browser's own request context, sharing its cookies), then
    // visited with the state changed.
    const otra = await newPage(browser, server.url);
    await otra.goto('/ingresar/');
    await otra.getByRole('link', { name: 'Ingresar con Google' }).click();
    await otra.waitForURL((u) => u.origin === idp.issuer);
    const accion = new URL((await otra.locator('form').first().getAttribute('action')) ?? '', otra.url());
    let respuesta = await otra.request.post(accion.toString(), {
      form: { prompt: 'login', login: 'profesora.invitada@colegio.cl', password: 'cualquiera' },
      maxRedirects: 0,
    });
    let destino = new URL(respuesta.headers().location ?? '', accion);
    while (destino.origin === idp.issuer) {
      respuesta = await otra.request.get(destino.toString(), { maxRedirects: 0 });
      destino = new URL(respuesta.headers().location ?? '', destino);
    }
    expect(destino.pathname).toBe('/auth/oidc/escuela/callback');
    destino.searchParams.set('state', 'estado-de-otro-navegador');
    await otra.goto(destino.toString());
    expect(await motivo(otra)).toBe(MENSAJES_OIDC.estado);
    expect((await otra.context().cookies()).some((c) => c.name === 'ed_refresh')).toBe(false);
    await page.context().close();
    await otra.context().close();
  });
});
