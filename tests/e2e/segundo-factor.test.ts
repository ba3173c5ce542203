/**
 * Two-factor sign-in in a browser (issue 32): a teacher enrols from the profile reading the secret
 * the page shows, signs out and in again with password and code, and a recovery code works once;
 * with TOTP_ADMIN_OBLIGATORIO on, an admin without a second factor is sent to enrolment. The
 * rest (replays, expiry, throttling, permissions, the reset) is in tests/api/segundo-factor.test.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, newPage } from '../support/browser.ts';
import { ADMIN, removeDir, startServer } from '../support/server.ts';
import { abrir, completarIngreso, correoNuevo, docenteActivo, hidratada, navegador, violacionesGraves } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const captura = (page: Page, nombre: string) =>
  page.screenshot({ path: path.join(os.tmpdir(), `ed-segundo-factor-${nombre}.png`), fullPage: true });
/** A screenshot at 1280 and 375 px, each without sideways scrolling; back to the desktop width. */
async function enAmbosAnchos(page: Page, nombre: string) {
  for (const [ancho, viewport] of [
    ['escritorio', DESKTOP],
    ['movil', MOBILE],
  ] as const) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await captura(page, `${nombre}-${ancho}`);
  }
  await page.setViewportSize(DESKTOP);
}
/** The code of the next 30-second step: never the one the previous sign-in spent (one step either side is accepted). */
const codigo = (secreto: string, pasos = 1) =>
  TOTP.generate({ secret: Secret.fromBase32(secreto), timestamp: Date.now() + pasos * 30_000 });

async function pasoDePassword(page: Page, email: string, password: string) {
  await page.goto('/ingresar/');
  await hidratada(page);
  await page.getByLabel('Correo').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
}

describe('two-factor sign-in', () => {
  it('enrols from the profile, then asks the code after the password; a recovery code works once', async () => {
    const email = correoNuevo('dos.pasos');
    const password = 'Aula*2026';
    await docenteActivo(email, password);
    const page = await abrir(browser);
    await page.goto('/ingresar/');
    await completarIngreso(page, email, password);
    await page.goto('/perfil/');
    await page.getByRole('link', { name: 'Verificación en dos pasos' }).click();
    await page.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
    const secreto = (await page.locator('#secreto').textContent())?.replace(/\s/g, '') ?? '';
    expect(secreto).toMatch(/^[A-Z2-7]{32}$/);
    expect(await page.locator('.segundo-factor-qr svg').count()).toBe(1);
    expect(await page.getByLabel('Código de 6 dígitos que muestra la app').getAttribute('autocomplete')).toBe('one-time-code');
    expect(await violacionesGraves(page)).toEqual([]);
    await enAmbosAnchos(page, 'inscripcion');
    await page.getByLabel('Código de 6 dígitos que muestra la app').fill('000000');
    await page.getByRole('button', { name: 'Confirmar y activar' }).click();
    expect(await page.locator('#error-codigo').textContent()).toContain('El código no es válido');
    await page.getByLabel('Código de 6 dígitos que muestra la app').fill(codigo(secreto, 0));
    await page.getByRole('button', { name: 'Confirmar y activar' }).click();
    await page.getByRole('heading', { name: 'La verificación en dos pasos está activa' }).waitFor();
    const recuperacion = (await page.locator('#codigos-recuperacion code').allTextContents()).map((c) => c.trim());
    expect(recuperacion).toHaveLength(10);
    expect(await page.getByRole('link', { name: 'Descargar los códigos' }).getAttribute('download')).toBe(
      'entre-docentes-codigos-recuperacion.txt',
    );
    await captura(page, 'codigos');

    // Signed out, the password alone no longer opens a session: the code does.
    await page.context().clearCookies();
    await pasoDePassword(page, email, password);
    const campo = page.getByLabel('Código de 6 dígitos');
    expect(await campo.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await campo.getAttribute('inputmode')).toBe('numeric');
    expect(await violacionesGraves(page)).toEqual([]);
    await enAmbosAnchos(page, 'paso');
    await campo.fill('123456');
    await page.getByRole('button', { name: 'Verificar' }).click();
    await expect.poll(() => page.locator('form .alerta').textContent()).toContain('El código no es válido');
    await campo.fill(codigo(secreto));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    // A recovery code, once.
    const [primero] = recuperacion;
    for (const intento of [1, 2]) {
      await page.context().clearCookies();
      await pasoDePassword(page, email, password);
      await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
      await page.getByLabel('Código de recuperación').fill(primero ?? '');
      await page.getByRole('button', { name: 'Verificar' }).click();
      if (intento === 1) await page.waitForURL((u) => u.pathname === '/');
      else await expect.poll(() => page.locator('form .alerta').textContent()).toContain('ya fue usado');
    }
  });

  it('sends an admin without a second factor to enrolment when TOTP_ADMIN_OBLIGATORIO is on', async () => {
    const server = await startServer({ env: { TOTP_ADMIN_OBLIGATORIO: 'true' } });
    try {
      const page = await newPage(browser, server.url);
      await page.goto('/admin/usuarios');
      await hidratada(page);
      await completarIngreso(page, ADMIN.email, ADMIN.password);
      await page.waitForURL((u) => u.pathname === '/perfil/segundo-factor/');
      expect(await page.getByText('Como administrador, debes activar').count()).toBe(1);
      // No 'Volver a mi perfil' that would bring them straight back (issue 33): the way out is signing out.
      expect(await page.getByRole('link', { name: 'Volver a mi perfil' }).count()).toBe(0);
      expect(await page.getByText('puedes cerrar sesión y volver más tarde').count()).toBe(1);
      await enAmbosAnchos(page, 'obligada');
      // Every other page sends them back; the API keeps answering the enrolment calls.
      await page.goto('/admin/usuarios');
      expect(new URL(page.url()).pathname).toBe('/perfil/segundo-factor/');
      await page.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
      const secreto = (await page.locator('#secreto').textContent())?.replace(/\s/g, '') ?? '';
      await page.getByLabel('Código de 6 dígitos que muestra la app').fill(codigo(secreto, 0));
      await page.getByRole('button', { name: 'Confirmar y activar' }).click();
      await page.getByRole('heading', { name: 'La verificación en dos pasos está activa' }).waitFor();
      expect(await page.getByRole('link', { name: 'Volver a mi perfil' }).count()).toBe(1);
      await page.goto('/admin/usuarios');
      expect(new URL(page.url()).pathname).toBe('/admin/usuarios');
    } finally {
      await server.stop();
      removeDir(server.dataDir);
    }
  });
});
