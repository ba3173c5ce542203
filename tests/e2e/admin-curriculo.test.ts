/**
 * /admin/curriculo in a browser (issue 30): an admin finds an OA, opens its asignatura and level,
 * creates a unit, moves the OA into it and retires both ('No vigente'); exports the curriculum as
 * CSV, corrects one statement in the file, sees '1 cambiado' in the preview, applies it and reads
 * the new statement in the tree. A file with bad lines gets each line's error and changes
 * nothing. A teacher gets 403. The page passes axe and has no sideways scroll at 375 px.
 *
 * Matemática 8° básico is this file's own: no other browser test aligns material to it.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS } from '../../scripts/lib/budgets-lib.ts';
import { MOBILE } from '../support/browser.ts';
import { ANCHOS, abrirComo, apiComo, correoNuevo, docenteActivo, hidratada, navegador, toast, violacionesGraves } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const PAR = '/admin/curriculo?area=MA&nivel=08';
const marca = Date.now().toString(36);

/** The pair's tree as the API gives it, to prove that something did not change. */
async function arbolMa08() {
  const { api } = await apiComo();
  const { data } = await api.GET('/api/admin/curriculo/{area}/{nivel}/', { params: { path: { area: 'MA', nivel: '08' } } });
  return data;
}

/** The tree's item of an OA (its code in bold, its statement, its actions). */
const oaEnArbol = (page: Page, codigo: string) => page.locator('.oa-admin', { has: page.locator('.codigo-oa', { hasText: codigo }) });
const unidadEnArbol = (page: Page, nombre: string) =>
  page.locator('.unidad-admin', { has: page.getByRole('heading', { level: 3, name: nombre }) });

/** Chooses a file for the import and reviews it. */
async function revisar(page: Page, nombre: string, contenido: string) {
  await page.getByLabel('Archivo del currículum').setInputFiles({ name: nombre, mimeType: 'text/csv', buffer: Buffer.from(contenido) });
  await page.getByRole('button', { name: 'Revisar archivo' }).click();
}

