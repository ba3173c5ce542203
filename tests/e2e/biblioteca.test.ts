/**
 * The Biblioteca Docente in Chromium (docs/SPEC.md sections 2, 4, 5, 8, 9): a teacher uploads
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
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { zip } from '../support/zip.ts';
import {
  ANCHOS,
  abrirComo,
  apiComo,
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
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-biblioteca-e2e-'));
const archivo = (nombre: string) => path.join(carpeta, nombre);
const CLAVE = 'Docente2026';
const DOCX = zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' });
/** The two teachers: the accounts only, each test uploads its own materials. */
const autor = { email: correoNuevo('biblioteca.autor'), password: CLAVE };
const otro = { email: correoNuevo('biblioteca.otro'), password: CLAVE };

let contador = 0;
/**
 * A word no other title holds (the server is new for each run), so a search or a list finds only
 * this test's materials. Of one length, so none is part of another; short, as the page title holds
 * the material's title within 70 characters.
 */
const sello = () => `zq${String(++contador).padStart(2, '0')}`;

beforeAll(async () => {
  browser = await navegador();
  writeFileSync(archivo('guia.pdf'), pdf(2));
  writeFileSync(archivo('planificacion.docx'), DOCX);
  writeFileSync(archivo('falsa.docx'), 'texto plano con nombre de Word');
  writeFileSync(archivo('notas.txt'), 'notas');
  await docenteActivo(autor.email, CLAVE);
  await docenteActivo(otro.email, CLAVE);
});
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

interface Material {
  titulo: string;
  /** The area's name; the level is 7° básico. */
  area: 'Matemática' | 'Ciencias Naturales';
  unidad: string;
  /** OA codes. Tests that expect an exact list for an OA choose OAs no other test saves. */
  oas: string[];
  tipo: 'Guía' | 'Planificación';
  descripcion?: string;
  formato?: 'pdf' | 'docx';
}

/** Uploads a material of the author's through the API, as the upload form would; returns its id. */
async function materialPorApi(m: Material): Promise<number> {
  const { api } = await apiComo(autor);
  const [{ data: areas = [] }, { data: tipos = [] }] = await Promise.all([
    api.GET('/api/curriculum_escolar/areas/'),
    api.GET('/api/bdocente/tipo/'),
  ]);
  const area = areas.find((a) => a.nombre === m.area);
  const tipo = tipos.find((t) => t.nombre === m.tipo);
  if (!area || !tipo) throw new Error(`no area ${m.area} or type ${m.tipo}`);
  const { data: unidades = [] } = await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area: area.id, nivel: '07' } } });
  const oas = (
    await Promise.all(unidades.map((u) => api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: u.id } } })))
  ).flatMap((r) => r.data ?? []);
  const unidad = unidades.find((u) => u.nombre === m.unidad);
  const ids = m.oas.map((codigo) => oas.find((o) => o.codigo === codigo)?.id ?? 0);
  if (!unidad || ids.includes(0)) throw new Error(`no unit ${m.unidad} or OAs ${m.oas.join(', ')}`);
  const docx = m.formato === 'docx';
  const { data, response } = await api.POST('/api/bdocente/', {
    body: {
      titulo: m.titulo,
      descripcion: m.descripcion ?? 'Ejercicios con la **recta numérica** para 7° básico.',
      id_area: area.id,
      id_nivel: '07',
      id_unidad: unidad.id,
      oas: ids,
      tipo_material_docente: tipo.id,
      archivo: docx ? 'planificacion.docx' : 'guia.pdf',
    },
    bodySerializer: multipart(
      docx ? { data: DOCX, name: 'planificacion.docx' } : { data: pdf(2), name: 'guia.pdf', type: 'application/pdf' },
    ),
  });
  expect(response.status).toBe(201);
  return data?.id ?? 0;
}

/** A PDF guide of Matemática with the given OAs (of units 1 and 2), titled with a fresh `sello`. */
const guia = (oas: string[], unidad = 'Unidad 1: Números') => {
  const titulo = `Guía de Matemática, números enteros ${sello()}`;
  return materialPorApi({ titulo, area: 'Matemática', unidad, oas, tipo: 'Guía' }).then((id) => ({ id, titulo }));
};

/** A Word plan of Ciencias Naturales (CN07 OA 13), titled with a fresh `sello`. */
const planificacion = () => {
  const titulo = `Planificación de ciencias ${sello()}`;
  return materialPorApi({
    titulo,
    area: 'Ciencias Naturales',
    unidad: 'Unidad 1',
    oas: ['CN07 OA 13'],
    tipo: 'Planificación',
    descripcion: 'Planificación de la unidad de microorganismos.',
    formato: 'docx',
  }).then((id) => ({ id, titulo }));
};

