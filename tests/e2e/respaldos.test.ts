/**
 * /admin/respaldos in a browser (issue 28): an admin makes a backup with 'Crear respaldo', sees it
 * listed with its size and date, and downloads it through the link (the session cookie is
 * enough); a teacher gets 403.
 */
import { statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abrirComo, correoNuevo, docenteActivo, hidratada, navegador, toast } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

describe('/admin/respaldos', () => {
  it("makes a backup with 'Crear respaldo', lists it with size and date, and downloads it", async () => {
    const page = await abrirComo(browser);
    await page.goto('/admin/respaldos');
    await hidratada(page);
    const antes = await page.locator('tbody tr').count();
    await page.getByRole('button', { name: 'Crear respaldo' }).click();
    await toast(page, 'Respaldo creado: respaldo-');
    await page.waitForLoadState('load');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(antes + 1);
    const fila = page.locator('tbody tr').first();
    expect(await fila.locator('td.numero').textContent()).toMatch(/^\d+(,\d)? (KB|MB)$/);
    const enlace = fila.getByRole('link', { name: /^Descargar respaldo-/ });
    const nombre = (await enlace.textContent())?.replace('Descargar ', '') ?? '';
    const [descarga] = await Promise.all([page.waitForEvent('download'), enlace.click()]);
    expect(descarga.suggestedFilename()).toBe(nombre);
    expect(statSync(await descarga.path()).size).toBeGreaterThan(10_000);
  });

  it("answers a teacher 403 and 'No tienes permisos'", async () => {
    const email = correoNuevo('docente.respaldos');
    await docenteActivo(email, 'Docente2026');
    const page = await abrirComo(browser, { email, password: 'Docente2026' });
    const respuesta = await page.goto('/admin/respaldos');
    expect(respuesta?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No tienes permisos');
  });
});