describe('/admin/curriculo as an admin', () => {
  it('finds an OA, opens its level, creates a unit, moves the OA into it and retires both', async () => {
    const page = await abrirComo(browser);
    await page.goto('/admin/curriculo');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Currículum');
    expect(
      await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Currículum' }).getAttribute('aria-current'),
    ).toBe('page');
    // The pairs, grouped by asignatura (a panel that opens), each level a link.
    await page.locator('summary', { hasText: /^Matemática / }).click();
    const matematica = page.getByRole('region', { name: 'Matemática', exact: true });
    expect(await matematica.getByRole('link', { name: '8° básico' }).count()).toBe(1);

    await page.getByLabel('Buscar un OA').fill('MA08 OA 03');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'MA08 OA 03');
    const resultados = page.getByRole('region', { name: /OA encontrados/ });
    await resultados.getByRole('link', { name: 'MA08 OA 03', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('area') === 'MA' && u.searchParams.get('nivel') === '08');
    await hidratada(page);
    expect(await page.locator('#titulo-par').textContent()).toBe('Matemática, 8° básico');
    expect(await oaEnArbol(page, 'MA08 OA 03').count()).toBe(1);

    const nombre = `Unidad propia ${marca}`;
    await page.getByRole('button', { name: 'Nueva unidad' }).click();
    await page.getByLabel('Nombre de la unidad').fill(nombre);
    await page.getByRole('button', { name: 'Crear unidad' }).click();
    await toast(page, `Se creó la unidad «${nombre}»`);
    const unidad = unidadEnArbol(page, nombre);
    await expect.poll(() => unidad.locator('.sin-oas').count()).toBe(1);

    const oa = oaEnArbol(page, 'MA08 OA 03');
    await oa.getByRole('button', { name: 'Mover MA08 OA 03 a otra unidad' }).click();
    const dialogo = page.getByRole('dialog', { name: 'Mover a otra unidad' });
    await dialogo.getByLabel('Unidad').selectOption({ label: nombre });
    await dialogo.getByRole('button', { name: 'Mover' }).click();
    await toast(page, `Se movió MA08 OA 03 a «${nombre}»`);
    await expect.poll(() => unidad.locator('.codigo-oa').allTextContents()).toEqual(['MA08 OA 03']);
    // The button went with the OA: the focus follows it to its new place.
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('oa-admin'))).toBe(true);

    await unidad.getByRole('button', { name: 'Retirar MA08 OA 03' }).click();
    await toast(page, 'Se retiró MA08 OA 03');
    await expect.poll(() => oaEnArbol(page, 'MA08 OA 03').locator('.no-vigente').textContent()).toBe('No vigente');
    await unidad.getByRole('button', { name: `Retirar la unidad ${nombre}` }).click();
    await toast(page, `Se retiró la unidad «${nombre}»`);
    await expect.poll(() => unidad.locator('h3 .no-vigente').textContent()).toBe('No vigente');

    // The server's page says the same.
    await page.reload();
    await hidratada(page);
    expect(await unidadEnArbol(page, nombre).locator('h3 .no-vigente').textContent()).toBe('No vigente');
    expect(await oaEnArbol(page, 'MA08 OA 03').locator('.no-vigente').textContent()).toBe('No vigente');
  });

  it('renames and moves up a new unit and deletes it; a unit in use is offered Retirar instead', async () => {
    const page = await abrirComo(browser);
    await page.goto(PAR);
    await hidratada(page);
    const nombres = () => page.locator('.unidad-admin h3').allTextContents();
    const primera = ((await nombres())[0] ?? '').trim();

    await page.getByRole('button', { name: `Eliminar la unidad ${primera}` }).click();
    const dialogo = page.getByRole('dialog');
    await dialogo.getByRole('button', { name: 'Eliminar' }).click();
    await expect
      .poll(() => dialogo.getByRole('alert').textContent())
      .toBe('La unidad tiene OA o materiales asociados: retírela en lugar de eliminarla');
    expect(await dialogo.getByRole('button', { name: 'Retirar' }).count()).toBe(1);
    await dialogo.getByRole('button', { name: 'Cancelar' }).click();
    expect(await page.locator('.unidad-admin').first().locator('.no-vigente').count()).toBe(0);

    const vacia = `Vacía ${marca}`;
    await page.getByRole('button', { name: 'Nueva unidad' }).click();
    await page.getByLabel('Nombre de la unidad').fill(`Borrador ${marca}`);
    await page.getByRole('button', { name: 'Crear unidad' }).click();
    await toast(page, `Se creó la unidad «Borrador ${marca}»`);
    await page.getByRole('button', { name: `Renombrar la unidad Borrador ${marca}` }).click();
    await page.getByLabel('Nombre de la unidad').fill(vacia);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, `Se renombró la unidad: «${vacia}»`);
    await expect.poll(async () => (await nombres()).at(-1)?.trim()).toBe(vacia);
    const cuantas = (await nombres()).length;

    const subir = page.getByRole('button', { name: `Subir la unidad ${vacia}` });
    await subir.click();
    await toast(page, `Se movió la unidad «${vacia}»`);
    await expect.poll(async () => (await nombres()).at(-2)?.trim()).toBe(vacia);
    // The button keeps the focus where it was.
    expect(await subir.evaluate((b) => b === document.activeElement)).toBe(true);

    await page.getByRole('button', { name: `Eliminar la unidad ${vacia}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await toast(page, `Se eliminó la unidad «${vacia}»`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Nueva unidad');
    await expect.poll(async () => (await nombres()).length).toBe(cuantas - 1);
  });

  it("says inside the dialog why a shared module's OA cannot go to a unit of one level, and moves nothing", async () => {
    // Ciencias para la Ciudadanía, 4° medio: its modules are also 3° medio's (decision 0084); no other browser test uses it.
    const page = await abrirComo(browser);
    await page.goto('/admin/curriculo?area=CPC&nivel=4M');
    await hidratada(page);
    const nombre = `Solo 4° medio ${marca}`;
    await page.getByRole('button', { name: 'Nueva unidad' }).click();
    await page.getByLabel('Nombre de la unidad').fill(nombre);
    await page.getByRole('button', { name: 'Crear unidad' }).click();
    await toast(page, `Se creó la unidad «${nombre}»`);

    await page.getByRole('button', { name: 'Mover FG-CIBS-3y4-OAC-01 a otra unidad' }).click();
    const dialogo = page.getByRole('dialog');
    await dialogo.getByLabel('Unidad').selectOption({ label: nombre });
    await dialogo.getByRole('button', { name: 'Mover' }).click();
    await expect
      .poll(() => dialogo.getByRole('alert').textContent())
      .toBe('La unidad de destino no se imparte en 3° medio, como la del OA');
    // Another choice clears it; closing leaves the OA in its module.
    await dialogo.getByLabel('Unidad').selectOption({ index: 0 });
    expect(await dialogo.getByRole('alert').count()).toBe(0);
    await dialogo.getByRole('button', { name: 'Cancelar' }).click();
    expect(await unidadEnArbol(page, 'Bienestar y salud').locator('.oa-admin', { hasText: 'FG-CIBS-3y4-OAC-01' }).count()).toBe(1);

    await page.getByRole('button', { name: `Eliminar la unidad ${nombre}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await toast(page, `Se eliminó la unidad «${nombre}»`);
  });

  it('exports the curriculum as CSV, previews one corrected statement, applies it and shows it in the tree', async () => {
    const page = await abrirComo(browser);
    await page.goto(PAR);
    await hidratada(page);
    const [descarga] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar currículum (CSV)' }).click(),
    ]);
    expect(descarga.suggestedFilename()).toMatch(/^curriculo.*\.csv$/);
    const csv = readFileSync(await descarga.path(), 'utf8').replace(/^\uFEFF/, '');
    const [encabezado, ...filas] = csv.split(/\r?\n/);
    expect(encabezado).toBe('area,nivel,unidad,unidad_orden,oa,descripcion,oa_orden,vigente,fuente,otros_niveles');
    // This file's level only: the file replaces the curriculum of the levels it mentions.
    const propias = filas.filter((f) => f.startsWith('MA,08,'));
    expect(propias.length).toBeGreaterThan(5);

    const antes = (await oaEnArbol(page, 'MA08 OA 01').locator('.enunciado-oa').textContent()) ?? '';
    const nuevo = `${antes} Revisado ${marca}.`;
    const editado = [encabezado, ...propias.map((f) => (f.includes(',MA08 OA 01,') ? f.replace(antes, nuevo) : f))].join('\n');
    expect(editado).toContain(nuevo);

    await revisar(page, 'curriculo-ma08.csv', editado);
    await expect.poll(() => page.locator('#titulo-vista-curriculo').textContent()).toBe('Vista previa del archivo: 1 asignatura y nivel');
    expect(await page.locator('.cifras-importacion li').allTextContents()).toEqual([
      '0 agregados',
      '1 cambiado',
      '0 retirados',
      expect.stringMatching(/^\d+ sin cambios$/),
    ]);
    const cambios = page.getByRole('region', { name: 'Cambios del archivo' });
    const fila = cambios.locator('tbody tr');
    expect(await fila.count()).toBe(1);
    expect(await fila.locator('th').textContent()).toBe('MA08 OA 01');
    expect(await fila.textContent()).toContain(nuevo);
    // The preview wrote nothing.
    expect((await arbolMa08())?.unidades.flatMap((u) => u.oas).find((o) => o.codigo === 'MA08 OA 01')?.descripcion).toBe(antes);

    await page.getByRole('button', { name: 'Aplicar cambios' }).click();
    await expect.poll(() => page.locator('#titulo-resultado-curriculo').textContent()).toBe('Cambios aplicados');
    await expect.poll(() => oaEnArbol(page, 'MA08 OA 01').locator('.enunciado-oa').textContent()).toBe(nuevo);
  });

  it('shows each bad line of a file and applies nothing', async () => {
    const page = await abrirComo(browser);
    await page.goto(PAR);
    await hidratada(page);
    const antes = await arbolMa08();
    const malo = [
      'area,nivel,unidad,oa,descripcion',
      'MA,08,Unidad 1,MA08 OA 01,Un enunciado cualquiera.',
      'MA,08,Unidad 1,MA08 OA 01,El mismo código otra vez.',
      'MA,99,Unidad 1,MA99 OA 01,Un nivel que no existe.',
      'MA,08,Unidad 1,MA08 OA 02,',
    ].join('\n');
    await revisar(page, 'malo.csv', malo);
    await expect
      .poll(() => page.locator('#titulo-vista-curriculo').textContent())
      .toMatch(/^El archivo tiene \d+ líneas con errores: corrígelas y revísalo de nuevo$/);
    const errores = page.getByRole('region', { name: 'Errores del archivo' });
    const lineas = await errores.locator('tbody th').allTextContents();
    expect(lineas).toEqual(expect.arrayContaining(['3', '4', '5']));
    for (const linea of ['3', '4', '5'])
      expect(
        await errores
          .locator('tbody tr', { has: page.getByRole('rowheader', { name: linea, exact: true }) })
          .first()
          .locator('td')
          .textContent(),
      ).not.toBe('');
    expect(await page.getByRole('button', { name: 'Aplicar cambios' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Cancelar' }).click();
    expect(await errores.count()).toBe(0);
    expect(await arbolMa08()).toEqual(antes);
  });

  it('passes axe and scrolls nothing sideways, at 1280 and 375 px', async () => {
    for (const [nombre, viewport] of ANCHOS) {
      const page = await abrirComo(browser, undefined, viewport);
      for (const ruta of ['/admin/curriculo?q=fracciones', PAR]) {
        await page.goto(ruta);
        await hidratada(page);
        expect(await violacionesGraves(page), `${nombre} ${ruta}`).toEqual([]);
        // npm run budgets requests the page without a query: a level's tree is held to the HTML budget here.
        const html = await (await page.request.get(ruta)).body();
        expect(gzipSync(html, { level: 9 }).length, ruta).toBeLessThan(BUDGETS.html);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${nombre} ${ruta}`).toBeLessThanOrEqual(viewport.width);
      }
      await page.screenshot({ path: path.join(os.tmpdir(), `ed-admin-curriculo-${viewport.width}.png`), fullPage: true });
    }
  });
});

describe('/admin/curriculo as a teacher', () => {
  it("answers 403 and 'No tienes permisos'", async () => {
    const email = correoNuevo('docente.curriculo');
    await docenteActivo(email, 'Docente2026');
    const page = await abrirComo(browser, { email, password: 'Docente2026' }, MOBILE);
    const respuesta = await page.goto(PAR);
    expect(respuesta?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No tienes permisos');
    expect(await page.getByText('Nueva unidad').count()).toBe(0);
  });
});