/** The codes in one of the form's OA lists. */
const codigosEn = (page: Page, lista: 'disponibles' | 'seleccionados') =>
  page.locator(`[data-lista="${lista}"] li summary strong`).allTextContents();

/** The options chosen in the form's selects named by these labels, in that order. */
const elegidos = (page: Page, ...etiquetas: string[]) =>
  Promise.all(etiquetas.map((e) => page.getByLabel(e, { exact: true }).locator('option:checked').textContent()));

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

const yo = () => abrirComo(browser, autor);

describe('the author', () => {
  it("sees 'Instructivo' (the PDF guide, in a new tab) and 'Subir', and 'No se encontraron materiales' for no match", async () => {
    const page = await yo();
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
    expect(await page.locator('.sin-resultados > p').first().textContent()).toBe('No se encontraron materiales');

    await page.getByRole('link', { name: 'Subir' }).click();
    await page.waitForURL(url('/biblioteca-docente/subir'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Subir material');
  });

  it('says the validation messages of docs/SPEC.md on an empty submit and for a file of another kind', async () => {
    const page = await yo();
    await page.goto(url('/biblioteca-docente/subir'));
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
    const page = await yo();
    const titulo = `Guía de Matemática, números enteros ${sello()}`;
    await page.goto(url('/biblioteca-docente/subir'));
    await hidratada(page);
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

    // docs/SPEC.md section 4: a new area clears the unit and the selected OAs.
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

    await page.getByLabel('Título', { exact: true }).fill(titulo);
    expect(await page.getByLabel('Autor').inputValue()).toBe('Docente Prueba');
    expect(await page.getByLabel('Autor').getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('Descripción', { exact: true }).fill('Ejercicios con la **recta numérica** para 7° básico.');
    await page.getByLabel('Tipo de material').selectOption({ label: 'Guía' });
    await page.getByLabel('Archivo', { exact: true }).setInputFiles(archivo('guia.pdf'));
    await expect.poll(() => page.locator('#archivo-error').count()).toBe(0);

    // Held until the progress has been seen.
    const soltar = await retener(page, '**/api/bdocente/');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /^Subiendo material… \d+%$/ })
          .count(),
      )
      .toBe(1);
    soltar();
    await page.waitForURL(url('/biblioteca-docente/'));
    await toast(page, `Material ${titulo} agregado exitosamente!`);
    expect(await idDe(page, titulo)).toBeGreaterThan(0);
  });

  it("uploads a .docx; a file whose bytes are not Word is refused by the server ('No se pudo subir el material')", async () => {
    const page = await yo();
    const titulo = `Planificación de ciencias ${sello()}`;
    await page.goto(url('/biblioteca-docente/subir'));
    await hidratada(page);
    await elegirCurriculo(page, '7° básico', 'Ciencias Naturales', 'Unidad 1');
    await page.getByRole('button', { name: 'Agregar CN07 OA 13' }).click();
    await page.getByLabel('Título', { exact: true }).fill(titulo);
    await page.getByLabel('Descripción', { exact: true }).fill('Planificación de la unidad de microorganismos.');
    await page.getByLabel('Tipo de material').selectOption({ label: 'Planificación' });
    await page.getByLabel('Archivo', { exact: true }).setInputFiles(archivo('falsa.docx'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'No se pudo subir el material');
    expect(await mensajeDe(page, 'Archivo')).toBe('El material no es válido. Debe subir un archivo word, pdf, ppt o excel.');
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(titulo);

    await page.getByLabel('Archivo', { exact: true }).setInputFiles(archivo('planificacion.docx'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url('/biblioteca-docente/'));
    await toast(page, `Material ${titulo} agregado exitosamente!`);
    expect(await idDe(page, titulo)).toBeGreaterThan(0);
  });

  it("shows cards with the type, area and level badges and the OA codes, and finds by accent-free text ('matematica' finds 'Matemática')", async () => {
    const pdf = await guia(['MA07 OA 05']);
    const muchos = await guia(['MA07 OA 10', 'MA07 OA 11', 'MA07 OA 12', 'MA07 OA 13', 'MA07 OA 14'], 'Unidad 3: Geometría');
    const docx = await planificacion();
    const marca = (titulo: string) => titulo.split(' ').at(-1);
    const page = await yo();
    await page.goto(url('/biblioteca-docente/'));
    const tarjeta = page.locator('ul.contenidos > li', { hasText: pdf.titulo });
    expect(await textos(tarjeta.locator('.etiquetas li'))).toEqual(['Guía', 'Matemática', '7° básico']);
    // The area badge in its area's colour (docs/SPEC.md section 9).
    expect(await tarjeta.locator('.etiquetas li').nth(1).getAttribute('class')).toBe('area-matematica');
    // Its OAs by code (decision 0087): three at most, then how many more, every one in the tooltip.
    expect(await tarjeta.locator('.oas-tarjeta').textContent()).toBe('Objetivos de aprendizaje: MA07 OA 05');
    const varios = page.locator('ul.contenidos > li', { hasText: muchos.titulo }).locator('.oas-tarjeta');
    expect(await varios.textContent()).toBe('Objetivos de aprendizaje: MA07 OA 10 · MA07 OA 11 · MA07 OA 12 · y 2 más');
    expect(await varios.getAttribute('title')).toBe('MA07 OA 10, MA07 OA 11, MA07 OA 12, MA07 OA 13, MA07 OA 14');
    expect(await tarjeta.locator('h3 a').getAttribute('title')).toBe(pdf.titulo);

    await page.getByLabel('Buscar', { exact: true }).fill(`matematica ${marca(pdf.titulo)}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/titulo=matematica/);
    expect(page.url()).not.toContain('tamano_pagina');
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([pdf.titulo]);
    await page.getByLabel('Buscar', { exact: true }).fill(`planificacion ${marca(docx.titulo)}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/titulo=planificacion/);
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([docx.titulo]);
  });

  it('draws each card’s thumbnail from a WebP variant (srcset), the Word file’s from its type picture', async () => {
    const pdf = await guia(['MA07 OA 05']);
    const docx = await planificacion();
    const page = await yo();
    await page.goto(url('/biblioteca-docente/'));
    const imagen = (titulo: string) => page.locator('ul.contenidos > li', { hasText: titulo }).locator('img');
    for (const { titulo } of [pdf, docx]) {
      await expect.poll(() => imagen(titulo).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await imagen(titulo).getAttribute('srcset')).toMatch(/\?ancho=320&v=[\w-]+ 320w, .*\?ancho=640&v=[\w-]+ 640w$/);
    }
    // What the browser chose, asked again with its cookie: the PDF's variant, the Word file's type picture.
    const elegidas = [await imagen(pdf.titulo).evaluate((img: HTMLImageElement) => img.currentSrc)];
    elegidas.push(await imagen(docx.titulo).evaluate((img: HTMLImageElement) => img.currentSrc));
    expect(elegidas.every((u) => /[?&]ancho=(320|640)&/.test(u))).toBe(true);
    const tipos = await page.evaluate((urls) => Promise.all(urls.map(async (u) => (await fetch(u)).headers.get('content-type'))), elegidas);
    expect(tipos).toEqual(['image/webp', 'image/svg+xml']);
  });

  it('filters by OA: the unit options follow level and area, the OA options follow the unit, the URL keeps them', async () => {
    // MA07 OA 04 is this test's alone: the filter lists exactly its material.
    const { titulo } = await guia(['MA07 OA 04']);
    const page = await yo();
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
    await elegirOpcion(oa, 'MA07 OA 04 · ');
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
    await elegirOpcion(oa, 'MA07 OA 04 · ');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/[?&]oa=\d+/);
    expect(page.url()).toMatch(/id_nivel=07/);
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([titulo]);
    // The page rendered from that URL shows the same choices.
    expect(await oa.locator('option:checked').textContent()).toMatch(/^MA07 OA 04 · /);
    expect(await unidad.locator('option:checked').textContent()).toBe('Unidad 1: Números');
    // 'Subir' opens the upload form with the OA the list is filtered by.
    await page.getByRole('link', { name: 'Subir', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/subir');
    await hidratada(page);
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 04']);
  });

  it("offers 'Súbelo tú' for an OA without materials, with the form ready for it", async () => {
    // No test saves MA07 OA 02.
    const page = await yo();
    await page.goto(url('/biblioteca-docente/oa/MA07%20OA%2002'));
    await page.getByRole('link', { name: 'Buscar con más filtros' }).click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/');
    await page.locator('.sin-resultados').getByRole('link', { name: 'Súbelo tú' }).click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/subir');
    await hidratada(page);
    expect(await elegidos(page, 'Nivel', 'Área')).toEqual(['7° básico', 'Matemática']);
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 02']);
  });

  it('opens the detail: badges (each OA links to its page), the OA selector with its description, the unit', async () => {
    const { id, titulo } = await guia(['MA07 OA 01', 'MA07 OA 06'], 'Unidad 2: Álgebra y funciones');
    const page = await yo();
    await page.goto(url(`/biblioteca-docente/${id}`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(titulo);
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
    const { id } = await guia(['MA07 OA 05']);
    const page = await yo();
    await page.goto(url(`/biblioteca-docente/${id}`));
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
    const { id } = await guia(['MA07 OA 05']);
    const page = await yo();
    await page.goto(url(`/biblioteca-docente/${id}`));
    const caja = page.getByLabel('Escribe un comentario');
    await caja.scrollIntoViewIfNeeded();
    await page.getByText(/Aún no hay comentarios/).waitFor();
    await caja.fill('¿Funciona también para 8° básico?');
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    const comentario = page.locator('article.comentario', { hasText: '¿Funciona también para 8° básico?' });
    await comentario.waitFor();
    await comentario.getByRole('button', { name: 'Responder' }).click();
    await page.getByLabel(/^Responder a /).fill('Sí, con números más grandes.');
    await comentario.getByRole('button', { name: 'Comentar', exact: true }).click();
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
    const { id, titulo } = await guia(['MA07 OA 05']);
    const page = await yo();
    await page.goto(url(`/biblioteca-docente/${id}`));
    const descarga = page.waitForEvent('download');
    await page.locator('a.descargar').click();
    const bajado = await descarga;
    expect(bajado.suggestedFilename()).toBe(`${titulo}.pdf`);
    expect(
      readFileSync(await bajado.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it("lists the material on its OA's page, reached from the OA badge", async () => {
    // MA07 OA 03 and 08 are this test's alone, and no test saves MA07 OA 02: the lists are exact.
    const { id, titulo } = await guia(['MA07 OA 03', 'MA07 OA 08']);
    const page = await yo();
    await page.goto(url(`/biblioteca-docente/${id}`));
    await page.getByRole('link', { name: 'MA07 OA 03', exact: true }).click();
    await page.waitForURL(url('/biblioteca-docente/oa/MA07%20OA%2003'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('MA07 OA 03');
    expect((await page.locator('.ruta-oa').textContent())?.trim()).toBe('Matemática · 7° básico · Unidad 1: Números');
    expect(await page.locator('.texto-oa').textContent()).toContain(
      'Resolver problemas que involucren la multiplicación y la división de fracciones y de decimales positivos',
    );
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([titulo]);
    // The OA of the other unit, chosen in the same material, lists it too.
    await page.goto(url('/biblioteca-docente/oa/MA07%20OA%2008'));
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toEqual([titulo]);
    await page.goto(url('/biblioteca-docente/oa/MA07%20OA%2002'));
    expect(await page.locator('.sin-resultados > p').first().textContent()).toBe('No se encontraron materiales');
  });

  it("opens the list's filters and the upload form from an OA's page with the OA's curriculum chosen", async () => {
    const { titulo } = await guia(['MA07 OA 05']);
    const page = await yo();
    await page.goto(url('/biblioteca-docente/oa/MA07%20OA%2005'));
    const unidad = (await page.locator('.ruta-oa').textContent())?.split(' · ').at(-1)?.trim();
    await page.getByRole('link', { name: 'Buscar con más filtros' }).click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/');
    expect(await elegidos(page, 'Nivel', 'Unidad')).toEqual(['7° básico', unidad]);
    expect(await page.locator('.tarjeta-contenido h3').allTextContents()).toContain(titulo);
    await page.goBack();
    await page.getByRole('link', { name: 'Subir', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/subir');
    await hidratada(page);
    expect(await elegidos(page, 'Nivel', 'Área', 'Unidad')).toEqual(['7° básico', 'Matemática', unidad]);
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 05']);
  });

  it('edits it: title, unit and OAs preloaded, no file; saving says so and shows the change', async () => {
    const { id, titulo } = await guia(['MA07 OA 01', 'MA07 OA 06'], 'Unidad 2: Álgebra y funciones');
    const page = await yo();
    await page.goto(url(`/biblioteca-docente/${id}`));
    await page.getByRole('link', { name: 'Editar' }).click();
    await page.waitForURL(url(`/biblioteca-docente/editar/${id}`));
    await hidratada(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Editar material');
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(titulo);
    expect(await elegidos(page, 'Nivel', 'Área', 'Unidad')).toEqual(['7° básico', 'Matemática', 'Unidad 2: Álgebra y funciones']);
    expect(await page.getByLabel('Tipo de material').locator('option:checked').textContent()).toBe('Guía');
    expect(await codigosEn(page, 'seleccionados')).toEqual(['MA07 OA 01', 'MA07 OA 06']);
    expect(await codigosEn(page, 'disponibles')).toContain('MA07 OA 07');
    expect(await page.getByLabel('Autor').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Archivo', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Quitar MA07 OA 06' }).click();
    await page.getByRole('button', { name: 'Agregar MA07 OA 07' }).click();
    const nuevo = `${titulo} (revisada)`;
    await page.getByLabel('Título', { exact: true }).fill(nuevo);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url(`/biblioteca-docente/${id}`));
    await toast(page, `Material ${nuevo} modificado exitosamente!`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(nuevo);
    const oas = await textos(page.locator('.ficha .etiquetas li.etiqueta-oa'));
    expect(oas).toEqual(['MA07 OA 01', 'MA07 OA 07']);
  });

  it('browses with JavaScript off: the GET form renders the unit and OA options from the URL', async () => {
    // The newest material with MA07 OA 01: the first card of that OA's results.
    const { id, titulo } = await guia(['MA07 OA 01', 'MA07 OA 07']);
    const sinScript = await browser.newContext({ baseURL: url('/'), javaScriptEnabled: false });
    const p = await sinScript.newPage();
    await ingresarPorApi(p, autor);
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
    expect(await p.locator('.tarjeta-contenido h3 a').first().getAttribute('title')).toBe(titulo);
    // The detail's OA selector works as a form too.
    await p.goto(`/biblioteca-docente/${id}`);
    await p.getByLabel('Objetivo de aprendizaje').selectOption({ label: 'MA07 OA 07' });
    await p.getByRole('button', { name: 'Ver' }).click();
    await p.waitForURL(/[?&]oa=\d+/);
    expect(await p.locator('.descripcion-oa:visible').textContent()).toContain('MA07 OA 07');
  });
});

describe('another teacher', () => {
  it("sees no Editar or Eliminar, and 'No tienes permisos' (403) on the edit page", async () => {
    const { id, titulo } = await guia(['MA07 OA 05']);
    const page = await abrirComo(browser, otro);
    await page.goto(url(`/biblioteca-docente/${id}`));
    await expect.poll(() => page.getByRole('button', { name: /Me gusta/ }).isEnabled()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(titulo);
    expect(await page.getByRole('link', { name: 'Editar' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Eliminar', exact: true }).count()).toBe(0);
    const respuesta = await page.goto(url(`/biblioteca-docente/editar/${id}`));
    expect(respuesta?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No tienes permisos');
    expect(await page.locator('form[aria-label="Editar material"]').count()).toBe(0);
  });

  it("gets 'No se encontró material' (404) for a missing material and a clear 404 for an unknown OA", async () => {
    const page = await abrirComo(browser, otro);
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
    const { id } = await planificacion();
    const page = await abrirComo(browser, autor, viewport);
    for (const ruta of [
      '/biblioteca-docente/?id_nivel=07',
      `/biblioteca-docente/${id}`,
      '/biblioteca-docente/subir',
      `/biblioteca-docente/editar/${id}`,
      '/biblioteca-docente/oa/CN07%20OA%2013',
    ]) {
      await page.goto(url(ruta));
      // The comments hydrate only once scrolled to: wait for the islands above the fold.
      await page.waitForLoadState('load');
      await expect.poll(() => page.locator('astro-island[ssr]:not([client="visible"])').count()).toBe(0);
      expect(await violacionesGraves(page), ruta).toEqual([]);
    }
  });
});

describe('the author deletes', () => {
  it("asks first, then 'Material … eliminado con exito', and it is gone", async () => {
    const { id, titulo } = await planificacion();
    const page = await yo();
    await page.goto(url(`/biblioteca-docente/${id}`));
    const eliminar = page.getByRole('button', { name: 'Eliminar', exact: true });
    await expect.poll(() => eliminar.isEnabled()).toBe(true);
    await eliminar.click();
    const dialogo = page.getByRole('dialog');
    await dialogo.waitFor();
    await dialogo.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await page.waitForURL(url('/biblioteca-docente/'));
    await toast(page, `Material ${titulo} eliminado con exito`);
    expect(await page.locator('.tarjeta-contenido', { hasText: titulo }).count()).toBe(0);
    expect((await page.goto(url(`/biblioteca-docente/${id}`)))?.status()).toBe(404);
  });
});
