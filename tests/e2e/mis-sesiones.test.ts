/**
 * 'Mis sesiones' in Chromium (issue 32): a teacher signed in on a school computer and on a phone
 * sees both sessions on /perfil/sesiones, closes the phone's, and the phone is out at its next
 * page; the page reads well at 1280 and 375 px and works without JavaScript.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, MOBILE } from '../support/browser.ts';
import { abrirComo, correoNuevo, docenteActivo, ingresarPorApi, navegador, url, violacionesGraves } from './helpers.ts';

const ANDROID =
  'Mozilla/5.0 (Linux; Android 13; SM-A146M) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36';

let browser: Browser;
const docente = { email: correoNuevo('sesiones'), password: 'Docente2026' };
beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(docente.email, docente.password);
});
afterAll(async () => {
  await browser?.close();
});

describe('/perfil/sesiones', () => {
  it('lists the computer and the phone, closes the phone at once, with no script', async () => {
    const contextoTelefono = await browser.newContext({
      baseURL: inject('baseUrl'),
      viewport: MOBILE,
      locale: 'es-CL',
      userAgent: ANDROID,
    });
    const telefono = await contextoTelefono.newPage();
    await ingresarPorApi(telefono, docente);
    await telefono.goto('/perfil/');
    expect(new URL(telefono.url()).pathname).toBe('/perfil/');

    const contextoSala = await browser.newContext({
      baseURL: inject('baseUrl'),
      viewport: DESKTOP,
      locale: 'es-CL',
      javaScriptEnabled: false,
    });
    const sala = await contextoSala.newPage();
    await ingresarPorApi(sala, docente);
    await sala.goto('/perfil/');
    await sala.getByRole('link', { name: 'Mis sesiones' }).click();
    await sala.waitForURL(url('/perfil/sesiones'));
    const sesiones = sala.locator('ul.lista-sesiones > li');
    expect(await sesiones.count()).toBe(2);
    expect(await sala.locator('li.sesion-actual').textContent()).toContain('Esta sesión');
    const delTelefono = sesiones.filter({ hasText: 'Samsung Internet 25 en Android' });
    expect(await delTelefono.count()).toBe(1);
    expect(await delTelefono.textContent()).toMatch(/Iniciada el .*Último uso/);

    await delTelefono.getByRole('button', { name: 'Cerrar la sesión de Samsung Internet 25 en Android' }).click();
    await sala.getByRole('status').filter({ hasText: 'Cerramos 1 sesión.' }).waitFor();
    expect(await sesiones.count()).toBe(1);
    expect(await sala.getByText('No tienes otras sesiones abiertas.').count()).toBe(1);
    await sala.screenshot({ path: '/tmp/mis-sesiones.png', fullPage: true });

    // The phone is out at its next page: to the sign-in screen, remembering where it was going.
    await telefono.goto('/perfil/');
    await telefono.waitForURL(/\/ingresar\/\?siguiente=/);
    await contextoTelefono.close();
    await contextoSala.close();
  });

  it("'Cerrar las demás sesiones' closes every other one; the page fits a phone", async () => {
    const otros = await Promise.all([0, 1].map(() => abrirComo(browser, docente)));
    const telefono = await abrirComo(browser, docente, MOBILE);
    await telefono.goto('/perfil/sesiones');
    expect(await telefono.locator('ul.lista-sesiones > li').count()).toBeGreaterThanOrEqual(3);
    expect(await telefono.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await violacionesGraves(telefono)).toEqual([]);
    const escritorio = await abrirComo(browser, docente);
    await escritorio.goto('/perfil/sesiones');
    expect(await violacionesGraves(escritorio)).toEqual([]);
    await telefono.getByRole('button', { name: 'Cerrar las demás sesiones' }).click();
    await telefono
      .getByRole('status')
      .filter({ hasText: /^Cerramos \d+ sesiones\.$/ })
      .waitFor();
    expect(await telefono.locator('ul.lista-sesiones > li').count()).toBe(1);
    for (const page of otros) {
      await page.goto('/perfil/');
      await page.waitForURL(/\/ingresar\//);
    }
  });
});
