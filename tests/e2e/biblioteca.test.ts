/**
 * The Biblioteca Docente in Chromium (issue 5; SPEC.md sections 2, 4, 5, 8, 9): a teacher uploads
 * a PDF and a Word file through the curriculum cascade (level, area, unit, OAs moved between the
 * lists; a new area clears the unit and the OAs), finds them by accent-free search, by the OA
 * filter and on the OA's page, opens the detail (OA selector, like, comments, download), edits
 * and deletes. Another teacher cannot edit. The list works with JavaScript off.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { pdf } from '../support/pdf.ts';
import { zip } from '../support/zip.ts';
import {
  ANCHOS,
  abrir,
  correoNuevo,
  demorar,
  docenteActivo,
  hidratada,
  ingresar,
  mensajeDe,
  toast,
  url,
  violacionesGraves,
} from './helpers.ts';

let browser: Browser;
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-biblioteca-e2e-'));
const archivo = (nombre: string) => path.join(carpeta, nombre);
const CLAVE = 'Docente2026';
let autor: string;
let otro: string;
const sello = Date.now().toString(36);
const TITULO_PDF = `Guía de Matemática, números enteros ${sello}`;
const TITULO_DOCX = `Planificación de ciencias ${sello}`;
let idPdf: number;
let idDocx: number;

beforeAll(async () => {
  browser = await launchBrowser();
  writeFileSync(archivo('guia.pdf'), pdf(2));
  writeFileSync(archivo('planificacion.docx'), zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }));
  writeFileSync(archivo('falsa.docx'), 'texto plano con nombre de Word');
  writeFileSync(archivo('notas.txt'), 'notas');
  autor = correoNuevo('biblioteca.autor');
  otro = correoNuevo('biblioteca.otro');
  await docenteActivo(autor, CLAVE);
  await docenteActivo(otro, CLAVE);
});
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

/** The codes in one of the form's OA lists. */
const codigosEn = (page: Page, lista: 'disponibles' | 'seleccionados') =>
  page.locator(`[data-lista="${lista}"] li summary strong`).allTextContents();

/** Level, area and unit in the form, waiting for each dependent list to load. */
async function elegirCurriculo(page: Page, nivel: string, area: string, unidad: string) {
  await page.getByLabel('Nivel', { exact: true }).selectOption({ label: nivel });
  await page.getByLabel('Área', { exact: true }).selectOption({ label: area });
  await expect.poll(() => page.locator('#id_unidad option').allTextContents()).toContain(unidad);
  await page.getByLabel('Unidad', { exact: true }).selectOption({ label: unidad });
  await expect.poll(() => page.locator('[data-lista="disponibles"] li').count()).toBeGreaterThan(0);
}

/** Chooses the option whose text starts with `inicio` (OA options read 'MA07 OA 01 · Mostrar…'). */
async function elegirOpcion(select: Locator, inicio: string) {
  const texto = await select.locator('option', { hasText: inicio }).first().textContent();
  await select.selectOption({ label: texto ?? inicio });
}

const textos = async (lista: Locator) => (await lista.allTextContents()).map((t) => t.trim());

const idDe = async (page: Page, titulo: string) =>
  Number((await page.locator('.tarjeta-contenido h3 a', { hasText: titulo }).getAttribute('href'))?.split('/').at(-1));

