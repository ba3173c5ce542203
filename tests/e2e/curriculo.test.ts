/**
 * Teachers beyond Matemática and Ciencias (issue 30): a teacher of Historia 5° básico uploads a
 * material aligned to a shipped OA through the form, and so does a teacher of Inglés 1° medio; a
 * teacher of Inglés 3° medio uses a unit the network's admin imported (a programa propio, with the
 * network's own codes beside the shipped Bases 2019 OAs). Each material shows on its OA's page and
 * in the curriculum map. An OA the admin retires leaves the form and stays on the material,
 * marked 'No vigente'. A teacher of Educación Física y Salud 4° medio and a kínder teacher use units
 * taught in two levels (a module of 3° o 4° medio, a núcleo of NT1 and NT2; decision 0084).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { abrirComo, apiComo, correoNuevo, docenteActivo, hidratada, navegador, toast, url } from './helpers.ts';

let browser: Browser;
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-curriculo-e2e-'));
const guia = path.join(carpeta, 'guia.pdf');
const CLAVE = 'Docente2026';
const historia = { email: correoNuevo('curriculo.historia'), password: CLAVE };
const ingles = { email: correoNuevo('curriculo.ingles'), password: CLAVE };
const ingles1m = { email: correoNuevo('curriculo.ingles1m'), password: CLAVE };
const HISTORIA = 'Historia, Geografía y Ciencias Sociales';
const UNIDAD_HI05 = 'Objetivos de Historia, Geografía y Ciencias Sociales 5° básico';

/** An Inglés 3° medio unit a network writes for itself (test statements and codes, not Mineduc's). */
const CSV_IN3M = [
  'area,nivel,unidad,unidad_orden,oa,descripcion,oa_orden,vigente,fuente',
  'IN,3M,Unidad 1: Vida saludable,1,IN3M OA 01,Enunciado de prueba de la red para comprensión auditiva.,1,sí,',
  'IN,3M,Unidad 1: Vida saludable,1,IN3M OA 02,Enunciado de prueba de la red para comprensión lectora.,2,sí,',
].join('\n');

beforeAll(async () => {
  browser = await navegador();
  writeFileSync(guia, pdf(1));
  await docenteActivo(historia.email, CLAVE);
  await docenteActivo(ingles.email, CLAVE);
  await docenteActivo(ingles1m.email, CLAVE);
});
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

/** Uploads a PDF through the form, choosing level, area, unit and the OAs by code. */
async function subir(page: Page, m: { nivel: string; area: string; unidad: string; oas: string[]; titulo: string }) {
  await page.goto(url('/biblioteca-docente/subir'));
  await hidratada(page);
  await page.getByLabel('Nivel', { exact: true }).selectOption({ label: m.nivel });
  await page.getByLabel('Área', { exact: true }).selectOption({ label: m.area });
  await expect.poll(() => page.locator('#id_unidad option').allTextContents()).toContain(m.unidad);
  await page.getByLabel('Unidad', { exact: true }).selectOption({ label: m.unidad });
  for (const oa of m.oas) await page.getByRole('button', { name: `Agregar ${oa}` }).click();
  await page.getByLabel('Título', { exact: true }).fill(m.titulo);
  await page.getByLabel('Descripción', { exact: true }).fill('Una guía para la clase.');
  await page.getByLabel('Tipo de material').selectOption({ label: 'Guía' });
  await page.getByLabel('Archivo', { exact: true }).setInputFiles(guia);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await page.waitForURL(url('/biblioteca-docente/'));
  await toast(page, `Material ${m.titulo} agregado exitosamente!`);
}

/** The number the curriculum map shows for an OA of a level of an area (by its name). */
async function enElMapa(page: Page, nombreArea: string, nivel: string, oa: string): Promise<number> {
  const { api } = await apiComo();
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const area = areas.find((a) => a.nombre === nombreArea)?.id ?? 0;
  await page.goto(url(`/biblioteca-docente/mapa?area=${area}&nivel=${nivel}`));
  const fila = page.locator('table.oas-mapa tbody tr').filter({ has: page.getByRole('rowheader', { name: oa }) });
  return Number((await fila.locator('td.celda').first().textContent())?.match(/\d+/)?.[0] ?? Number.NaN);
}

