/**
 * Saved items and collections in Chromium (issue 35), without JavaScript: Ana saves a manual from
 * its page, finds it in 'Mis guardados', puts it in a new collection with a note, shares it; Luis
 * opens the link and copies it into his own. Screenshots at 1280 and 375 px.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, MOBILE } from '../support/browser.ts';
import { leerZip } from '../support/zip.ts';
import {
  abrirComo,
  apiComo,
  correoNuevo,
  docenteActivo,
  ingresarPorApi,
  manualPorApi,
  materialPorApi,
  navegador,
  violacionesGraves,
} from './helpers.ts';

let browser: Browser;
/** Ana's shared collection, made by the first test. */
let coleccionAna = '';
const ana = { email: correoNuevo('colecciones.ana'), password: 'Docente2026' };
const luis = { email: correoNuevo('colecciones.luis'), password: 'Docente2026' };
const titulo = `Manual de fracciones ${Date.now().toString(36)}`;

beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(ana.email, ana.password);
  await docenteActivo(luis.email, luis.password);
});
/** The mochilas unpacked by sinRed, removed at the end. */
const carpetas: string[] = [];
afterAll(async () => {
  await browser?.close();
  for (const carpeta of carpetas) rmSync(carpeta, { recursive: true, force: true });
});

/** A page signed in as `quien`, without JavaScript: every step is a plain form. */
async function sinScript(quien: { email: string; password: string }, viewport = DESKTOP): Promise<Page> {
  const contexto = await browser.newContext({ baseURL: inject('baseUrl'), viewport, locale: 'es-CL', javaScriptEnabled: false });
  contexto.setDefaultTimeout(15_000);
  const page = await contexto.newPage();
  await ingresarPorApi(page, quien);
  return page;
}