describe('the author', () => {
  let page: Page;
  beforeAll(async () => {
    page = await abrir(browser);
    await ingresar(page, autor, CLAVE);
  });
  afterAll(async () => page.context().close());

  it("sees 'Instructivo' (the PDF guide, in a new tab) and 'Subir', and 'No se encontraron materiales' for no match", async () => {
    await page.goto(url('/biblioteca-docente/'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Biblioteca Docente');
    expect(await page.locator('#titulo-resultados').textContent()).toContain('Novedades');
    const instructivo = page.getByRole('link', { name: /^Instructivo/ });
    expect(await instructivo.getAttribute('href')).toBe('/instructivo.pdf');
    expect(await instructivo.getAttribute('target')).toBe('_blank');
    const guia = await page.request.get(url('/instructivo.pdf'));
    expect(guia.status()).toBe(200);
    expect(guia.headers()['content-type']).toBe('application/pdf');
    expect((await guia.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await page.getByLabel('Buscar', { exact: true }).fill('zzzz inexistente');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/titulo=zzzz/);
    expect(await page.locator('#titulo-resultados').textContent()).toContain('Resultados');
    expect(await page.locator('.sin-resultados').textContent()).toBe('No se encontraron materiales');

    await page.getByRole('link', { name: 'Subir' }).click();
    await page.waitForURL(url('/biblioteca-docente/subir'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Subir material');
  });

  it('says the validation messages of SPEC.md on an empty submit and for a file of another kind', async () => {
    await hidratada(page);
    await page.getByRole('button', { name: 'Guardar' }).click();
    expect(await mensajeDe(page, 'Nivel')).toBe('Debe ingresar un nivel');
    expect(await mensajeDe(page, 'Área')).toBe('Debe ingresar una area');
    expect(await mensajeDe(page, 'Unidad')).toBe('Debe ingresar una unidad');
    expect(await page.locator('#oas-error').textContent()).toBe('Debe ingresar al menos un OA');
    expect(await mensajeDe(page, 'Título')).toBe('Debe ingresar un título');
    expect(await mensajeDe(page, 'Descripción')).toBe('Debe ingresar una descripción');
    expect(await mensajeDe(page, 'Tipo de material')).toBe('Debe especificar el tipo de material docente');
    expect(await mensajeDe(page, 'Archivo')).toBe('Debe subir un material');
    // Focus goes to the first wrong field.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('id_nivel');

    await page.getByLabel('Archivo', { exact: true }).setInputFiles(archivo('notas.txt'));
    await expect.poll(() => mensajeDe(page, 'Archivo')).toBe('El material no es válido. Debe subir un archivo word, pdf, ppt o excel.');
    await page.getByLabel('Título', { exact: true }).fill('x'.repeat(101));
    await page.getByLabel('Título', { exact: true }).blur();
    await expect.poll(() => mensajeDe(page, 'Título')).toBe('Puede ingresar hasta 100 caracteres');
  });

  it('uploads a PDF through the cascade: a new area clears the unit and the OAs, a new unit keeps them', async () => {
    await elegirCurriculo(page, '7° básico', 'Matemática', 'Unidad 1: Números');
    expect(await codigosEn(page, 'disponibles')).toEqual(['MA07 OA 01', 'MA07 OA 02', 'MA07 OA 03', 'MA07 OA 04', 'MA07 OA 05']);
    await page.getByRole('button', { name: 'Agregar MA07 OA 01' }).click();
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 01']);
    expect(await codigosEn(page, 'disponibles')).not.toContain('MA07 OA 01');
    // Focus stays in the list being worked: the next OA's Agregar.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Agregar MA07 OA 02');
    // Each OA opens its full description.
    const oa02 = page.locator('[data-lista="disponibles"] details', { hasText: 'MA07 OA 02' });
    await oa02.locator('summary').click();
    expect(await oa02.locator('p').textContent()).toContain('Explicar la multiplicación y la división de fracciones positivas');

    // SPEC.md section 4: a new area clears the unit and the selected OAs.
    await page.getByLabel('Área', { exact: true }).selectOption({ label: 'Ciencias Naturales' });
    expect(await page.getByLabel('Unidad', { exact: true }).inputValue()).toBe('-1');
    expect(await codigosEn(page, 'seleccionados')).toEqual([]);
    expect(await page.locator('[data-lista="seleccionados"]').textContent()).toContain('Aún no hay OA seleccionados.');
    expect(await page.locator('[data-lista="disponibles"]').textContent()).toContain('Elige una unidad para ver sus OA.');
    await expect.poll(() => page.locator('#id_unidad option').allTextContents()).toContain('Unidad 1');

    await page.getByLabel('Área', { exact: true }).selectOption({ label: 'Matemática' });
    await expect.poll(() => page.locator('#id_unidad option').allTextContents()).toContain('Unidad 1: Números');
    await page.getByLabel('Unidad', { exact: true }).selectOption({ label: 'Unidad 1: Números' });
    await page.getByRole('button', { name: 'Agregar MA07 OA 01' }).click();
    await page.getByRole('button', { name: 'Agregar MA07 OA 02' }).click();
    // Another unit of the same level and area: its OAs become available, the chosen ones stay.
    await page.getByLabel('Unidad', { exact: true }).selectOption({ label: 'Unidad 2: Álgebra y funciones' });
    await expect.poll(() => codigosEn(page, 'disponibles')).toContain('MA07 OA 06');
    await page.getByRole('button', { name: 'Agregar MA07 OA 06' }).click();
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 01', 'MA07 OA 02', 'MA07 OA 06']);
    await page.getByRole('button', { name: 'Quitar MA07 OA 02' }).click();
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 01', 'MA07 OA 06']);

    await page.getByLabel('Título', { exact: true }).fill(TITULO_PDF);
    expect(await page.getByLabel('Autor').inputValue()).toBe('Docente Prueba');
    expect(await page.getByLabel('Autor').getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('Descripción', { exact: true }).fill('Ejercicios con la **recta numérica** para 7° básico.');
    await page.getByLabel('Tipo de material').selectOption({ label: 'Guía' });
    await page.getByLabel('Archivo', { exact: true }).setInputFiles(archivo('guia.pdf'));
    await expect.poll(() => page.locator('#archivo-error').count()).toBe(0);

    // Held for a moment so the progress can be seen.
    await page.route('**/api/bdocente/', demorar(600));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /^Subiendo material… \d+%$/ })
          .count(),
      )
      .toBe(1);
    await page.waitForURL(url('/biblioteca-docente/'));
    await page.unroute('**/api/bdocente/');
    await toast(page, `Material ${TITULO_PDF} agregado exitosamente!`);
    idPdf = await idDe(page, TITULO_PDF);
    expect(idPdf).toBeGreaterThan(0);
  });

  it("uploads a .docx; a file whose bytes are not Word is refused by the server ('No se pudo subir el material')", async () => {
    await page.goto(url('/biblioteca-docente/subir'));
    await hidratada(page);
    await elegirCurriculo(page, '7° básico', 'Ciencias Naturales', 'Unidad 1');
    await page.getByRole('button', { name: 'Agregar CN07 OA 13' }).click();
    await page.getByLabel('Título', { exact: true }).fill(TITULO_DOCX);
    await page.getByLabel('Descripción', { exact: true }).fill('Planificación de la unidad de microorganismos.');
    await page.getByLabel('Tipo de material').selectOption({ label: 'Planificación' });
    await page.getByLabel('Archivo', { exact: true }).setInputFiles(archivo('falsa.docx'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'No se pudo subir el material');
    expect(await mensajeDe(page, 'Archivo')).toBe('El material no es válido. Debe subir un archivo word, pdf, ppt o excel.');
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(TITULO_DOCX);

    await page.getByLabel('Archivo', { exact: true }).setInputFiles(archivo('planificacion.docx'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url('/biblioteca-docente/'));
    await toast(page, `Material ${TITULO_DOCX} agregado exitosamente!`);
    idDocx = await idDe(page, TITULO_DOCX);
    expect(idDocx).toBeGreaterThan(0);
  });

  it("shows cards with the type and area badges, and finds by accent-free text ('matematica' finds 'Matemática')", async () => {
    const tarjeta = page.locator('ul.contenidos > li', { hasText: TITULO_PDF });
    expect(await textos(tarjeta.locator('.etiquetas li'))).toEqual(['Guía', 'Matemática']);
    // The area badge in its area's colour (SPEC.md section 9).
    expect(await tarjeta.locator('.etiquetas li').nth(1).getAttribute('class')).toBe('area-matematica');
    expect(await tarjeta.locator('h3 a').getAttribute('title')).toBe(TITULO_PDF);

    await page.getByLabel('Buscar', { exact: true }).fill(`matematica ${sello}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/titulo=matematica/);
    expect(page.url()).not.toContain('tamano_pagina');
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([TITULO_PDF]);
    await page.getByLabel('Buscar', { exact: true }).fill(`planificacion ${sello}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/titulo=planificacion/);
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([TITULO_DOCX]);
  });

  it('filters by OA: the unit options follow level and area, the OA options follow the unit, the URL keeps them', async () => {
    await page.goto(url('/biblioteca-docente/'));
    await hidratada(page);
    const unidad = page.getByLabel('Unidad', { exact: true });
    const oa = page.getByLabel('OA', { exact: true });
    expect(await unidad.isDisabled()).toBe(true);
    await page.getByLabel('Nivel').selectOption({ label: '7° básico' });
    await page.getByLabel('Área').selectOption({ label: 'Matemática' });
    await expect.poll(() => unidad.isEnabled()).toBe(true);
    await unidad.selectOption({ label: 'Unidad 1: Números' });
    await expect.poll(() => oa.isEnabled()).toBe(true);
    await elegirOpcion(oa, 'MA07 OA 01 · ');
    // A new area clears the unit and the OA.
    await page.getByLabel('Área').selectOption({ label: 'Ciencias Naturales' });
    await expect.poll(() => oa.inputValue()).toBe('-1');
    expect(await oa.isDisabled()).toBe(true);
    await expect.poll(() => unidad.locator('option').allTextContents()).toContain('Unidad 1');
    expect(await unidad.inputValue()).toBe('-1');

    await page.getByLabel('Área').selectOption({ label: 'Matemática' });
    await expect.poll(() => unidad.locator('option').allTextContents()).toContain('Unidad 1: Números');
    await unidad.selectOption({ label: 'Unidad 1: Números' });
    await expect.poll(() => oa.isEnabled()).toBe(true);
    await elegirOpcion(oa, 'MA07 OA 01 · ');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/[?&]oa=\d+/);
    expect(page.url()).toMatch(/id_nivel=07/);
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([TITULO_PDF]);
    // The page rendered from that URL shows the same choices.
    expect(await oa.locator('option:checked').textContent()).toMatch(/^MA07 OA 01 · /);
    expect(await unidad.locator('option:checked').textContent()).toBe('Unidad 1: Números');
  });

  it('opens the detail: badges (each OA links to its page), the OA selector with its description, the unit', async () => {
    await page.goto(url(`/biblioteca-docente/${idPdf}`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TITULO_PDF);
    expect(await textos(page.locator('.ficha .etiquetas li'))).toEqual([
      'Guía',
      '7° básico',
      'Matemática',
      'PDF',
      'MA07 OA 01',
      'MA07 OA 06',
    ]);
    expect(await page.getByRole('link', { name: 'MA07 OA 01', exact: true }).getAttribute('href')).toBe(
      '/biblioteca-docente/oa/MA07%20OA%2001',
    );
    expect(await page.locator('.descripcion-rica strong').textContent()).toBe('recta numérica');
    expect(await page.locator('a.descargar').textContent()).toMatch(/Descargar \(.+, 2 páginas\)/);
    expect(await page.locator('.autor-contenido').textContent()).toContain('Docente Prueba');
    const miniatura = await page.locator('img.miniatura-detalle').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth);
    expect(miniatura).toBeGreaterThan(0);

    const selector = page.getByLabel('Objetivo de aprendizaje');
    expect(await selector.inputValue()).not.toBe('');
    expect(await page.locator('.descripcion-oa:visible').textContent()).toContain('Mostrar que comprenden la adición y la sustracción');
    await selector.selectOption({ label: 'MA07 OA 06' });
    await expect.poll(() => page.locator('.descripcion-oa:visible').textContent()).toContain('Utilizar el lenguaje algebraico');
    expect(await page.locator('.descripcion-oa:visible').count()).toBe(1);
  });

  it('likes and unlikes: the count moves by one', async () => {
    const boton = page.getByRole('button', { name: /Me gusta/ });
    await expect.poll(() => boton.isEnabled()).toBe(true);
    expect(await boton.getAttribute('aria-pressed')).toBe('false');
    await boton.click();
    await expect.poll(() => boton.getAttribute('aria-pressed')).toBe('true');
    expect(await boton.locator('.conteo').textContent()).toBe('1');
    await page.reload();
    await expect.poll(() => boton.isEnabled()).toBe(true);
    expect(await boton.getAttribute('aria-pressed')).toBe('true');
    await boton.click();
    await expect.poll(() => boton.getAttribute('aria-pressed')).toBe('false');
    expect(await boton.locator('.conteo').textContent()).toBe('0');
  });

  it("comments and replies ('Ver 1 respuesta' / 'Ocultar 1 respuesta')", async () => {
    const caja = page.getByLabel('Escribe un comentario');
    await caja.scrollIntoViewIfNeeded();
    await page.getByText(/Aún no hay comentarios/).waitFor();
    await caja.fill('¿Funciona también para 8° básico?');
    await page.getByRole('button', { name: 'Comentar' }).click();
    const comentario = page.locator('article.comentario', { hasText: '¿Funciona también para 8° básico?' });
    await comentario.waitFor();
    await comentario.getByRole('button', { name: 'Responder' }).click();
    await page.getByLabel(/^Responder a /).fill('Sí, con números más grandes.');
    await comentario.getByRole('button', { name: 'Comentar' }).click();
    await page.getByRole('button', { name: 'Ocultar 1 respuesta' }).waitFor();
    expect(await page.locator('ol.hilo ol.hilo').textContent()).toContain('Sí, con números más grandes.');
    await page.getByRole('button', { name: 'Ocultar 1 respuesta' }).click();
    expect(await page.locator('ol.hilo ol.hilo').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Ver 1 respuesta' }).click();
    expect(await page.locator('ol.hilo ol.hilo').isVisible()).toBe(true);
    await page.reload();
    await page.getByRole('button', { name: 'Ver 1 respuesta' }).waitFor();
    expect(await page.locator('.conteo-comentarios').textContent()).toContain('2');
  });

  it("downloads the file named 'titulo.extension'", async () => {
    const descarga = page.waitForEvent('download');
    await page.locator('a.descargar').click();
    const bajado = await descarga;
    expect(bajado.suggestedFilename()).toBe(`${TITULO_PDF}.pdf`);
    expect(
      readFileSync(await bajado.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it("lists the material on its OA's page, reached from the OA badge", async () => {
    await page.getByRole('link', { name: 'MA07 OA 01', exact: true }).click();
    await page.waitForURL(url('/biblioteca-docente/oa/MA07%20OA%2001'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('MA07 OA 01');
    expect((await page.locator('.ruta-oa').textContent())?.trim()).toBe('Matemática · 7° básico · Unidad 1: Números');
    expect(await page.locator('.texto-oa').textContent()).toContain(
      'Mostrar que comprenden la adición y la sustracción de números enteros',
    );
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([TITULO_PDF]);
    // The OA of the other unit, chosen in the same material, lists it too.
    await page.goto(url('/biblioteca-docente/oa/MA07%20OA%2006'));
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([TITULO_PDF]);
    await page.goto(url('/biblioteca-docente/oa/MA07%20OA%2002'));
    expect(await page.locator('.sin-resultados').textContent()).toBe('No se encontraron materiales');
  });

  it('edits it: title, unit and OAs preloaded, no file; saving says so and shows the change', async () => {
    await page.goto(url(`/biblioteca-docente/${idPdf}`));
    await page.getByRole('link', { name: 'Editar' }).click();
    await page.waitForURL(url(`/biblioteca-docente/editar/${idPdf}`));
    await hidratada(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Editar material');
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(TITULO_PDF);
    expect(await page.getByLabel('Nivel', { exact: true }).locator('option:checked').textContent()).toBe('7° básico');
    expect(await page.getByLabel('Área', { exact: true }).locator('option:checked').textContent()).toBe('Matemática');
    expect(await page.getByLabel('Unidad', { exact: true }).locator('option:checked').textContent()).toBe('Unidad 2: Álgebra y funciones');
    expect(await page.getByLabel('Tipo de material').locator('option:checked').textContent()).toBe('Guía');
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 01', 'MA07 OA 06']);
    expect(await codigosEn(page, 'disponibles')).toContain('MA07 OA 07');
    expect(await page.getByLabel('Autor').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Archivo', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Quitar MA07 OA 06' }).click();
    await page.getByRole('button', { name: 'Agregar MA07 OA 07' }).click();
    const nuevo = `${TITULO_PDF} (revisada)`;
    await page.getByLabel('Título', { exact: true }).fill(nuevo);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url(`/biblioteca-docente/${idPdf}`));
    await toast(page, `Material ${nuevo} modificado exitosamente!`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(nuevo);
    const oas = await textos(page.locator('.ficha .etiquetas li.etiqueta-oa'));
    expect(oas).toEqual(['MA07 OA 01', 'MA07 OA 07']);
  });

  it('browses with JavaScript off: the GET form renders the unit and OA options from the URL', async () => {
    const sinScript = await browser.newContext({
      baseURL: url('/'),
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    const p = await sinScript.newPage();
    await p.goto('/biblioteca-docente/');
    await p.getByLabel('Nivel').selectOption({ label: '7° básico' });
    await p.getByLabel('Área').selectOption({ label: 'Matemática' });
    await p.getByRole('button', { name: 'Buscar' }).click();
    await p.waitForURL(/id_area=\d+/);
    const unidad = p.getByLabel('Unidad', { exact: true });
    expect(await unidad.isEnabled()).toBe(true);
    await unidad.selectOption({ label: 'Unidad 1: Números' });
    await p.getByRole('button', { name: 'Buscar' }).click();
    await p.waitForURL(/id_unidad=\d+/);
    await elegirOpcion(p.getByLabel('OA', { exact: true }), 'MA07 OA 01 · ');
    await p.getByRole('button', { name: 'Buscar' }).click();
    await p.waitForURL(/[?&]oa=\d+/);
    expect(await p.locator('#titulo-resultados').textContent()).toContain('Resultados');
    expect(await p.locator('.tarjeta-contenido h3 a').first().getAttribute('title')).toBe(`${TITULO_PDF} (revisada)`);
    // The detail's OA selector works as a form too.
    await p.goto(`/biblioteca-docente/${idPdf}`);
    await p.getByLabel('Objetivo de aprendizaje').selectOption({ label: 'MA07 OA 07' });
    await p.getByRole('button', { name: 'Ver' }).click();
    await p.waitForURL(/[?&]oa=\d+/);
    expect(await p.locator('.descripcion-oa:visible').textContent()).toContain('MA07 OA 07');
    await sinScript.close();
  });
});

describe('another teacher', () => {
  let page: Page;
  beforeAll(async () => {
    page = await abrir(browser);
    await ingresar(page, otro, CLAVE);
  });
  afterAll(async () => page.context().close());

  it("sees no Editar or Eliminar, and 'No tienes permisos' (403) on the edit page", async () => {
    await page.goto(url(`/biblioteca-docente/${idPdf}`));
    await expect.poll(() => page.getByRole('button', { name: /Me gusta/ }).isEnabled()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(TITULO_PDF);
    expect(await page.getByRole('link', { name: 'Editar' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);
    const respuesta = await page.goto(url(`/biblioteca-docente/editar/${idPdf}`));
    expect(respuesta?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No tienes permisos');
    expect(await page.locator('form[aria-label="Editar material"]').count()).toBe(0);
  });

  it("gets 'No se encontró material' (404) for a missing material and a clear 404 for an unknown OA", async () => {
    const respuesta = await page.goto(url('/biblioteca-docente/999999'));
    expect(respuesta?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No se encontró material');
    const oa = await page.goto(url('/biblioteca-docente/oa/XX99%20OA%2099'));
    expect(oa?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No se encontró el OA');
    expect(await page.locator('.panel p').textContent()).toContain('XX99 OA 99');
  });
});

describe.each(ANCHOS)('accessibility (%s)', (_ancho, viewport) => {
  it('has no serious axe violations on the list, detail, form, edit form and OA page', async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page, autor, CLAVE);
    for (const ruta of [
      '/biblioteca-docente/?id_nivel=07',
      `/biblioteca-docente/${idDocx}`,
      '/biblioteca-docente/subir',
      `/biblioteca-docente/editar/${idDocx}`,
      '/biblioteca-docente/oa/CN07%20OA%2013',
    ]) {
      await page.goto(url(ruta));
      // The comments hydrate only once scrolled to: wait for the islands above the fold.
      await page.waitForLoadState('load');
      await expect.poll(() => page.locator('astro-island[ssr]:not([client="visible"])').count()).toBe(0);
      expect(await violacionesGraves(page), ruta).toEqual([]);
    }
    await page.context().close();
  });
});

describe('the author deletes', () => {
  it("asks first, then 'Material … eliminado con exito', and it is gone", async () => {
    const page = await abrir(browser);
    await ingresar(page, autor, CLAVE);
    await page.goto(url(`/biblioteca-docente/${idDocx}`));
    const eliminar = page.getByRole('button', { name: 'Eliminar' });
    await expect.poll(() => eliminar.isEnabled()).toBe(true);
    await eliminar.click();
    const dialogo = page.getByRole('dialog');
    await dialogo.waitFor();
    await dialogo.getByRole('button', { name: 'Eliminar' }).click();
    await page.waitForURL(url('/biblioteca-docente/'));
    await toast(page, `Material ${TITULO_DOCX} eliminado con exito`);
    expect(await page.locator('.tarjeta-contenido', { hasText: TITULO_DOCX }).count()).toBe(0);
    expect((await page.goto(url(`/biblioteca-docente/${idDocx}`)))?.status()).toBe(404);
    await page.context().close();
  });
});
