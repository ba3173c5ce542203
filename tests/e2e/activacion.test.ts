/**
 * Account activation (/activar-cuenta/{token} and /registrar/?token=): docs/SPEC.md sections 2, 4, 5
 * and 8, and the whole journey of an invited teacher.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOS, abrir, correoNuevo, ingresar, invitar, mensajeDe, navegador, responder, retener, sinRespuesta, url } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const VERIFICAR = (u: URL) => u.pathname === '/api/usuarios/activar-cuenta/' && u.searchParams.has('token');
const ACTIVAR = '**/api/usuarios/activar-cuenta/';

async function crear(page: Page, password: string, confirmacion = password) {
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByLabel('Confirmar contraseña').fill(confirmacion);
  await page.getByRole('button', { name: 'Crear contraseña y acceder' }).click();
}

describe.each(ANCHOS)('invited teacher (%s)', (ancho, viewport) => {
  it('CLI invite → activation link → password → signed in at / with their name → Cerrar Sesión → /ingresar/', async () => {
    const email = correoNuevo(`invitada-${ancho === 'móvil' ? 'm' : 'd'}`);
    const enlace = await invitar(email, 'Ana María', 'Pérez Soto');
    const token = new URL(enlace).pathname.split('/').at(-1) ?? '';
    expect(new URL(enlace).pathname).toBe(`/activar-cuenta/${token}`);
    const page = await abrir(browser, viewport);
    // /registrar/ shows the same welcome screen with the token in the query.
    await page.goto(ancho === 'móvil' ? `/registrar/?token=${token}` : enlace);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Bienvenido a Entre Docentes');
    const correo = page.getByLabel('Correo');
    expect(await correo.inputValue()).toBe(email);
    expect(await correo.getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Crear contraseña y acceder' }).click();
    expect(await mensajeDe(page, 'Contraseña')).toBe('Debe ingresar una contraseña');
    expect(await mensajeDe(page, 'Confirmar contraseña')).toBe('Debe ingresar una contraseña');
    await crear(page, 'Aula2025', 'Aula2026');
    expect(await mensajeDe(page, 'Contraseña')).toBe('Contraseñas no coinciden');
    expect(await mensajeDe(page, 'Confirmar contraseña')).toBe('Contraseñas no coinciden');
    await crear(page, 'aula', 'aula');
    expect(await mensajeDe(page, 'Contraseña')).toBe('La contraseña debe tener entre 8 a 100 caracteres');
    await crear(page, 'AULAAULA1', 'AULAAULA1');
    expect(await mensajeDe(page, 'Contraseña')).toBe('Contraseña debe incluir mayúsculas, minúsculas y numeros');

    // The privacy notice is accepted with the password (issue 31; tests/e2e/privacidad.test.ts).
    await page.getByLabel('Leí y acepto el aviso de privacidad').check();
    await crear(page, 'Aula*2025', 'Aula*2025');
    await page.waitForURL(url('/'));
    expect(await page.locator('header.barra a.perfil .nombre').textContent()).toBe('Ana Pérez');
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await page.waitForURL(url('/ingresar/'));
    await page.goto('/');
    expect(page.url()).toBe(url('/ingresar/'));

    // The link is single use; the new password works.
    await page.goto(enlace);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Token inválido o expirado');
    await ingresar(page, email, 'Aula*2025');
    expect(page.url()).toBe(url('/'));
  });
});

describe.each(ANCHOS)('/activar-cuenta/{token} (%s)', (_ancho, viewport) => {
  it("checks the token with a spinner and says 'Token inválido o expirado', with a button to /ingresar/", async () => {
    const page = await abrir(browser, viewport);
    const soltar = await retener(page, VERIFICAR, responder(404, { detail: 'Token inválido o expirado' }));
    await page.goto('/activar-cuenta/no-sirve');
    expect(await page.locator('[aria-busy="true"]').textContent()).toBe('Verificando el enlace…');
    soltar();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Token inválido o expirado');
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.waitForURL(url('/ingresar/'));
  });

  it('sends a missing token to /ingresar/ (both addresses)', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/activar-cuenta/');
    await page.waitForURL(url('/ingresar/'));
    await page.goto('/registrar/');
    await page.waitForURL(url('/ingresar/'));
  });

  it('sends a signed-in person to /', async () => {
    const email = correoNuevo('ya-dentro');
    const enlace = await invitar(email, 'Docente', 'Con Sesión');
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto(enlace);
    await page.waitForURL(url('/'));
  });

  it('maps the answers of the activation to the messages of docs/SPEC.md section 8 and keeps the form', async () => {
    const page = await abrir(browser, viewport);
    await page.route(VERIFICAR, responder(200, { email: 'nueva@colegio.cl' }));
    await page.goto('/activar-cuenta/token-de-prueba');
    await expect.poll(() => page.getByLabel('Correo').inputValue()).toBe('nueva@colegio.cl');
    await page.getByLabel('Leí y acepto el aviso de privacidad').check();
    const casos: [Parameters<typeof page.route>[1], string][] = [
      [responder(404, { detail: 'Token inválido o expirado' }), 'Token no válido'],
      [responder(400, { detail: 'x' }), 'Token no válido'],
      [responder(500, { detail: 'Error' }), 'No se pudo activar la cuenta'],
      [sinRespuesta, 'Hubo un error, no se pudo activar la cuenta'],
    ];
    for (const [respuesta, mensaje] of casos) {
      await page.unroute(ACTIVAR);
      await page.route(ACTIVAR, respuesta);
      await crear(page, 'Clave2025');
      await expect.poll(() => page.getByRole('alert').textContent()).toBe(mensaje);
      expect(await page.getByLabel('Contraseña', { exact: true }).inputValue()).toBe('Clave2025');
    }
    // The button is disabled while the activation is sent.
    await page.unroute(ACTIVAR);
    const soltar = await retener(page, ACTIVAR, responder(500, {}));
    await crear(page, 'Clave2025');
    expect(await page.getByRole('button', { name: 'Crear contraseña y acceder' }).isDisabled()).toBe(true);
    soltar();
  });
});