describe('a teacher of Historia 5° básico', () => {
  it('uploads a material aligned to a shipped OA; its OA page and the map show it', async () => {
    const page = await abrirComo(browser, historia);
    const titulo = 'Guía de derechos y deberes';
    await subir(page, { nivel: '5° básico', area: HISTORIA, unidad: UNIDAD_HI05, oas: ['HI05 OA 13'], titulo });

    await page.goto(url('/biblioteca-docente/oa/HI05%20OA%2013'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('HI05 OA 13');
    await expect.poll(() => page.getByRole('heading', { name: titulo }).count()).toBe(1);

    expect(await enElMapa(page, HISTORIA, '05', 'HI05 OA 13')).toBeGreaterThanOrEqual(1);
  });

  it("keeps a retired OA on the material, marked 'No vigente', and out of the form", async () => {
    const page = await abrirComo(browser, historia);
    const titulo = 'Guía de responsabilidades';
    await subir(page, { nivel: '5° básico', area: HISTORIA, unidad: UNIDAD_HI05, oas: ['HI05 OA 13', 'HI05 OA 14'], titulo });
    const enlace = page.locator('.tarjeta-contenido h3 a', { hasText: titulo });
    const detalle = (await enlace.getAttribute('href')) ?? '';

    const { api } = await apiComo();
    const { data: par } = await api.GET('/api/admin/curriculo/{area}/{nivel}/', { params: { path: { area: 'HI', nivel: '05' } } });
    const oa14 = par?.unidades.flatMap((u) => u.oas).find((o) => o.codigo === 'HI05 OA 14');
    expect(oa14).toBeDefined();
    const retirar = (vigente: boolean) =>
      api.PUT('/api/admin/curriculo/oas/{id}/', { params: { path: { id: oa14?.id ?? 0 } }, body: { vigente } });
    expect((await retirar(false)).response.status).toBe(200);
    try {
      await page.goto(url(detalle));
      const etiqueta = page.locator('li.etiqueta-oa', { hasText: 'HI05 OA 14' });
      expect((await etiqueta.textContent())?.trim()).toBe('HI05 OA 14 · No vigente');
      expect((await page.locator('li.etiqueta-oa', { hasText: 'HI05 OA 13' }).textContent())?.trim()).toBe('HI05 OA 13');

      // Its author edits it: the retired OA stays chosen and stays on it.
      await page.goto(url(`/biblioteca-docente/editar/${detalle.split('/').at(-1)}`));
      await hidratada(page);
      expect(await page.locator('[data-lista="seleccionados"] li summary strong').allTextContents()).toEqual(['HI05 OA 13', 'HI05 OA 14']);
      await page.getByLabel('Título', { exact: true }).fill(`${titulo} (revisada)`);
      await page.getByRole('button', { name: 'Guardar' }).click();
      await toast(page, `Material ${titulo} (revisada) modificado exitosamente!`);
      expect((await page.locator('li.etiqueta-oa', { hasText: 'HI05 OA 14' }).textContent())?.trim()).toBe('HI05 OA 14 · No vigente');

      await page.goto(url('/biblioteca-docente/oa/HI05%20OA%2014'));
      expect(await page.locator('.aviso-no-vigente').textContent()).toContain('No vigente');
      await expect.poll(() => page.getByRole('heading', { name: `${titulo} (revisada)` }).count()).toBe(1);
      // The map shows what new work can be aligned to.
      expect(await enElMapa(page, HISTORIA, '05', 'HI05 OA 13')).toBeGreaterThanOrEqual(1);
      expect(await page.getByRole('rowheader', { name: 'HI05 OA 14' }).count()).toBe(0);

      await page.goto(url('/biblioteca-docente/subir'));
      await hidratada(page);
      await page.getByLabel('Nivel', { exact: true }).selectOption({ label: '5° básico' });
      await page.getByLabel('Área', { exact: true }).selectOption({ label: HISTORIA });
      await expect.poll(() => page.locator('#id_unidad option').allTextContents()).toContain(UNIDAD_HI05);
      await page.getByLabel('Unidad', { exact: true }).selectOption({ label: UNIDAD_HI05 });
      // The level's other OAs are offered (how many depends on the shipped data); the retired one is not.
      const disponibles = () => page.locator('[data-lista="disponibles"] li summary strong').allTextContents();
      await expect.poll(disponibles).toContain('HI05 OA 13');
      expect(await disponibles()).not.toContain('HI05 OA 14');
    } finally {
      expect((await retirar(true)).response.status).toBe(200);
    }
  });
});

describe('a teacher of Inglés 1° medio', () => {
  it('uploads a material aligned to a shipped OA; its OA page and the map show it', async () => {
    const page = await abrirComo(browser, ingles1m);
    const titulo = 'Reading guide: my community';
    await subir(page, { nivel: '1° medio', area: 'Inglés', unidad: 'Objetivos de Inglés 1° medio', oas: ['IN1M OA 01'], titulo });
    await page.goto(url('/biblioteca-docente/oa/IN1M%20OA%2001'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('IN1M OA 01');
    await expect.poll(() => page.getByRole('heading', { name: titulo }).count()).toBe(1);
    expect(await enElMapa(page, 'Inglés', '1M', 'IN1M OA 01')).toBeGreaterThanOrEqual(1);
  });
});

describe('a teacher of Inglés 3° medio', () => {
  it("uploads a material aligned to an OA of the level the network's admin imported", async () => {
    const { api } = await apiComo();
    const importar = (confirmar: 'true' | 'false') =>
      api.POST('/api/admin/curriculo/importar/', {
        body: { archivo: 'ingles-3m.csv', confirmar },
        bodySerializer: multipart({ data: CSV_IN3M, name: 'ingles-3m.csv', type: 'text/csv' }),
      });
    const vista = await importar('false');
    expect(vista.response.status).toBe(200);
    expect(vista.data?.agregados).toBeGreaterThanOrEqual(2);
    expect((await importar('true')).response.status).toBe(200);

    const page = await abrirComo(browser, ingles);
    const titulo = 'Listening guide: healthy habits';
    await subir(page, { nivel: '3° medio', area: 'Inglés', unidad: 'Unidad 1: Vida saludable', oas: ['IN3M OA 01'], titulo });
    await page.goto(url('/biblioteca-docente/oa/IN3M%20OA%2001'));
    await expect.poll(() => page.getByRole('heading', { name: titulo }).count()).toBe(1);

    expect(await enElMapa(page, 'Inglés', '3M', 'IN3M OA 01')).toBe(1);
  });
});

describe('teachers of a module of 3° o 4° medio and of a transition level (decision 0084)', () => {
  const ef = { email: correoNuevo('curriculo.ef4m'), password: CLAVE };
  const kinder = { email: correoNuevo('curriculo.kinder'), password: CLAVE };
  beforeAll(async () => {
    await docenteActivo(ef.email, CLAVE);
    await docenteActivo(kinder.email, CLAVE);
  });

  it('a teacher of Educación Física y Salud 4° medio aligns a material to a module of either level', async () => {
    const page = await abrirComo(browser, ef);
    const titulo = 'Circuito de habilidades motrices';
    const EF = 'Educación Física y Salud';
    await subir(page, { nivel: '4° medio', area: EF, unidad: 'Educación Física y Salud 1', oas: ['FG-EFS1-3y4-OAC-01'], titulo });
    await page.goto(url('/biblioteca-docente/oa/FG-EFS1-3y4-OAC-01'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('FG-EFS1-3y4-OAC-01');
    expect(await page.locator('main').textContent()).toContain(`${EF} · 3° medio y 4° medio · Educación Física y Salud 1`);
    await expect.poll(() => page.getByRole('heading', { name: titulo }).count()).toBe(1);
    // The map of either level shows the module with the material.
    expect(await enElMapa(page, EF, '4M', 'FG-EFS1-3y4-OAC-01')).toBe(1);
    expect(await enElMapa(page, EF, '3M', 'FG-EFS1-3y4-OAC-01')).toBe(1);
  });

  it('a kínder teacher (Segundo Nivel de Transición) aligns a material to a núcleo of NT1 and NT2', async () => {
    const page = await abrirComo(browser, kinder);
    const titulo = 'Cuentos para conversar';
    const unidad = 'Objetivos de Lenguaje Verbal Primer Nivel de Transición y Segundo Nivel de Transición';
    await subir(page, { nivel: 'Segundo Nivel de Transición', area: 'Lenguaje Verbal', unidad, oas: ['OA 01 LV NT'], titulo });
    await page.goto(url('/biblioteca-docente/oa/OA%2001%20LV%20NT'));
    await expect.poll(() => page.getByRole('heading', { name: titulo }).count()).toBe(1);
    expect(await enElMapa(page, 'Lenguaje Verbal', 'NT2', 'OA 01 LV NT')).toBe(1);
  });
});
