/** /ayuda: docs/SPEC.md sections 2, 4, 5 and 8, at desktop width and at 375px. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitForMail } from '../support/server.ts';
import { ANCHOS, abrir, hidratada, ingresar, mensajeDe, navegador, responder, retener, sinRespuesta, url } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const AYUDA = '**/api/usuarios/*/enviar-email-ayuda/';

describe.each(ANCHOS)('/ayuda (%s)', (ancho, viewport) => {
  it('has the title, the subjects (Sugerencia first), a 7-row message, Enviar and Cancelar', async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto('/ayuda');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Enviar email a centro de ayuda');
    const asunto = page.getByLabel('Asunto');
    expect(await asunto.locator('option').allTextContents()).toEqual(['Sugerencia', 'Reclamo', 'Ayuda']);
    expect(await asunto.inputValue()).toBe('Sugerencia');
    expect(await page.getByLabel('Mensaje').getAttribute('rows')).toBe('7');
    await expect.poll(() => page.getByRole('button', { name: 'Enviar' }).isEnabled()).toBe(true);
    const cancelar = page.getByRole('link', { name: 'Cancelar' });
    await page.getByLabel('Mensaje').fill('Algo a medio escribir');
    await cancelar.click();
    await page.waitForURL(url('/ayuda'));
    expect(await page.getByLabel('Mensaje').inputValue()).toBe('');
  });

  it("shows 'Debe ingresar un mensaje' on blur and on submit", async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto('/ayuda');
    await hidratada(page);
    await page.getByLabel('Mensaje').focus();
    await page.getByLabel('Mensaje').blur();
    expect(await mensajeDe(page, 'Mensaje')).toBe('Debe ingresar un mensaje');
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Enviar' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Enviar' }).click();
    expect(await mensajeDe(page, 'Mensaje')).toBe('Debe ingresar un mensaje');
  });

  it("says 'Enviando...', then 'Mensaje enviado!', and the help centre receives it", async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto('/ayuda');
    const soltar = await retener(page, AYUDA);
    await page.getByLabel('Asunto').selectOption('Reclamo');
    const mensaje = `No puedo descargar el manual (${ancho})`;
    await page.getByLabel('Mensaje').fill(mensaje);
    await page.getByRole('button', { name: 'Enviar' }).click();
    const enviando = page.getByRole('button', { name: 'Enviando...' });
    expect(await enviando.isDisabled()).toBe(true);
    soltar();
    await expect.poll(() => page.getByRole('heading', { name: 'Mensaje enviado!' }).isVisible()).toBe(true);
    const correo = await waitForMail(inject('dataDir'), (m) => m.text.includes(mensaje));
    expect(correo?.subject).toContain('Reclamo');
  });

  it("keeps the message and notifies 'Hubo un error al enviar el correo', at most 3 notifications at once", async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto('/ayuda');
    await page.getByLabel('Mensaje').fill('Mensaje que no llega');
    await page.route(AYUDA, responder(500, { detail: 'Error' }));
    const boton = page.getByRole('button', { name: 'Enviar' });
    const alertas = page.locator('.notificaciones [role="alert"]');
    await boton.click();
    await expect.poll(() => alertas.allTextContents()).toEqual(['Hubo un error al enviar el correo×']);
    expect(await alertas.first().locator('p').textContent()).toBe('Hubo un error al enviar el correo');
    expect(await page.getByLabel('Mensaje').inputValue()).toBe('Mensaje que no llega');
    await page.unroute(AYUDA);
    await page.route(AYUDA, sinRespuesta);
    for (let i = 2; i <= 4; i++) {
      await boton.click();
      await expect.poll(() => boton.isEnabled()).toBe(true);
    }
    await expect.poll(() => alertas.count()).toBe(3);
    await alertas.first().getByRole('button', { name: 'Cerrar notificación' }).click();
    // The fourth takes the freed place.
    await expect.poll(() => alertas.count()).toBe(3);
    await alertas.first().getByRole('button', { name: 'Cerrar notificación' }).click();
    await expect.poll(() => alertas.count()).toBe(2);
  });
});

describe('/ayuda with an expired session', () => {
  it('renews the access token once and sends the message', async () => {
    const page = await abrir(browser);
    await ingresar(page);
    await page.goto('/ayuda');
    // The server refuses this token: the client renews with the refresh cookie and retries once.
    await page.context().addCookies([{ name: 'ed_access', value: 'caducado', url: url('/') }]);
    let renovaciones = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/auth/renovar_token/')) renovaciones++;
    });
    await page.getByLabel('Mensaje').fill('Después de un rato sin actividad');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Mensaje enviado!' }).isVisible()).toBe(true);
    expect(renovaciones).toBe(1);
  });
});
