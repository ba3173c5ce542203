/**
 * Manuals in Chromium (docs/SPEC.md sections 2, 4, 5, 8): an admin uploads a PDF through the
 * page (every validation message first), edits and deletes it; a teacher has no 'Subir' (and
 * 'No tienes permisos' on the upload URL), reads the PDF inline, likes, comments, replies and
 * downloads; the list searches by title and area with the URL holding the filters.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE } from '../support/browser.ts';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import {
  abrirComo,
  apiComo,
  comprobarVariante,
  correoNuevo,
  docenteActivo,
  hidratada,
  ingresarPorApi,
  mensajeDe,
  navegador,
  retener,
  toast,
  url,
  violacionesGraves,
} from './helpers.ts';

let browser: Browser;
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-manuales-e2e-'));
const archivo = (nombre: string) => path.join(carpeta, nombre);
const docente = { email: correoNuevo('manuales.docente'), password: 'Docente2026' };

let contador = 0;
/**
 * A title no other manual has (the server is new for each run), so a search or a list finds only
 * this test's; its word of one length, so none is part of another.
 */
const tituloNuevo = () => `Guía de evaluación formativa zq${String(++contador).padStart(2, '0')} en Matemática`;
/** The word of a title that only that title has. */
const marca = (titulo: string) => titulo.split(' ').at(-3) ?? '';

beforeAll(async () => {
  browser = await navegador();
  writeFileSync(archivo('manual.pdf'), pdf(3));
  writeFileSync(archivo('no-es-pdf.pdf'), 'solo texto con nombre de pdf');
  await docenteActivo(docente.email, docente.password);
});
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

