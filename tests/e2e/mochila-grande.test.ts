/**
 * A large mochila in Chromium without JavaScript (issue 35, decision 0076), on a server of its own
 * whose MOCHILA_DIRECTA_MB is 0, so every mochila goes through the background job: the collection's
 * page offers 'Preparar mochila' with its size, then shows the build's progress and reloads by
 * itself until the download is there; the bell says it is ready; the ZIP holds the file.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP } from '../support/browser.ts';
import { apiClient, signIn } from '../support/client.ts';
import { pdf } from '../support/pdf.ts';
import { ADMIN, type RunningServer, removeDir, startServer } from '../support/server.ts';
import { leerZip } from '../support/zip.ts';
import { materialPorApi, navegador } from './helpers.ts';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([navegador(), startServer({ env: { MOCHILA_DIRECTA_MB: '0' } })]);
});
afterAll(async () => {
  await browser?.close();
  if (server) {
    await server.stop();
    removeDir(server.dataDir);
  }
});

/** A collection of the admin's with one uploaded material and a note; its id. */
async function coleccionConMaterial(): Promise<number> {
  const api = apiClient(server.url, (await signIn(server.url, ADMIN)).access);
  const material = await materialPorApi('Guía de fracciones en la recta', 'Ejercicios para 7° básico', api, pdf(3, 100_000));
  const { data: coleccion } = await api.POST('/api/colecciones/', {
    body: { nombre: 'Unidad 2 - Fracciones', descripcion: 'Para el laboratorio', compartida: false },
  });
  const agregado = await api.POST('/api/colecciones/{id}/items/', {
    params: { path: { id: coleccion?.id ?? 0 } },
    body: { tipo: 'material', id: material.id, nota: 'Imprimir antes de la clase' },
  });
  expect(agregado.response.status).toBe(201);
  return coleccion?.id ?? 0;
}

describe('a large mochila', () => {
  it('is prepared in the background: size, progress that reloads by itself, the bell, then the download', {
    timeout: 120_000,
  }, async () => {
    const id = await coleccionConMaterial();
    const contexto = await browser.newContext({ baseURL: server.url, viewport: DESKTOP, locale: 'es-CL', javaScriptEnabled: false });
    const page = await contexto.newPage();
    expect((await page.request.post('/auth/login/', { data: ADMIN })).status()).toBe(200);
    await page.goto(`/colecciones/${id}`);
    const preparar = page.getByRole('button', { name: /^Preparar mochila \([\d,.]+ KB, 1 elemento\)$/ });
    expect(await preparar.count()).toBe(1);
    expect(await page.getByRole('link', { name: /^Descargar mochila/ }).count()).toBe(0);

    const [respuesta] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/colecciones/${id}`)), preparar.click()]);
    const estado = page.locator('.mochila [role="status"]');
    if ((await estado.count()) > 0) {
      // Still being built: the page says how far, and asks the browser to reload it.
      expect(await estado.textContent()).toMatch(/Estamos preparando tu mochila: \d+ %/);
      expect(respuesta.headers().refresh).toBe('5');
      expect(await page.getByRole('link', { name: 'Actualizar' }).count()).toBe(1);
    }
    // The server's worker builds it; the page reloads by itself (no script) until the download is there.
    const descargar = page.getByRole('link', { name: /^Descargar mochila \(/ });
    await descargar.waitFor({ timeout: 60_000 });
    await page.screenshot({ path: '/tmp/mochila-grande-lista-1280.png', fullPage: true });
    const [descarga] = await Promise.all([page.waitForEvent('download'), descargar.click()]);
    expect(descarga.suggestedFilename()).toBe('Mochila - Unidad 2 - Fracciones.zip');
    const archivos = await leerZip(readFileSync(await descarga.path()));
    expect([...archivos.keys()].sort()).toEqual(['index.html', 'materiales/01-guia-de-fracciones-en-la-recta.pdf']);
    expect(archivos.get('index.html')?.toString()).toContain('Imprimir antes de la clase');

    // The bell's notification leads back to the collection.
    await page.goto('/notificaciones/');
    await page.getByRole('link', { name: 'Tu mochila «Unidad 2 - Fracciones» está lista' }).click();
    await page.waitForURL((u) => u.pathname === `/colecciones/${id}`);
    await contexto.close();
  });
});
