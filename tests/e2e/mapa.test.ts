/**
 * The curriculum map in Chromium (issue 21): a table of levels by units coloured by how many
 * materials each holds (the number in the cell, a legend in words), a cell opening the filtered
 * list, a level opening its OAs and 'Sin materiales', whose 'Subir material' lands on the upload
 * form set for that OA, with the OAs that have no material marked. The same table with JavaScript
 * off; axe clean and no sideways page scroll at 1280 and 375 px.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NIVELES_META } from '../../src/lib/server/db/seed/curriculo.ts';
import { tramoDe } from '../../src/pages/biblioteca-docente/_componentes/mapa.ts';
import { DESKTOP } from '../support/browser.ts';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import {
  ANCHOS,
  abrir,
  abrirComo,
  apiComo,
  correoNuevo,
  docenteActivo,
  hidratada,
  ingresarPorApi,
  navegador,
  violacionesGraves,
} from './helpers.ts';

let browser: Browser;
const docente = { email: correoNuevo('mapa.docente'), password: 'Docente2026' };
/** Matemática, its 2° medio units and the OAs the test's material is aligned to. */
let ma: { area: number; unidad1: number; unidad2: number; oa01: number; oa03: number };
/** Puts back Matemática 6° básico's units, retired for the test so the map has a level without units. */
let restaurar = async () => {};
const TITULO = `Guía de raíces y logaritmos ${Date.now().toString(36)}`;

beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(docente.email, docente.password);
  const { api } = await apiComo(docente);
  const [{ data: areas = [] }, { data: tipos = [] }] = await Promise.all([
    api.GET('/api/curriculum_escolar/areas/'),
    api.GET('/api/bdocente/tipo/'),
  ]);
  const area = areas.find((a) => a.nombre === 'Matemática');
  const [tipo] = tipos;
  if (!area || !tipo) throw new Error('no Matemática or material type');
  const { data: unidades = [] } = await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area: area.id, nivel: '2M' } } });
  const [unidad1, unidad2] = unidades;
  if (!unidad1 || !unidad2) throw new Error('no units of Matemática 2° medio');
  const oas = (
    await Promise.all([unidad1, unidad2].map((u) => api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: u.id } } })))
  ).flatMap((r) => r.data ?? []);
  const oa01 = oas.find((o) => o.codigo === 'MA2M OA 01');
  const oa03 = oas.find((o) => o.codigo === 'MA2M OA 03');
  if (!oa01 || !oa03) throw new Error('no MA2M OA 01 or 03');
  ma = { area: area.id, unidad1: unidad1.id, unidad2: unidad2.id, oa01: oa01.id, oa03: oa03.id };
  restaurar = await retirarUnidades('MA', ['06']);
  // Recorded in unit 1, aligned to an OA of unit 1 and one of unit 2.
  const { response } = await api.POST('/api/bdocente/', {
    body: {
      titulo: TITULO,
      descripcion: 'Ejercicios para 2° medio.',
      id_area: area.id,
      id_nivel: '2M',
      id_unidad: unidad1.id,
      oas: [oa01.id, oa03.id],
      tipo_material_docente: tipo.id,
      archivo: 'guia.pdf',
    },
    bodySerializer: multipart({ data: pdf(1), name: 'guia.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await restaurar();
});

const mapa = (nivel?: string) => `/biblioteca-docente/mapa?area=${ma.area}${nivel ? `&nivel=${nivel}` : ''}`;

/**
 * Retires, as the admin, the units in force of an area at `niveles` (every level by default), so a
 * test does not depend on which levels and areas the shipped curriculum fills; the function it
 * returns puts them back.
 */
async function retirarUnidades(codigoArea: string, niveles: readonly string[] = NIVELES_META): Promise<() => Promise<void>> {
  const { api: admin } = await apiComo();
  const ids: number[] = [];
  for (const nivel of niveles) {
    const { data, response } = await admin.GET('/api/admin/curriculo/{area}/{nivel}/', { params: { path: { area: codigoArea, nivel } } });
    if (response.ok) ids.push(...(data?.unidades ?? []).filter((u) => u.vigente).map((u) => u.id));
  }
  const vigente = (id: number, valor: boolean) =>
    admin.PUT('/api/admin/curriculo/unidades/{id}/', { params: { path: { id } }, body: { vigente: valor } });
  const restaurar = async () => {
    for (const id of ids) await vigente(id, true);
  };
  try {
    for (const id of ids) expect((await vigente(id, false)).response.ok, `retire unit ${id}`).toBe(true);
  } catch (error) {
    await restaurar();
    throw error;
  }
  return restaurar;
}

/** Runs `prueba` while an area has no unit in force at any level, and restores them after. */
async function sinUnidades(codigoArea: string, prueba: () => Promise<void>): Promise<void> {
  const restaurar = await retirarUnidades(codigoArea);
  try {
    await prueba();
  } finally {
    await restaurar();
  }
}

/** The row of a level in the map's table. */
const fila = (page: Page, nivel: string) =>
  page.locator('table.mapa tbody tr').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${nivel}`) }) });

const numeroDe = async (celda: Locator) => Number(await celda.locator('.numero').textContent());
const fondoDe = (celda: Locator) => celda.evaluate((e) => getComputedStyle(e).backgroundColor);

describe('the map of an area', () => {
  it('colours each cell by its count, with the number in it and the ranges in words in the legend', async () => {
    const page = await abrirComo(browser, docente);
    await page.goto(mapa());
    await expect.poll(() => page.locator('table.mapa caption').textContent()).toContain('Materiales de Matemática por nivel y unidad');
    expect(await page.locator('.leyenda-mapa li').allTextContents()).toEqual([
      'Sin materiales',
      '1 a 2 materiales',
      '3 a 5 materiales',
      '6 a 9 materiales',
      '10 o más materiales',
    ]);
    const columnas = await page.locator('table.mapa thead th').allTextContents();
    expect(columnas).toEqual(['Nivel', 'Unidad 1', 'Unidad 2', 'Unidad 3', 'Unidad 4', 'Total']);

    const llena = fila(page, '2° medio').locator('td').first();
    const n = await numeroDe(llena);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(await llena.textContent()).toContain('Unidad 1: Números');
    expect(await llena.getAttribute('class')).toContain(tramoDe(n).clase);

    const vacia = page
      .locator('table.mapa td.celda')
      .filter({ has: page.locator('.numero', { hasText: /^0$/ }) })
      .first();
    expect(await vacia.getAttribute('class')).toContain('tramo-0');
    expect(await fondoDe(vacia)).not.toBe(await fondoDe(llena));
    // A level without units in force (the test retired Matemática 6° básico's): no cells, only its total.
    expect(await fila(page, '6° básico').locator('td.sin-unidad').count()).toBe(4);
  });

  it('opens the list filtered by the cell, and the level with its OAs from the row header', async () => {
    const page = await abrirComo(browser, docente);
    await page.goto(mapa());
    const celda = fila(page, '2° medio').locator('td').first();
    const n = await numeroDe(celda);
    await celda.getByRole('link').click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/');
    const filtros = new URL(page.url()).searchParams;
    expect(Object.fromEntries(filtros)).toEqual({ id_area: String(ma.area), id_nivel: '2M', id_unidad: String(ma.unidad1) });
    expect(await page.locator('#titulo-resultados span').textContent()).toBe(n === 1 ? '1 material' : `${n} materiales`);
    await expect.poll(() => page.getByRole('heading', { name: TITULO }).count()).toBe(1);

    await page.goBack();
    await fila(page, '2° medio').getByRole('rowheader').getByRole('link').click();
    await page.waitForURL((u) => u.searchParams.get('nivel') === '2M');
    expect(await page.locator('#titulo-mapa').textContent()).toContain('Materiales de Matemática en 2° medio por unidad');
    expect(await page.locator('table.mapa tbody tr').count()).toBeGreaterThan(1);
    const oa = page.locator('table.oas-mapa tbody tr').filter({ has: page.getByRole('rowheader', { name: 'MA2M OA 03' }) });
    // Aligned, though recorded in another unit: it counts for the OA.
    expect(await numeroDe(oa.locator('td.celda'))).toBeGreaterThanOrEqual(1);
    await oa.getByRole('link', { name: 'MA2M OA 03', exact: true }).click();
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === '/biblioteca-docente/oa/MA2M OA 03');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('MA2M OA 03');
    await expect.poll(() => page.getByRole('heading', { name: TITULO }).count()).toBe(1);
  });

  it("lists 'Sin materiales', whose link opens the upload form set for that OA, with the OAs that have none marked", async () => {
    const page = await abrirComo(browser, docente);
    await page.goto(mapa('2M'));
    const seccion = page.locator('section#sin-materiales');
    expect(await seccion.getByRole('heading', { level: 2 }).textContent()).toBe('Sin materiales');
    const huecos = await seccion.locator('li').count();
    expect(huecos).toBeGreaterThan(0);
    // MA2M OA 01 has the test's material: it is not a gap.
    expect(await seccion.getByRole('link', { name: 'MA2M OA 01', exact: true }).count()).toBe(0);
    const hueco = seccion.locator('li').first();
    const codigo = (await hueco.locator('a').first().textContent()) ?? '';
    await hueco.getByRole('link', { name: `Subir material para ${codigo}` }).click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/subir');
    const pedido = new URL(page.url()).searchParams;
    expect(pedido.get('id_area')).toBe(String(ma.area));
    expect(pedido.get('id_nivel')).toBe('2M');
    await hidratada(page);
    expect(await page.getByLabel('Nivel', { exact: true }).inputValue()).toBe('2M');
    expect(await page.getByLabel('Área', { exact: true }).inputValue()).toBe(String(ma.area));
    expect(await page.getByLabel('Unidad', { exact: true }).inputValue()).toBe(pedido.get('id_unidad'));
    const seleccionados = page.locator('[data-lista="seleccionados"] li');
    expect(await seleccionados.locator('strong').allTextContents()).toEqual([codigo]);
    // The chosen OA has no material yet: the form says this one will be its first, once the counts arrive.
    await expect
      .poll(() => seleccionados.first().locator('.oa-sin-materiales').textContent())
      .toBe('Tu material será el primero de este OA');
    expect(await page.getByRole('link', { name: 'Ver OAs sin materiales' }).getAttribute('href')).toBe(
      `/biblioteca-docente/mapa?area=${ma.area}&nivel=2M#sin-materiales`,
    );
  });

  it('marks in the upload form only the OAs with no material, after choosing level, area and unit', async () => {
    const page = await abrirComo(browser, docente);
    await page.goto('/biblioteca-docente/subir');
    await hidratada(page);
    await page.getByLabel('Nivel', { exact: true }).selectOption('2M');
    await page.getByLabel('Área', { exact: true }).selectOption(String(ma.area));
    await expect.poll(() => page.getByLabel('Unidad', { exact: true }).locator('option').count()).toBeGreaterThan(1);
    await page.getByLabel('Unidad', { exact: true }).selectOption(String(ma.unidad1));
    const disponibles = page.locator('[data-lista="disponibles"] li');
    const oa01 = disponibles.filter({ has: page.locator('strong', { hasText: 'MA2M OA 01' }) });
    const oa02 = disponibles.filter({ has: page.locator('strong', { hasText: 'MA2M OA 02' }) });
    await expect.poll(() => oa02.locator('.oa-sin-materiales').count()).toBe(1);
    expect(await oa01.locator('.oa-sin-materiales').count()).toBe(0);
  });

  it('renders the same table with JavaScript off', async () => {
    const conScript = await abrirComo(browser, docente);
    await conScript.goto(mapa());
    const contexto = await browser.newContext({ baseURL: new URL(conScript.url()).origin, viewport: DESKTOP, javaScriptEnabled: false });
    const sinScript = await contexto.newPage();
    await ingresarPorApi(sinScript, docente);
    await sinScript.goto(mapa());
    const tabla = (page: Page) => page.locator('table.mapa').evaluate((t) => t.outerHTML);
    expect(await tabla(sinScript)).toBe(await tabla(conScript));
    // The area form is a plain GET form.
    await sinScript.getByLabel('Área').selectOption({ label: 'Ciencias Naturales' });
    await sinScript.getByRole('button', { name: 'Ver' }).click();
    await sinScript.waitForURL((u) => u.searchParams.has('area') && u.searchParams.get('area') !== String(ma.area));
    expect(await sinScript.locator('table.mapa caption').textContent()).toContain('Ciencias Naturales');
  });

  it('says plainly when an area has no units, and points to one that has', async () => {
    await sinUnidades('AR', async () => {
      const page = await abrirComo(browser, docente);
      await page.goto('/biblioteca-docente/mapa');
      await page.getByLabel('Área').selectOption({ label: 'Artes Visuales (sin unidades)' });
      await page.getByRole('button', { name: 'Ver' }).click();
      await page.waitForURL((u) => u.searchParams.has('area'));
      expect(await page.locator('.aviso').textContent()).toContain('Artes Visuales aún no tiene unidades');
      expect(await page.locator('table.mapa').count()).toBe(0);
      await page.locator('.aviso').getByRole('link').click();
      await expect.poll(() => page.locator('table.mapa').count()).toBe(1);
    });
  });

  it("opens on the teacher's first profile area that has units, else on the first area that has them", async () => {
    const page = await abrirComo(browser, docente);
    await page.goto('/biblioteca-docente/mapa');
    const areas = page.getByLabel('Área').locator('option');
    const primeraConUnidades = (await areas.allTextContents()).find((a) => !a.includes('(sin unidades)'));
    expect(await page.getByLabel('Área').locator('option:checked').textContent()).toBe(primeraConUnidades);
    const otro = { email: correoNuevo('mapa.perfil'), password: 'Docente2026' };
    await docenteActivo(otro.email, otro.password);
    const { api, id } = await apiComo(otro);
    for (const area of ['Artes Visuales', 'Matemática']) {
      const { response } = await api.POST('/api/usuarios/profesores/{id}/areas/', { params: { path: { id } }, body: { area } });
      expect(response.ok).toBe(true);
    }
    const suya = await abrirComo(browser, otro);
    // Their first area has units: the map opens on it; without units, on the next of theirs that has.
    await suya.goto('/biblioteca-docente/mapa');
    expect(await suya.getByLabel('Área').locator('option:checked').textContent()).toBe('Artes Visuales');
    await sinUnidades('AR', async () => {
      await suya.goto('/biblioteca-docente/mapa');
      expect(await suya.getByLabel('Área').locator('option:checked').textContent()).toBe('Matemática');
    });
  });

  it('is reached from the library list', async () => {
    const page = await abrirComo(browser, docente);
    await page.goto('/biblioteca-docente/');
    await page.getByRole('link', { name: 'Mapa curricular' }).click();
    await page.waitForURL((u) => u.pathname === '/biblioteca-docente/mapa');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Mapa curricular');
  });

  it("wraps a long level name on a phone instead of pushing its unit's cell out of view (Lenguaje Verbal, 375 px)", async () => {
    const { api } = await apiComo(docente);
    const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
    const lenguaje = areas.find((a) => a.nombre === 'Lenguaje Verbal');
    if (!lenguaje) throw new Error('no Lenguaje Verbal');
    const page = await abrir(browser, { width: 375, height: 800 });
    await ingresarPorApi(page, docente);
    await page.goto(`/biblioteca-docente/mapa?area=${lenguaje.id}`);
    const nivel = page.getByRole('rowheader', { name: /Segundo Nivel de Transición/ });
    const [caja, cabecera, celda] = await Promise.all([
      page.locator('.mapa-desplazable').first().boundingBox(),
      nivel.boundingBox(),
      page.getByRole('row').filter({ has: nivel }).locator('td.celda').first().boundingBox(),
    ]);
    if (!caja || !cabecera || !celda) throw new Error('the map has no box, level or cell');
    // Kept on one line the name was 271 px of the box's 343 and cut the cell: now it wraps, and the
    // cell beside it is whole inside the box.
    expect(cabecera.width).toBeLessThan(caja.width / 2);
    expect(celda.x + celda.width).toBeLessThanOrEqual(caja.x + caja.width);
  });

  it.each(ANCHOS)('has no serious axe violations and no sideways page scroll (%s)', async (_, viewport) => {
    const page = await abrir(browser, viewport);
    await ingresarPorApi(page, docente);
    for (const ruta of [mapa(), mapa('2M')]) {
      await page.goto(ruta);
      expect(await violacionesGraves(page), ruta).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), ruta).toBeLessThanOrEqual(viewport.width);
    }
  });
});
