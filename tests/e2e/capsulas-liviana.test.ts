/**
 * Descargar on a capsule's page (issue 20): the original and the light version (a 234p MP4 the
 * video job makes for watching offline), both plain links with their sizes in a list named
 * 'Descargar', that download with or without JavaScript, at desktop and phone widths. A capsule
 * whose light version would weigh no less than its original offers the original alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE } from '../support/browser.ts';
import { ffprobe, video } from '../support/video.ts';
import {
  ANCHOS,
  apiComo,
  correoNuevo,
  docenteActivo,
  ingresarPorApi,
  navegador,
  PROCESO_MS,
  publicarCapsula,
  url,
  violacionesGraves,
} from './helpers.ts';

let browser: Browser;
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-liviana-e2e-'));
const CLAVE = 'Docente2026';
let docente: { email: string; password: string };
let pesada: { id: number; titulo: string; tamano: number; tamano_liviana: number };

/** Uploads a capsule through the API as an admin and waits until its video job is done. */
async function publicar(titulo: string, data: Buffer) {
  const { api } = await apiComo();
  const capsula = await publicarCapsula(api, { titulo, descripcion: 'Para ver sin conexión en la sala.', video: data });
  return { id: capsula.id, titulo, tamano: capsula.tamano, tamano_liviana: capsula.tamano_liviana ?? 0 };
}

beforeAll(async () => {
  browser = await navegador();
  docente = { email: correoNuevo('liviana.docente'), password: CLAVE };
  await docenteActivo(docente.email, CLAVE);
  pesada = await publicar(
    `Clase para la sala sin conexión ${Date.now()}`,
    await video({ width: 1280, height: 720, seconds: 6, grano: true }),
  );
}, PROCESO_MS + 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

async function abrirCapsula(id: number, viewport = MOBILE, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ baseURL: url('/'), viewport, locale: 'es-CL', javaScriptEnabled });
  const page = await context.newPage();
  await ingresarPorApi(page, docente);
  const respuesta = await page.goto(`/capsulas/${id}`);
  expect(respuesta?.status()).toBe(200);
  return page;
}

/** 'N,N MB' or 'N KB' as the page writes sizes. */
const tamano = String.raw`\d+(,\d)? (KB|MB)`;

describe('Descargar offers the light version beside the original', () => {
  for (const [nombre, viewport] of ANCHOS) {
    it(`both choices, with their sizes, in a list named Descargar (${nombre})`, async () => {
      expect(pesada.tamano_liviana).toBeGreaterThan(0);
      expect(pesada.tamano_liviana).toBeLessThan(pesada.tamano / 4);
      const page = await abrirCapsula(pesada.id, viewport);
      const lista = page.getByRole('list', { name: 'Descargar' });
      const enlaces = lista.getByRole('link');
      expect(await enlaces.count()).toBe(2);
      expect(await enlaces.nth(0).textContent()).toMatch(new RegExp(`^\\s*Original \\(${tamano}\\)\\s*$`));
      expect(await enlaces.nth(1).textContent()).toMatch(new RegExp(`^\\s*Versión liviana \\(234p, ${tamano}\\)\\s*$`));
      expect(await enlaces.nth(0).getAttribute('href')).toBe(`/api/capsulas/${pesada.id}/descargar/`);
      expect(await enlaces.nth(1).getAttribute('href')).toBe(`/api/capsulas/${pesada.id}/descargar/?version=liviana`);
      // Both visible and inside the page's width: nothing to scroll sideways for.
      for (const enlace of [enlaces.nth(0), enlaces.nth(1)]) {
        const caja = await enlace.boundingBox();
        expect(caja?.x).toBeGreaterThanOrEqual(0);
        expect((caja?.x ?? 0) + (caja?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await violacionesGraves(page)).toEqual([]);
      await lista.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(os.tmpdir(), `ed-capsula-liviana-${viewport.width}.png`) });
    });
  }

  it('puts the light version first, as the filled button, when the data saver is on (Save-Data)', async () => {
    const context = await browser.newContext({
      baseURL: url('/'),
      viewport: MOBILE,
      locale: 'es-CL',
      extraHTTPHeaders: { 'Save-Data': 'on' },
    });
    const page = await context.newPage();
    await ingresarPorApi(page, docente);
    expect((await page.goto(`/capsulas/${pesada.id}`))?.status()).toBe(200);
    const enlaces = page.getByRole('list', { name: 'Descargar' }).getByRole('link');
    expect(await enlaces.count()).toBe(2);
    expect(await enlaces.nth(0).textContent()).toMatch(new RegExp(`^\\s*Versión liviana \\(234p, ${tamano}\\)\\s*$`));
    expect(await enlaces.nth(1).textContent()).toMatch(new RegExp(`^\\s*Original \\(${tamano}\\)\\s*$`));
    // The first is the filled button, the other outlined, as without the data saver the other way round.
    const clases = await enlaces.evaluateAll((es) => es.map((e) => e.className));
    expect(clases[0]).not.toContain('secundario');
    expect(clases[1]).toContain('secundario');
    await context.close();
  });

  it('downloads the light version, a 234p H.264 MP4 with sound named after the title', async () => {
    const page = await abrirCapsula(pesada.id);
    const enlace = page.getByRole('list', { name: 'Descargar' }).getByRole('link', { name: /Versión liviana/ });
    const [descarga] = await Promise.all([page.waitForEvent('download'), enlace.click()]);
    expect(descarga.suggestedFilename()).toBe(`${pesada.titulo} (liviana).mp4`);
    const file = path.join(carpeta, 'descargada.mp4');
    await descarga.saveAs(file);
    const sonda = ffprobe(file);
    expect(sonda.video).toMatchObject({ codec_name: 'h264', height: 234 });
    expect(sonda.audio).toMatchObject({ codec_name: 'aac' });
    expect(Math.abs(sonda.duration - 6)).toBeLessThan(0.1);
  });

  it('works without JavaScript: the links are plain downloads', async () => {
    const page = await abrirCapsula(pesada.id, MOBILE, false);
    const enlace = page.getByRole('list', { name: 'Descargar' }).getByRole('link', { name: /Versión liviana/ });
    const [descarga] = await Promise.all([page.waitForEvent('download'), enlace.click()]);
    expect(descarga.suggestedFilename()).toBe(`${pesada.titulo} (liviana).mp4`);
    expect(await descarga.failure()).toBeNull();
  });

  it('offers the original alone when the light version would weigh no less', { timeout: PROCESO_MS + 30_000 }, async () => {
    // Flat test patterns: x264 keeps the original smaller than the light version's fixed bit rate.
    const liviana = await publicar(`Patrones de prueba ${Date.now()}`, await video({ width: 640, height: 360, seconds: 3 }));
    expect(liviana.tamano_liviana).toBeGreaterThanOrEqual(liviana.tamano);
    const page = await abrirCapsula(liviana.id);
    expect(await page.getByRole('list', { name: 'Descargar' }).count()).toBe(0);
    const enlaces = page.getByRole('link', { name: /Descargar/ });
    expect(await enlaces.count()).toBe(1);
    expect(await enlaces.textContent()).toMatch(new RegExp(`^\\s*Descargar \\(${tamano}\\)\\s*$`));
  });
});
