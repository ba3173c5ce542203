/**
 * Following in Chromium (issue 35, decision 0074), without JavaScript: Ana follows an OA from its
 * page, a colleague uploads a material aligned to it, and the notification waits in
 * /notificaciones; she follows the colleague, a forum category and an area and level from their
 * pages; 'Lo que sigo' lists them all and stops the OA. Screenshots at 1280 and 375 px.
 */
import type { Browser, Locator } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { abrirComo, apiComo, capturasAnchos, correoNuevo, docenteActivo, navegador, sinScriptComo, violacionesGraves } from './helpers.ts';

let browser: Browser;
const ana = { email: correoNuevo('seguimientos.ana'), password: 'Docente2026' };
const luis = { email: correoNuevo('seguimientos.luis'), password: 'Docente2026' };

beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(ana.email, ana.password);
  await docenteActivo(luis.email, luis.password);
});

/** The last OA of 7° básico Matemática's first unit (the other browser files align to its first). */
async function oaElegido(): Promise<{ id: number; codigo: string; area: number; unidad: number }> {
  const { api } = await apiComo(luis);
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const area = areas.find((a) => a.nombre === 'Matemática')?.id ?? 0;
  const { data: unidades = [] } = await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area, nivel: '07' } } });
  const unidad = unidades[0]?.id ?? 0;
  const { data: oas = [] } = await api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad } } });
  const oa = oas.at(-1);
  return { id: oa?.id ?? 0, codigo: oa?.codigo ?? '', area, unidad };
}

/** An active forum category made by the admin, as its form would. */
async function categoriaPorApi(nombre: string): Promise<number> {
  const admin = await apiComo();
  const imagen = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#5fb3a1' } })
    .png()
    .toBuffer();
  const { data, response } = await admin.api.POST('/api/foro/categorias/', {
    body: { nombre, descripcion: 'Conversaciones', activa: true, archivo: 'imagen.png' },
    bodySerializer: multipart({ data: imagen, name: 'imagen.png', type: 'image/png' }),
  });
  expect(response.status).toBe(201);
  return data?.id ?? 0;
}

