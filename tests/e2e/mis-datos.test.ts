/**
 * /perfil/mis-datos in a browser (issue 31): a teacher reaches it from their profile, reads what
 * the platform holds about them, asks for a copy ('Solicitar una copia de mis datos', a plain form)
 * and sees it pending, then ready once the server's job has built it, and downloads a ZIP through
 * the link (the session cookie is enough), all without JavaScript.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { leerZip } from '../support/zip.ts';
import { correoNuevo, docenteActivo, ingresarPorApi, navegador } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

describe('/perfil/mis-datos', () => {
  it('lists what is held, and makes a copy that goes from pending to ready and downloads as a ZIP, without JavaScript', async () => {
    const email = correoNuevo('docente.misdatos');
    await docenteActivo(email, 'Docente2026');
    // Without JavaScript: the page and its form are plain HTML.
    const context = await browser.newContext({ baseURL: inject('baseUrl'), javaScriptEnabled: false, locale: 'es-CL' });
    const page = await context.newPage();
    await ingresarPorApi(page, { email, password: 'Docente2026' });

    await page.goto('/perfil/');
    await page.getByRole('link', { name: 'Mis datos' }).click();
    await page.waitForURL((u) => u.pathname === '/perfil/mis-datos');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Mis datos');
    const perfil = page.locator('#datos-perfil');
    expect(await perfil.getByRole('heading', { level: 3 }).textContent()).toMatch(/^Datos de tu perfil \(\d+\)$/);
    expect(await perfil.locator('li').allTextContents()).toContain(`Correo: ${email}`);
    // Signed in through the API: one sign-in, one session, with the address it came from.
    expect(await page.locator('#datos-ingresos li').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('#datos-sesiones h3').textContent()).toMatch(/^Sesiones \([1-9]\d*\)$/);
    // What one saved and collected (issue 35) is part of it, even when there is none yet.
    expect(await page.locator('#datos-guardados h3').textContent()).toBe('Contenido que guardaste (0)');
    expect(await page.locator('#datos-colecciones h3').textContent()).toBe('Tus colecciones (0)');
    expect(await page.getByRole('link', { name: 'Eliminar mi cuenta' }).getAttribute('href')).toBe('/perfil/eliminar-cuenta');

    await page.getByRole('button', { name: 'Solicitar una copia de mis datos' }).click();
    await page.waitForURL((u) => u.searchParams.get('copia') === 'pedida');
    expect(await page.getByRole('status').filter({ hasText: 'Estamos preparando tu copia' }).count()).toBe(1);
    const fila = page.locator('tr[data-copia]').first();
    expect(await fila.getAttribute('data-estado')).toBe('pendiente');
    expect(await fila.locator('td').nth(1).textContent()).toBe('En preparación');
    expect(await page.getByRole('button', { name: 'Solicitar una copia de mis datos' }).isDisabled()).toBe(true);

    // The server's job runner builds it within seconds; the page shows it on the next load.
    await expect
      .poll(
        async () => {
          await page.goto('/perfil/mis-datos');
          return page.locator('tr[data-copia]').first().getAttribute('data-estado');
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe('lista');
    const lista = page.locator('tr[data-copia]').first();
    expect(await lista.locator('td').nth(1).textContent()).toBe('Lista para descargar');
    expect(await lista.locator('.expira').textContent()).toMatch(/^Disponible hasta el /);
    await page.screenshot({ path: '/tmp/mis-datos.png', fullPage: true });

    const enlace = lista.getByRole('link', { name: /^Descargar/ });
    const [descarga] = await Promise.all([page.waitForEvent('download'), enlace.click()]);
    expect(descarga.suggestedFilename()).toMatch(/^mis-datos-\d{4}-\d{2}-\d{2}\.zip$/);
    const entradas = await leerZip(readFileSync(await descarga.path()));
    expect(entradas.get('index.html')?.toString('utf8')).toContain('Tus datos en');
    expect(JSON.parse(entradas.get('datos/perfil.json')?.toString('utf8') ?? '{}').email).toBe(email);
    await context.close();
  });
});
