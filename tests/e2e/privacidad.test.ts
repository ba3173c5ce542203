/**
 * The privacy notice in a browser (issue 31, decision 0057): linked from the sign-in screen and
 * read without signing in, with the responsible party an admin sets in the console; the activation
 * form's required checkbox; and the profile's 'No aparecer en la comunidad' switch, which takes a
 * teacher out of the directory and the contact form (plain form posts, no script needed).
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, MOBILE, newPage } from '../support/browser.ts';
import { apiClient } from '../support/client.ts';
import { ADMIN, removeDir, startServer } from '../support/server.ts';
import { abrir, abrirComo, apiComo, correoNuevo, hidratada, invitar, mensajeDe, navegador, url, violacionesGraves } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const captura = (page: Page, nombre: string) =>
  page.screenshot({ path: path.join(os.tmpdir(), `ed-privacidad-${nombre}.png`), fullPage: true });

describe('the privacy notice', () => {
  it('is linked from the sign-in screen, readable without signing in, and names who the admin set as responsible', async () => {
    const admin = await abrirComo(browser, ADMIN);
    await admin.goto('/admin/privacidad-aviso');
    await hidratada(admin);
    // The same messages as the API's, and nothing saved.
    await admin.getByLabel('Nombre del responsable').fill(' ');
    await admin.getByLabel('Correo de contacto').fill('no-es-correo');
    await admin.getByRole('button', { name: 'Guardar' }).click();
    expect(await mensajeDe(admin, 'Nombre del responsable')).toBe('Debe ingresar el nombre del responsable');
    expect(await mensajeDe(admin, 'Correo de contacto')).toBe('Debe ingresar un correo válido');
    await admin.getByLabel('Nombre del responsable').fill('Red de Docentes de Ñuble');
    await admin.getByLabel('Dirección').fill('Av. Libertad 123, Chillán');
    await admin.getByLabel('Correo de contacto').fill('datos@example.cl');
    await admin.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => admin.getByRole('status').textContent()).toBe('Responsable guardado.');
    expect(await violacionesGraves(admin)).toEqual([]);

    for (const [nombre, viewport] of [
      ['escritorio', DESKTOP],
      ['movil', MOBILE],
    ] as const) {
      const page = await abrir(browser, viewport);
      await page.goto('/ingresar/');
      await page
        .getByRole('link', { name: /aviso de privacidad/ })
        .first()
        .click();
      await page.waitForURL(url('/privacidad'));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Aviso de privacidad');
      expect(await page.locator('[data-responsable="nombre"]').textContent()).toBe('Red de Docentes de Ñuble');
      expect(await page.getByRole('link', { name: 'datos@example.cl' }).first().getAttribute('href')).toBe('mailto:datos@example.cl');
      expect(await page.locator('[data-retencion]').textContent()).toBe('90 días');
      for (const derecho of ['Acceso', 'Rectificación', 'Supresión', 'Oposición', 'Portabilidad', 'Bloqueo']) {
        expect(await page.locator('dt', { hasText: derecho }).count(), derecho).toBe(1);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await violacionesGraves(page)).toEqual([]);
      await captura(page, nombre);
    }
  });
});

describe('activation', () => {
  it('asks to accept the notice, linked beside the checkbox, and then goes straight home', async () => {
    const email = correoNuevo('privacidad.activa');
    const enlace = await invitar(email, 'Paula', 'Aceptación');
    const page = await abrir(browser);
    await page.goto(enlace);
    await hidratada(page);
    const casilla = page.getByLabel('Leí y acepto el aviso de privacidad');
    expect(await page.getByRole('link', { name: 'aviso de privacidad', exact: true }).getAttribute('href')).toBe('/privacidad/');
    await page.getByLabel('Contraseña', { exact: true }).fill('Aula*2026');
    await page.getByLabel('Confirmar contraseña').fill('Aula*2026');
    await page.getByRole('button', { name: 'Crear contraseña y acceder' }).click();
    expect(await mensajeDe(page, 'Leí y acepto el aviso de privacidad')).toBe(
      'Debes aceptar el aviso de privacidad para activar tu cuenta',
    );
    expect(page.url()).toBe(enlace);
    await captura(page, 'activacion');

    await casilla.check();
    await page.getByRole('button', { name: 'Crear contraseña y acceder' }).click();
    // Accepted at activation: no acceptance page on the way in.
    await page.waitForURL(url('/'));
    await page.goto('/perfil/editar');
    expect(new URL(page.url()).pathname).toBe('/perfil/editar');
  });
});

describe('opposition', () => {
  it('the profile switch takes a teacher out of the directory and the contact form, and back', async () => {
    const docente = { email: correoNuevo('privacidad.oculta'), password: 'Docente2026' };
    const enlace = await invitar(docente.email, 'Oriana', 'Oposición Directorio');
    const token = new URL(enlace).pathname.split('/').at(-1) ?? '';
    const activada = await apiClient(inject('baseUrl')).POST('/api/usuarios/activar-cuenta/', {
      body: { token, password: docente.password, password_confirmation: docente.password, acepta_privacidad: true },
    });
    expect(activada.response.status).toBe(200);
    const { id } = await apiComo(docente);
    const page = await abrirComo(browser, docente);
    await page.goto('/perfil/editar#privacidad');
    const interruptor = page.getByRole('switch', { name: 'No aparecer en la comunidad' });
    expect(await interruptor.isChecked()).toBe(false);
    expect(await page.locator('#explicacion-privacidad').textContent()).toContain('No apareces en Comunidad Docente');
    await interruptor.check();
    await page.locator('#privacidad').getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((u) => u.searchParams.get('privacidad') === 'guardado');
    expect(await page.getByRole('switch', { name: 'No aparecer en la comunidad' }).isChecked()).toBe(true);
    expect(await page.locator('#privacidad').getByRole('status').textContent()).toBe('Preferencia guardada.');
    await page.locator('#privacidad').screenshot({ path: path.join(os.tmpdir(), 'ed-privacidad-interruptor.png') });

    const colega = await abrirComo(browser, ADMIN);
    await colega.goto('/comunidad/?profesor=Oriana');
    expect(await colega.locator(`a[href="/comunidad/${id}/contactar"]`).count()).toBe(0);
    await colega.goto(`/comunidad/${id}/contactar`);
    expect(await colega.locator('.alerta').textContent()).toBe('Esta persona eligió no recibir mensajes a través de la plataforma.');
    expect(await colega.getByLabel('Asunto').count()).toBe(0);

    await page.getByRole('switch', { name: 'No aparecer en la comunidad' }).uncheck();
    await page.locator('#privacidad').getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((u) => u.searchParams.get('privacidad') === 'guardado');
    await colega.goto('/comunidad/?profesor=Oriana');
    expect(await colega.locator(`a[href="/comunidad/${id}/contactar"]`).count()).toBe(1);
  });
});

describe('a sign-in before accepting the current notice', () => {
  it('shows the notice first, once, then the page the person was going to', { timeout: 120_000 }, async () => {
    // A server of its own whose first admin has not accepted yet (as every account from before the notice).
    const cuenta = { email: 'primera.admin@example.cl', password: 'Primera2026' };
    const server = await startServer({ env: { ADMIN_EMAIL: cuenta.email, ADMIN_PASSWORD: cuenta.password } });
    try {
      const page = await newPage(browser, server.url);
      await page.goto('/admin/usuarios');
      await page.getByLabel('Correo').fill(cuenta.email);
      await page.getByLabel('Contraseña').fill(cuenta.password);
      await page.getByRole('button', { name: 'Ingresar' }).click();
      await page.waitForURL((u) => u.pathname === '/privacidad/aceptar/');
      expect(new URL(page.url()).searchParams.get('siguiente')).toBe('/admin/usuarios');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Aviso de privacidad');
      // Every other page waits for it.
      await page.goto('/perfil/editar');
      expect(new URL(page.url()).pathname).toBe('/privacidad/aceptar/');
      await page.goto('/privacidad/aceptar/?siguiente=%2Fadmin%2Fusuarios');
      await captura(page, 'aceptar');
      await page.getByRole('button', { name: 'Acepto y continúo' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/usuarios');
      // Asked once: the next pages open directly.
      await page.goto('/perfil/editar');
      expect(new URL(page.url()).pathname).toBe('/perfil/editar');
    } finally {
      await server.stop();
      removeDir(server.dataDir);
    }
  });
});
