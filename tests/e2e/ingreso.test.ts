/** /ingresar/: docs/SPEC.md sections 2, 4, 5 and 8, at desktop width and at 375px. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../support/server.ts';
import { ANCHOS, abrir, hidratada, ingresar, mensajeDe, navegador, responder, retener, sinRespuesta, url } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(ANCHOS)('/ingresar/ (%s)', (_ancho, viewport) => {
  it('shows Correo, Contraseña, Ingresar, the reset link, the logo and the product name', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/ingresar/');
    await expect.poll(() => page.getByPlaceholder('Correo').isVisible()).toBe(true);
    expect(await page.getByPlaceholder('Contraseña').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Ingresar' }).isEnabled()).toBe(true);
    const enlace = page.getByRole('link', { name: '¿Olvidaste tu Contraseña?' });
    expect(await enlace.getAttribute('href')).toBe('/ingresar/reestablecer-contraseña/');
    expect(await page.locator('.marca svg').count()).toBe(1);
    expect(await page.locator('.marca').textContent()).toContain('Entre Docentes');
    expect(await page.title()).toBe('Ingresar · Entre Docentes');
    await enlace.click();
    await page.waitForURL(url('/ingresar/reestablecer-contrase%C3%B1a/'));
  });

  it('rotates our own background images, loaded only after the page', async () => {
    const page = await abrir(browser, viewport);
    const fondos: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/fondos/')) fondos.push(new URL(r.url()).pathname);
    });
    await page.goto('/ingresar/');
    await expect.poll(() => page.locator('.acceso-fondo div.visible').count(), { timeout: 10_000 }).toBe(1);
    expect(fondos.length).toBeGreaterThan(0);
    expect(fondos.every((f) => /^\/fondos\/\w+\.svg$/.test(f))).toBe(true);
    const html = await (await fetch(url('/ingresar/'))).text();
    expect(html).not.toContain('<img');
  });

  it('is usable while the backgrounds have not arrived', async () => {
    const page = await abrir(browser, viewport);
    await page.route('**/fondos/**', () => {
      /* never answered: a very slow connection */
    });
    await ingresar(page);
    expect(page.url()).toBe(url('/'));
  });

  it('shows each field message on blur and on submit, and keeps what was typed', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/ingresar/');
    await hidratada(page);
    const correo = page.getByLabel('Correo');
    await correo.focus();
    await correo.blur();
    expect(await mensajeDe(page, 'Correo')).toBe('Debe ingresar un correo');
    await correo.fill('ana@');
    await correo.blur();
    expect(await mensajeDe(page, 'Correo')).toBe('Debe ingresar un correo válido');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    expect(await mensajeDe(page, 'Contraseña')).toBe('Debe ingresar una contraseña');
    expect(await correo.inputValue()).toBe('ana@');
  });

  it("shows 'Usuario y/o contraseña incorrectos' above the form and keeps the fields", async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/ingresar/');
    await page.getByLabel('Correo').fill(ADMIN.email);
    await page.getByLabel('Contraseña').fill('NoEsLaClave1');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    const alerta = page.getByRole('alert');
    await expect.poll(() => alerta.textContent()).toBe('Usuario y/o contraseña incorrectos');
    // Above the form's fields.
    const [a, c] = await Promise.all([alerta.boundingBox(), page.getByLabel('Correo').boundingBox()]);
    expect(a && c && a.y < c.y).toBe(true);
    expect(await page.getByLabel('Correo').inputValue()).toBe(ADMIN.email);
    expect(await page.getByLabel('Contraseña').inputValue()).toBe('NoEsLaClave1');
    expect(page.url()).toBe(url('/ingresar/'));
  });

  it("shows the server's first non_field_errors message, the 429 detail and a connection failure", async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/ingresar/');
    await page.getByLabel('Correo').fill('ana@colegio.cl');
    await page.getByLabel('Contraseña').fill('Clave12345');
    const boton = page.getByRole('button', { name: 'Ingresar' });
    const alerta = page.getByRole('alert');

    await page.route('**/auth/login/', responder(401, { detail: 'x', non_field_errors: ['Primer mensaje', 'Segundo'], statusCode: 401 }));
    await boton.click();
    await expect.poll(() => alerta.textContent()).toBe('Primer mensaje');

    await page.unroute('**/auth/login/');
    await page.route('**/auth/login/', responder(401, { detail: 'Usuario y/o contraseña incorrectos', statusCode: 401 }));
    await boton.click();
    await expect.poll(() => alerta.textContent()).toBe('Usuario y/o contraseña incorrectos');

    await page.unroute('**/auth/login/');
    const demasiados = 'Demasiados intentos. Espera 15 minutos antes de volver a intentarlo.';
    await page.route('**/auth/login/', responder(429, { detail: demasiados, statusCode: 429 }));
    await boton.click();
    await expect.poll(() => alerta.textContent()).toBe(demasiados);

    await page.unroute('**/auth/login/');
    await page.route('**/auth/login/', sinRespuesta);
    await boton.click();
    await expect.poll(() => alerta.textContent()).toBe('No se pudo conectar con el servidor. Revisa tu conexión e inténtalo nuevamente.');
    expect(await page.getByLabel('Correo').inputValue()).toBe('ana@colegio.cl');
  });

  it('disables the button while signing in, then lands on / (or on `siguiente`, when it is a path of this site)', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/ingresar/?siguiente=%2Fayuda');
    const soltar = await retener(page, '**/auth/login/');
    await page.getByLabel('Correo').fill(ADMIN.email);
    await page.getByLabel('Contraseña').fill(ADMIN.password);
    const boton = page.getByRole('button', { name: 'Ingresar' });
    await boton.click();
    expect(await boton.isDisabled()).toBe(true);
    soltar();
    await page.waitForURL(url('/ayuda'));

    // Another site, also written so that only the browser reads it as one: '/<tab>/ejemplo.com' is
    // '//ejemplo.com' once the browser drops the tab (issue 32's open redirect).
    const otra = await abrir(browser, viewport);
    await otra.goto('/ingresar/?siguiente=%2F%09%2Fejemplo.com%2F');
    await otra.getByLabel('Correo').fill(ADMIN.email);
    await otra.getByLabel('Contraseña').fill(ADMIN.password);
    await otra.getByRole('button', { name: 'Ingresar' }).click();
    await otra.waitForURL(url('/'));
  });

  it('sends a signed-in person on to /', async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto('/ingresar/');
    await page.waitForURL(url('/'));
    // Never on to another site, however `siguiente` writes it (a newline the browser drops).
    await page.goto('/ingresar/?siguiente=%2F%0A%2Fejemplo.com%2F');
    await page.waitForURL(url('/'));
    // Also when only the refresh cookie is left (the access cookie expired).
    await page.context().clearCookies({ name: 'ed_access' });
    await page.goto('/ingresar/');
    await page.waitForURL(url('/'));
  });

  it('is fully usable by keyboard', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/ingresar/');
    await expect.poll(() => page.getByRole('button', { name: 'Ingresar' }).isEnabled()).toBe(true);
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/'));
  });
});

describe('before the island is live', () => {
  it('keeps what was typed and cannot post the raw form', async () => {
    const page = await abrir(browser);
    const soltar = await retener(page, '**/_astro/FormularioIngreso.*.js');
    const envios: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.method() === 'POST') envios.push(r.url());
    });
    await page.goto('/ingresar/', { waitUntil: 'domcontentloaded' });
    await page.getByLabel('Correo').fill(ADMIN.email);
    await page.getByLabel('Contraseña').fill(ADMIN.password);
    expect(await page.getByRole('button', { name: 'Ingresar' }).isDisabled()).toBe(true);
    await page.getByLabel('Contraseña').press('Enter');
    soltar();
    await hidratada(page);
    // The network quiet for a while after the island went live: a post the Enter had started is on record by now.
    await page.waitForLoadState('networkidle');
    expect(envios).toEqual([]);
    expect(await page.getByLabel('Correo').inputValue()).toBe(ADMIN.email);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL(url('/'));
  });
});