async function capturas(page: Page, nombre: string) {
  await page.screenshot({ path: `/tmp/colecciones-${nombre}-1280.png`, fullPage: true });
  await page.setViewportSize(MOBILE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `/tmp/colecciones-${nombre}-375.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

describe('guardar, coleccionar, compartir, copiar', () => {
  it('works end to end without script', { timeout: 120_000 }, async () => {
    const id = await manualPorApi(titulo, 'Capítulos 1 a 3');
    const page = await sinScript(ana);
    await page.goto(`/manuales/${id}`);
    await page.getByRole('button', { name: 'Añadir a guardados' }).click();
    await page.waitForURL(new RegExp(`/manuales/${id}/?$`));
    expect(await page.getByRole('button', { name: 'Quitar de guardados' }).count()).toBe(1);

    await page.goto('/perfil/');
    await page.getByRole('link', { name: 'Mis guardados' }).first().click();
    await page.waitForURL(/\/perfil\/guardados\/?$/);
    expect(await page.getByRole('heading', { name: titulo }).count()).toBe(1);

    await page.getByRole('link', { name: 'Agregar a colección' }).first().click();
    await page.getByLabel('Nombre de la nueva colección').fill('Unidad 2 - 7° básico - Fracciones');
    await page.getByLabel('Nota (opcional)').fill('Leer el capítulo 2 antes de la clase');
    await page.getByRole('button', { name: 'Agregar' }).click();
    await page.getByRole('status').filter({ hasText: 'Agregamos el contenido' }).waitFor();
    const direccion = new URL(page.url()).pathname;
    expect(direccion).toMatch(/^\/colecciones\/\d+\/?$/);
    coleccionAna = direccion.replace(/\/$/, '');

    await page.getByLabel('Compartir con la red').check();
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await page.getByRole('status').filter({ hasText: 'Guardamos los cambios.' }).waitFor();
    expect(await page.getByText('Enlace para compartir:').count()).toBe(1);
    expect(await page.getByLabel('Nota').inputValue()).toBe('Leer el capítulo 2 antes de la clase');

    // Screens and accessibility with script on (the test tool's checks need it), as most people see them.
    const vista = await abrirComo(browser, ana);
    for (const [nombre, ruta] of [
      ['guardados', '/perfil/guardados'],
      ['agregar', `/colecciones/agregar?tipo=manual&id=${id}`],
      ['coleccion', direccion],
    ] as const) {
      await vista.goto(ruta);
      expect(await violacionesGraves(vista)).toEqual([]);
      await capturas(vista, nombre);
    }
    await vista.context().close();

    const colega = await sinScript(luis, MOBILE);
    await colega.goto(direccion);
    expect(await colega.getByRole('heading', { name: 'Unidad 2 - 7° básico - Fracciones' }).count()).toBe(1);
    expect(await colega.getByText('Leer el capítulo 2 antes de la clase').count()).toBe(1);
    await colega.screenshot({ path: '/tmp/colecciones-compartida-375.png', fullPage: true });
    await colega.getByRole('button', { name: 'Copiar a mis colecciones' }).click();
    await colega.getByRole('status').filter({ hasText: 'Copiamos la colección' }).waitFor();
    expect(await colega.getByRole('heading', { name: 'Copia de Unidad 2 - 7° básico - Fracciones' }).count()).toBe(1);
    expect(new URL(colega.url()).pathname).not.toBe(direccion);
    await colega.goto('/colecciones/');
    expect(await colega.getByRole('link', { name: 'Copia de Unidad 2 - 7° básico - Fracciones' }).count()).toBe(1);

    // Ana's profile shows Luis what she shares.
    const { id: idAna } = await apiComo(ana);
    await colega.goto(`/perfil/${idAna}`);
    expect(await colega.locator('.perfil-colecciones').getByRole('link', { name: 'Unidad 2 - 7° básico - Fracciones' }).count()).toBe(1);
    await colega.context().close();
    await page.context().close();
  });

  it('downloads as a mochila whose index.html works from file:// with no request leaving it', { timeout: 60_000 }, async () => {
    expect(coleccionAna).not.toBe('');
    const page = await sinScript(ana);
    await page.goto(coleccionAna);
    const boton = page.getByRole('link', { name: /^Descargar mochila \(/ });
    expect(await boton.textContent()).toMatch(/Descargar mochila \([\d,.]+ (B|KB|MB)/);
    const local = await sinRed(page, boton, 'Unidad 2 - 7° básico - Fracciones');
    expect(await local.getByText('Leer el capítulo 2 antes de la clase').count()).toBe(1);
    await local.screenshot({ path: '/tmp/colecciones-mochila-1280.png', fullPage: true });
    await local.context().close();
  });

  it('downloads an OA’s materials as a mochila from the OA’s page, which works from file:// too', { timeout: 60_000 }, async () => {
    const tituloGuia = `Guía de la recta ${Date.now().toString(36)}`;
    const { oa } = await materialPorApi(tituloGuia, 'Ejercicios para llevar');
    const page = await sinScript(ana);
    await page.goto(`/biblioteca-docente/oa/${encodeURIComponent(oa)}`);
    const boton = page.getByRole('link', { name: /^Descargar mochila del OA \(/ });
    expect(await boton.textContent()).toMatch(/Descargar mochila del OA \([\d,.]+ (B|KB|MB)/);
    await page.screenshot({ path: '/tmp/colecciones-mochila-oa-pagina-1280.png', fullPage: true });
    const local = await sinRed(page, boton, `Materiales de ${oa}`);
    expect(await local.getByRole('heading', { name: tituloGuia }).count()).toBe(1);
    await local.screenshot({ path: '/tmp/colecciones-mochila-oa-1280.png', fullPage: true });
    await local.context().close();
  });
});

/**
 * Downloads the mochila `boton` offers, unpacks it into a folder and opens its index.html from
 * file:// in an offline context, as on a school's lab computer: headed `titulo`, no script, every
 * link inside the folder and resolving, and no request leaving it. The page, left open for more
 * checks (the caller closes its context); the folder goes when the test file ends.
 */
async function sinRed(page: Page, boton: Locator, titulo: string): Promise<Page> {
  const [descarga] = await Promise.all([page.waitForEvent('download'), boton.click()]);
  const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-mochila-'));
  carpetas.push(carpeta);
  const destino = path.join(carpeta, 'mochila.zip');
  await descarga.saveAs(destino);
  for (const [ruta, datos] of await leerZip(readFileSync(destino))) {
    mkdirSync(path.dirname(path.join(carpeta, ruta)), { recursive: true });
    writeFileSync(path.join(carpeta, ruta), datos);
  }
  await page.context().close();

  const contexto = await browser.newContext({ offline: true, viewport: DESKTOP });
  const local = await contexto.newPage();
  const pedidos: string[] = [];
  local.on('request', (r) => pedidos.push(r.url()));
  await local.goto(pathToFileURL(path.join(carpeta, 'index.html')).href);
  expect(await local.getByRole('heading', { level: 1 }).textContent()).toBe(titulo);
  expect(await local.locator('script').count()).toBe(0);
  const enlaces = await local.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(enlaces.length).toBeGreaterThan(0);
  for (const href of enlaces) {
    expect(href.startsWith(pathToFileURL(carpeta).href)).toBe(true);
    expect(existsSync(fileURLToPath(href))).toBe(true);
  }
  expect(pedidos.filter((u) => !u.startsWith('file://'))).toEqual([]);
  return local;
}