/** Luis uploads a PDF guide aligned to the OA, as the upload form sends it. */
async function luisSube(oa: Awaited<ReturnType<typeof oaElegido>>, titulo: string): Promise<void> {
  const { api } = await apiComo(luis);
  const { data: tipos = [] } = await api.GET('/api/bdocente/tipo/');
  const { response } = await api.POST('/api/bdocente/', {
    body: {
      titulo,
      descripcion: 'Ejercicios',
      id_area: oa.area,
      id_nivel: '07',
      id_unidad: oa.unidad,
      oas: [oa.id],
      tipo_material_docente: tipos[0]?.id ?? 0,
      archivo: 'guia.pdf',
    },
    bodySerializer: multipart({ data: pdf(1), name: 'guia.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
}
afterAll(async () => {
  await browser?.close();
});

describe('seguir un OA', () => {
  it('follows without script, is told of a colleague’s new material, and stops from Lo que sigo', { timeout: 120_000 }, async () => {
    const elegido = await oaElegido();
    const oa = elegido.codigo;
    const page = await sinScriptComo(browser, ana);
    await page.goto(`/biblioteca-docente/oa/${encodeURIComponent(oa)}`);
    await page.getByRole('button', { name: 'Seguir este OA' }).click();
    await page.waitForURL(/\/biblioteca-docente\/oa\//);
    expect(await page.getByRole('button', { name: 'Dejar de seguir' }).count()).toBe(1);

    // A colleague uploads a guide aligned to that OA.
    await luisSube(elegido, 'Guía nueva de fracciones');
    await page.goto('/notificaciones');
    // Other browser files may upload to the same OA meanwhile: one entry, counted.
    const entrada = page.getByText(new RegExp(`^(Nuevo material|\\d+ materiales nuevos) para ${oa}$`));
    expect(await entrada.count()).toBe(1);
    await capturasAnchos(page, 'seguimientos-notificaciones');

    // Screens and accessibility with script on (the test tool's checks need it).
    const vista = await abrirComo(browser, ana);
    for (const [nombre, ruta] of [
      ['oa', `/biblioteca-docente/oa/${encodeURIComponent(oa)}`],
      ['lista', '/perfil/seguimientos'],
    ] as const) {
      await vista.goto(ruta);
      expect(await violacionesGraves(vista)).toEqual([]);
      await capturasAnchos(vista, `seguimientos-${nombre}`);
    }
    await vista.context().close();

    // The other three buttons, each a plain form too: a colleague, a forum category, an area and level.
    const { id: idLuis } = await apiComo(luis);
    await page.goto(`/perfil/${idLuis}`);
    await page.getByRole('button', { name: /^Seguir: / }).click();
    await page.waitForURL(new RegExp(`/perfil/${idLuis}/?$`));
    expect(await page.getByRole('button', { name: /^Dejar de seguir: / }).count()).toBe(1);
    await capturasAnchos(page, 'seguimientos-perfil');
    const categoria = await categoriaPorApi(`Seguimiento ${Date.now().toString(36)}`);
    await page.goto(`/foro/categorias/${categoria}`);
    await page.getByRole('button', { name: 'Seguir esta categoría' }).click();
    await page.waitForURL(new RegExp(`/foro/categorias/${categoria}/?$`));
    expect(await page.getByRole('button', { name: 'Dejar de seguir' }).count()).toBe(1);
    await capturasAnchos(page, 'seguimientos-categoria');
    await page.goto(`/biblioteca-docente/mapa?area=${elegido.area}&nivel=07`);
    await page.getByRole('button', { name: 'Seguir Matemática · 7° básico' }).click();
    await page.waitForURL(/\/biblioteca-docente\/mapa\?/);
    expect(await page.getByRole('button', { name: 'Dejar de seguir' }).count()).toBe(1);
    await capturasAnchos(page, 'seguimientos-mapa');

    await page.goto('/perfil/');
    await page.getByRole('link', { name: 'Lo que sigo' }).click();
    await page.waitForURL(/\/perfil\/seguimientos\/?$/);
    for (const titulo of ['OA', 'Áreas y niveles', 'Docentes', 'Categorías del foro']) {
      expect(await page.getByRole('heading', { name: new RegExp(`^${titulo} \\(1\\)$`) }).count()).toBe(1);
    }
    expect(await page.getByRole('link', { name: oa }).count()).toBe(1);
    await page.getByRole('button', { name: `Dejar de seguir: ${oa}` }).click();
    await page.waitForURL(/\/perfil\/seguimientos\/?$/);
    expect(await page.getByRole('link', { name: oa }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: /^OA / }).count()).toBe(0);
    await page.context().close();
  });
});

describe('the Seguir button', () => {
  it("is a pill like 'Añadir a guardados', lighter than the page's own buttons, followed or not", async () => {
    const marta = { email: correoNuevo('seguimientos.marta'), password: 'Docente2026' };
    await docenteActivo(marta.email, marta.password);
    const { id: idLuis } = await apiComo(luis);
    const page = await abrirComo(browser, marta);
    const aspecto = (boton: Locator) =>
      boton.evaluate((e) => {
        const s = getComputedStyle(e);
        return { radio: s.borderTopLeftRadius, fondo: s.backgroundColor, peso: s.fontWeight };
      });
    const pildora = { radio: '999px', fondo: 'rgb(255, 255, 255)', peso: '500' };
    for (const [ruta, seguir, dejar, propio] of [
      [`/biblioteca-docente/oa/${encodeURIComponent('MA07 OA 01')}`, 'Seguir este OA', 'Dejar de seguir', 'Subir'],
      [`/perfil/${idLuis}`, /^Seguir: /, /^Dejar de seguir: /, 'Contactar'],
    ] as const) {
      await page.goto(ruta);
      // What the page itself offers stays a filled button.
      expect(await aspecto(page.getByRole('link', { name: propio, exact: true }))).not.toMatchObject({ fondo: pildora.fondo });
      expect(await aspecto(page.getByRole('button', { name: seguir }))).toEqual(pildora);
      await page.getByRole('button', { name: seguir }).click();
      await page.getByRole('button', { name: dejar }).waitFor();
      expect(await aspecto(page.getByRole('button', { name: dejar }))).toEqual(pildora);
      await page.getByRole('button', { name: dejar }).click();
      await page.getByRole('button', { name: seguir }).waitFor();
    }
    await page.context().close();
  });
});