/** Uploads a 3-page manual as the admin's form would; returns its id and title. */
async function manualPorApi(area = 'Matemática'): Promise<{ id: number; titulo: string }> {
  const { api } = await apiComo();
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const idArea = areas.find((a) => a.nombre === area)?.id;
  if (!idArea) throw new Error(`no area ${area}`);
  const titulo = tituloNuevo();
  const { data, response } = await api.POST('/api/manuales/', {
    body: {
      titulo,
      descripcion: 'Cómo usar **rúbricas** y retroalimentación en clases de matemática.',
      id_area: idArea,
      archivo: 'manual.pdf',
    },
    bodySerializer: multipart({ data: pdf(3), name: 'manual.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
  return { id: data?.id ?? 0, titulo };
}

/** Fills the upload form but its file. */
async function completar(page: Page, titulo: string) {
  await page.getByLabel('Título', { exact: true }).fill(titulo);
  await page.getByLabel('Área').selectOption({ label: 'Matemática' });
  await page.getByLabel('Descripción', { exact: true }).fill('Cómo usar **rúbricas** y retroalimentación en clases de matemática.');
}

describe('as an admin', () => {
  it("shows 'Subir' and a list headed 'Novedades'", async () => {
    const page = await abrirComo(browser);
    await page.goto(url('/manuales/'));
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toContain('Novedades');
    await page.getByRole('link', { name: 'Subir' }).click();
    await page.waitForURL(url('/manuales/subir'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Subir manual');
  });

  it('says every validation message of docs/SPEC.md on an empty or wrong form', async () => {
    const page = await abrirComo(browser);
    await page.goto(url('/manuales/subir'));
    await hidratada(page);
    await page.getByRole('button', { name: 'Guardar' }).click();
    expect(await mensajeDe(page, 'Título')).toBe('Debe ingresar un título');
    expect(await mensajeDe(page, 'Área')).toBe('Debe ingresar una area');
    expect(await mensajeDe(page, 'Descripción')).toBe('Debe ingresar una descripción');
    expect(await mensajeDe(page, 'Manual (PDF)')).toBe('Debe subir un manual');
    await page.getByLabel('Título', { exact: true }).fill('x'.repeat(151));
    await page.getByLabel('Título', { exact: true }).blur();
    await expect.poll(() => mensajeDe(page, 'Título')).toBe('Puede ingresar hasta 150 caracteres');
  });

  it("refuses a file that is not a PDF on the server, keeping the form ('No se pudo subir el manual')", async () => {
    const titulo = tituloNuevo();
    const page = await abrirComo(browser);
    await page.goto(url('/manuales/subir'));
    await hidratada(page);
    await completar(page, titulo);
    // The browser calls it application/pdf by its name; its bytes are text.
    await page.locator('#archivo').setInputFiles(archivo('no-es-pdf.pdf'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'No se pudo subir el manual');
    expect(await mensajeDe(page, 'Manual (PDF)')).toBe('El manual no es válido. Debe subir un archivo .pdf');
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(titulo);
  });

  it("uploads a PDF with 'Subiendo manual' and a toast, then shows it in the list", async () => {
    const titulo = tituloNuevo();
    const page = await abrirComo(browser);
    await page.goto(url('/manuales/subir'));
    await hidratada(page);
    await completar(page, titulo);
    await page.locator('#archivo').setInputFiles(archivo('manual.pdf'));
    expect(await page.locator('.archivo-elegido').textContent()).toContain('manual.pdf');
    const subiendo = page.getByText(/Subiendo manual/).waitFor();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await subiendo;
    await page.waitForURL(url('/manuales/'));
    await toast(page, `Manual ${titulo} agregado exitosamente!`);
    const tarjeta = page.locator('.tarjeta-contenido', { hasText: titulo });
    expect(await tarjeta.count()).toBe(1);
    // Card title cut at 65 characters (docs/SPEC.md section 9) with the whole title kept as its tooltip.
    expect(await tarjeta.locator('h3 a').getAttribute('title')).toBe(titulo);
    expect(Number((await tarjeta.locator('h3 a').getAttribute('href'))?.split('/').at(-1))).toBeGreaterThan(0);
  });

  it('opens the detail with thumbnail, area badge, size and pages, Editar and Eliminar', async () => {
    const { id, titulo } = await manualPorApi();
    const page = await abrirComo(browser);
    await page.goto(url(`/manuales/${id}`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(titulo);
    expect(await page.locator('.etiquetas li').first().textContent()).toBe('Matemática');
    expect(await page.locator('.descripcion-rica strong').textContent()).toBe('rúbricas');
    expect(await page.locator('a.descargar').textContent()).toMatch(/Descargar \(.+, 3 páginas\)/);
    const ancho = await page.locator('img.miniatura-detalle').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth);
    expect(ancho).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Editar' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Eliminar', exact: true }).isVisible()).toBe(true);
    expect(await violacionesGraves(page)).toEqual([]);
  });

  it("edits title, area and description with 'Subiendo cambios' and goes back to the manual", async () => {
    const { id, titulo } = await manualPorApi();
    const page = await abrirComo(browser);
    await page.goto(url(`/manuales/${id}`));
    await page.getByRole('link', { name: 'Editar' }).click();
    await page.waitForURL(url(`/manuales/editar/${id}`));
    await hidratada(page);
    expect(await page.getByLabel('Autor').inputValue()).not.toBe('');
    expect(await page.getByLabel('Autor').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Área').locator('option:checked').textContent()).toBe('Matemática');
    await page.getByLabel('Título', { exact: true }).fill(`${titulo} (2ª edición)`);
    await page.getByLabel('Área').selectOption({ label: 'Ciencias Naturales' });
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url(`/manuales/${id}`));
    await toast(page, `Manual ${titulo} (2ª edición) editado exitosamente!`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${titulo} (2ª edición)`);
    expect(await page.locator('.etiquetas li').first().textContent()).toBe('Ciencias Naturales');
  });
});

describe('the list’s thumbnails (issue 15)', () => {
  /** One card a row (phones at 1, 1.75 and 2 pixels per point, a small tablet), then two, three and four. */
  const ventanas = [
    { width: 375, height: 740, deviceScaleFactor: 1 },
    { width: 412, height: 823, deviceScaleFactor: 1.75 },
    { width: 540, height: 800, deviceScaleFactor: 1 },
    { width: 700, height: 800, deviceScaleFactor: 2 },
    { width: 820, height: 800, deviceScaleFactor: 1 },
    { width: 1000, height: 800, deviceScaleFactor: 1 },
    { width: 1280, height: 800, deviceScaleFactor: 1 },
    { width: 1600, height: 900, deviceScaleFactor: 1 },
  ];

  it('load a WebP variant whose width the sizes attribute predicts from the CSS, the first at once and the rest lazily', async () => {
    for (let i = 0; i < 3; i++) await manualPorApi();
    for (const { width, height, deviceScaleFactor } of ventanas) {
      const context = await browser.newContext({ baseURL: url('/'), viewport: { width, height }, deviceScaleFactor, locale: 'es-CL' });
      const page = await context.newPage();
      await ingresarPorApi(page, docente);
      await page.goto(url('/manuales/'));
      const imagenes = page.locator('ul.contenidos .tarjeta-contenido > img');
      expect(await imagenes.count()).toBeGreaterThanOrEqual(3);
      const atributos = (n: number) =>
        imagenes.nth(n).evaluate((img: HTMLImageElement) => [img.loading, img.fetchPriority, img.width, img.height].join(' '));
      expect(await atributos(0)).toMatch(/^eager high \d+ \d+$/);
      expect(await atributos(2)).toMatch(/^lazy auto \d+ \d+$/);
      const primera = imagenes.first();
      await expect.poll(() => primera.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      const ventana = `${width}x${height} @${deviceScaleFactor}`;
      const elegida = await comprobarVariante(primera, { width, height, deviceScaleFactor });
      const tipo = await page.evaluate(async (u) => (await fetch(u)).headers.get('content-type'), elegida);
      expect(tipo, ventana).toBe('image/webp');
      await context.close();
    }
  });
});

describe('as a teacher', () => {
  it("sees no 'Subir', and 'No tienes permisos' on the upload page", async () => {
    const page = await abrirComo(browser, docente);
    await page.goto(url('/manuales/'));
    expect(await page.getByRole('link', { name: 'Subir' }).count()).toBe(0);
    const respuesta = await page.goto(url('/manuales/subir'));
    expect(respuesta?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No tienes permisos');
  });

  it("searches by title without accents and by area, heading 'Resultados', the URL holding the filters", async () => {
    const { titulo } = await manualPorApi('Ciencias Naturales');
    const page = await abrirComo(browser, docente);
    await page.goto(url('/manuales/'));
    await page.getByLabel('Buscar', { exact: true }).fill(`evaluacion formativa ${marca(titulo)}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/titulo=evaluacion/);
    expect(page.url()).not.toContain('tamano_pagina');
    expect(await page.locator('#titulo-resultados').textContent()).toContain('Resultados');
    expect(await page.locator('.tarjeta-contenido').count()).toBe(1);
    await page.getByLabel('Área').selectOption({ label: 'Matemática' });
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/area=/);
    expect(await page.locator('.sin-resultados > p').first().textContent()).toBe('No se encontraron manuales');
    await page.getByRole('link', { name: 'Limpiar' }).click();
    await page.waitForURL(url('/manuales/'));
    expect(await page.locator('#titulo-resultados').textContent()).toContain('Novedades');
  });

  it('reads the PDF inline in the browser, without Editar or Eliminar', async () => {
    const { id } = await manualPorApi();
    const page = await abrirComo(browser, docente);
    await page.goto(url(`/manuales/${id}`));
    expect(await page.getByRole('link', { name: 'Editar' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Eliminar', exact: true }).count()).toBe(0);
    const leer = page.getByRole('link', { name: 'Leer', exact: true });
    expect(await leer.getAttribute('target')).toBe('_blank');
    const respuesta = await page.request.get(url((await leer.getAttribute('href')) ?? ''));
    expect(respuesta.status()).toBe(200);
    expect(respuesta.headers()['content-type']).toBe('application/pdf');
    expect(respuesta.headers()['content-disposition']).toMatch(/^inline;/);
  });

  it('likes and unlikes: the count moves by one', async () => {
    const { id } = await manualPorApi();
    const page = await abrirComo(browser, docente);
    await page.goto(url(`/manuales/${id}`));
    const boton = page.getByRole('button', { name: /Me gusta/ });
    await expect.poll(() => boton.isEnabled()).toBe(true);
    expect(await boton.getAttribute('aria-pressed')).toBe('false');
    const antes = Number(await boton.locator('.conteo').textContent());
    await boton.click();
    await expect.poll(() => boton.getAttribute('aria-pressed')).toBe('true');
    expect(Number(await boton.locator('.conteo').textContent())).toBe(antes + 1);
    await boton.click();
    await expect.poll(() => boton.getAttribute('aria-pressed')).toBe('false');
    expect(Number(await boton.locator('.conteo').textContent())).toBe(antes);
  });

  it('keeps a comment typed before the comments woke up (a slow link), and publishes it', async () => {
    const { id } = await manualPorApi();
    const page = await abrirComo(browser, docente);
    // The island's code is held: the box the server drew is all there is for now.
    const soltar = await retener(page, '**/_astro/ComentariosRecurso*.js');
    await page.goto(url(`/manuales/${id}`));
    const caja = page.getByLabel('Escribe un comentario');
    await caja.scrollIntoViewIfNeeded();
    await caja.fill('Escrito antes de que cargara la página');
    expect(await page.locator('astro-island[ssr]').count()).toBeGreaterThan(0);
    soltar();
    await hidratada(page);
    expect(await caja.inputValue()).toBe('Escrito antes de que cargara la página');
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    await page.locator('article.comentario', { hasText: 'Escrito antes de que cargara la página' }).waitFor();
    expect(await caja.inputValue()).toBe('');
  });

  it("comments and replies: 'Ver 1 respuesta' / 'Ocultar 1 respuesta', a new reply at the top", async () => {
    const { id } = await manualPorApi();
    const page = await abrirComo(browser, docente);
    await page.goto(url(`/manuales/${id}`));
    const caja = page.getByLabel('Escribe un comentario');
    await caja.scrollIntoViewIfNeeded();
    await page.getByText(/Aún no hay comentarios/).waitFor();
    await caja.fill('   ');
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    expect(await page.locator('.caja-comentario small').first().textContent()).toBe('Debe ingresar un comentario');
    await caja.fill('¿Sirve también para 1° medio?');
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    const comentario = page.locator('article.comentario', { hasText: '¿Sirve también para 1° medio?' });
    await comentario.waitFor();
    await comentario.getByRole('button', { name: 'Responder' }).click();
    await page.getByLabel(/Responder a/).fill('Sí, con ajustes.');
    await comentario.getByRole('button', { name: 'Comentar', exact: true }).click();
    await page.getByRole('button', { name: 'Ocultar 1 respuesta' }).waitFor();
    expect(await page.locator('ol.hilo ol.hilo').textContent()).toContain('Sí, con ajustes.');
    await page.getByRole('button', { name: 'Ocultar 1 respuesta' }).click();
    expect(await page.locator('ol.hilo ol.hilo').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Ver 1 respuesta' }).click();
    expect(await page.locator('ol.hilo ol.hilo').isVisible()).toBe(true);
    await page.reload();
    await page.getByRole('button', { name: 'Ver 1 respuesta' }).waitFor();
    expect(await page.locator('.conteo-comentarios').textContent()).toContain('2');
  });

  it('downloads the PDF directly, named after the title', async () => {
    const { id, titulo } = await manualPorApi();
    const page = await abrirComo(browser, docente);
    await page.goto(url(`/manuales/${id}`));
    const descarga = page.waitForEvent('download');
    await page.locator('a.descargar').click();
    const archivoDescargado = await descarga;
    expect(archivoDescargado.suggestedFilename()).toBe(`${titulo}.pdf`);
    const ruta = await archivoDescargado.path();
    expect(readFileSync(ruta).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('downloads and reads after the 15-minute access token expired, renewing the session from the refresh cookie', async () => {
    const { id } = await manualPorApi();
    const page = await abrirComo(browser, docente);
    const cookies = await page.context().cookies();
    const refresh = cookies.find((c) => c.name === 'ed_refresh');
    expect(refresh).toBeDefined();
    // As a browser does once the access cookie has expired: only the refresh cookie is sent.
    const res = await fetch(url(`/api/manuales/${id}/leer/`), { headers: { cookie: `ed_refresh=${refresh?.value}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ed_access='))).toBe(true);
    await res.body?.cancel();
    const sinSesion = await fetch(url(`/api/manuales/${id}/descargar/`));
    expect(sinSesion.status).toBe(401);
    await sinSesion.body?.cancel();
  });

  it("answers 'No se encontró manual' for a missing one, and passes axe at 375 px", async () => {
    const { id } = await manualPorApi();
    const page = await abrirComo(browser, docente);
    const respuesta = await page.goto(url('/manuales/999999'));
    expect(respuesta?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No se encontró manual');
    const movil = await abrirComo(browser, docente, MOBILE);
    for (const ruta of ['/manuales/', `/manuales/${id}`]) {
      await movil.goto(url(ruta));
      expect(await violacionesGraves(movil)).toEqual([]);
    }
  });
});

describe('the owner deletes', () => {
  it("asks first, then 'Manual … eliminado con exito' and the list no longer has it", async () => {
    const { id, titulo } = await manualPorApi();
    const page = await abrirComo(browser);
    await page.goto(url(`/manuales/${id}`));
    const eliminar = page.getByRole('button', { name: 'Eliminar', exact: true });
    await expect.poll(() => eliminar.isEnabled()).toBe(true);
    await eliminar.click();
    const dialogo = page.getByRole('dialog');
    await dialogo.waitFor();
    await dialogo.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await page.waitForURL(url('/manuales/'));
    await toast(page, `Manual ${titulo} eliminado con exito`);
    expect(await page.locator('.tarjeta-contenido', { hasText: titulo }).count()).toBe(0);
    await page.goto(url(`/manuales/?titulo=${marca(titulo)}`));
    expect(await page.locator('.sin-resultados > p').first().textContent()).toBe('No se encontraron manuales');
    expect((await page.goto(url(`/manuales/${id}`)))?.status()).toBe(404);
  });
});
