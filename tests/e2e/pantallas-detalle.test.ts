/**
 * The detail pages and what issue 33's last walk found, on a 375x740 phone and a 1280x800 desktop:
 * a capsule's, material's, manual's and conversation's actions in one order and one style; the
 * count of comments above a material, a capsule and a conversation follows a new comment without a
 * reload (the manual's is in comentarios-propios.test.ts); a category's conversation search behind
 * 'Filtros' on a phone (decision 0056), open when a date is wrong; the profile's 'Colecciones
 * compartidas' a panel like its other sections; and no teacher page, nor an admin's upload and edit
 * forms, wider than the screen.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE } from '../support/browser.ts';
import { multipart } from '../support/form.ts';
import { video } from '../support/video.ts';
import {
  ANCHOS,
  abrirComo,
  apiComo,
  correoNuevo,
  docenteActivo,
  hidratada,
  manualPorApi,
  materialPorApi,
  navegador,
  publicarCapsula,
} from './helpers.ts';

/** A 1x1 PNG: the server crops any category image to 640x360. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const docente = { email: correoNuevo('detalle'), password: 'Docente2026' };

let browser: Browser;
let idDocente = 0;
let idAdmin = 0;
const rutas = { capsula: '', material: '', manual: '', conversacion: '', categoria: '', coleccion: '', oa: '' };

beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(docente.email, docente.password);
  const admin = await apiComo();
  const api = admin.api;
  idAdmin = admin.id;
  const material = await materialPorApi('Guía para comentar');
  rutas.material = `/biblioteca-docente/${material.id}`;
  rutas.oa = `/biblioteca-docente/oa/${encodeURIComponent(material.oa)}`;
  rutas.manual = `/manuales/${await manualPorApi('Manual de las acciones')}`;
  const c = await api.POST('/api/foro/categorias/', {
    body: { nombre: `Detalle ${Date.now().toString(36)}`, descripcion: 'Conversaciones', activa: true, archivo: 'c.png' },
    bodySerializer: multipart({ data: PNG, name: 'c.png', type: 'image/png' }),
  });
  expect(c.response.status).toBe(201);
  const idCategoria = c.data?.id ?? 0;
  rutas.categoria = `/foro/categorias/${idCategoria}`;
  const { data: conversacion } = await api.POST('/api/foro/conversacion/nueva/', {
    body: { id_usuario: idAdmin, id_categoria: idCategoria, titulo: 'Rúbricas compartidas', contenido: 'Compartamos **rúbricas**' },
  });
  rutas.conversacion = `${rutas.categoria}/conversacion/${conversacion?.id}`;
  rutas.capsula = `/capsulas/${(await publicarCapsula(api, { titulo: 'Cápsula de las acciones', video: await video({ seconds: 2 }) })).id}`;
  const yo = await apiComo(docente);
  idDocente = yo.id;
  const { data: coleccion, response } = await yo.api.POST('/api/colecciones/', {
    body: { nombre: 'Para primero medio', compartida: true },
  });
  expect(response.status).toBe(201);
  rutas.coleccion = `/colecciones/${coleccion?.id}`;
}, 240_000);
afterAll(async () => {
  await browser?.close();
});

/** How far the page scrolls sideways: 0 when nothing is wider than the screen. */
const desborde = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The actions of a detail page's row, in order, by what they do ('Original' and 'Versión liviana' download). */
async function acciones(page: Page): Promise<string[]> {
  const textos = await page
    .locator('.acciones-detalle')
    .first()
    .locator('button, a')
    .evaluateAll((es) => es.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));
  const nombres = textos.map((t) => (/^(Descargar|Original|Versión liviana)/.test(t) ? 'Descargar' : t.replace(/ ?\d+$/, '')));
  return nombres.filter((n, i) => n !== nombres[i - 1]);
}

/** What makes two controls look alike. */
const aspecto = (control: Locator) =>
  control.evaluate((e) => {
    const s = getComputedStyle(e);
    return {
      alto: Math.round(e.getBoundingClientRect().height),
      radio: s.borderTopLeftRadius,
      fondo: s.backgroundColor,
      borde: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
      letra: `${s.fontSize} ${s.fontWeight}`,
      color: s.color,
    };
  });

describe('a detail page’s actions', () => {
  for (const [nombre, viewport] of ANCHOS) {
    it(`come in one order and the personal ones in one style: Me gusta, Añadir a guardados, Agregar a colección, then Leer or Descargar (${nombre})`, async () => {
      const page = await abrirComo(browser, docente, viewport);
      const esperadas: [string, string[]][] = [
        [rutas.capsula, ['Me gusta', 'Añadir a guardados', 'Agregar a colección', 'Descargar']],
        [rutas.material, ['Me gusta', 'Añadir a guardados', 'Agregar a colección', 'Descargar']],
        [rutas.manual, ['Me gusta', 'Añadir a guardados', 'Agregar a colección', 'Leer', 'Descargar']],
        [rutas.conversacion, ['Añadir a guardados', 'Agregar a colección']],
      ];
      for (const [ruta, orden] of esperadas) {
        await page.goto(ruta);
        await page.waitForLoadState('load');
        expect(await acciones(page), ruta).toEqual(orden);
        const guardar = await aspecto(page.getByRole('button', { name: 'Añadir a guardados' }));
        expect(await aspecto(page.getByRole('link', { name: 'Agregar a colección' })), ruta).toEqual(guardar);
        if (orden[0] === 'Me gusta') expect(await aspecto(page.getByRole('button', { name: /^Me gusta/ })), ruta).toEqual(guardar);
        expect(await desborde(page), ruta).toBe(0);
      }
    });
  }
});

describe('the count of comments above the content (issue 33)', () => {
  it.each(ANCHOS)('follows a new comment on a material, a capsule and a conversation at once, %s', async (_, viewport) => {
    const page = await abrirComo(browser, docente, viewport);
    for (const ruta of [rutas.material, rutas.capsula]) {
      await page.goto(ruta);
      const cifra = page.locator('ul.cifras-contenido #cifra-comentarios');
      const antes = Number.parseInt((await cifra.textContent()) ?? '', 10);
      // The comments' island wakes when it comes into view (below the fold on a phone).
      await page.getByLabel('Escribe un comentario').scrollIntoViewIfNeeded();
      await hidratada(page);
      await page.getByLabel('Escribe un comentario').fill(`Lo usaré en clase (${viewport.width})`);
      await page.getByRole('button', { name: 'Comentar', exact: true }).click();
      await expect.poll(() => cifra.textContent(), { message: ruta }).toBe(antes === 0 ? '1 comentario' : `${antes + 1} comentarios`);
    }
    await page.goto(rutas.conversacion);
    const titulo = page.locator('#titulo-comentarios');
    const antes = Number.parseInt((await titulo.textContent()) ?? '', 10);
    await page.getByLabel('Añadir comentario').scrollIntoViewIfNeeded();
    await hidratada(page);
    await page.getByLabel('Añadir comentario').fill(`Me sirve (${viewport.width})`);
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    await expect.poll(() => titulo.textContent()).toBe(antes === 0 ? '1 comentario' : `${antes + 1} comentarios`);
  });
});

describe("a category's conversation search", () => {
  it("waits behind 'Filtros' on a phone, names what is searched, and opens on a wrong date", async () => {
    const page = await abrirComo(browser, docente, MOBILE);
    await page.goto(rutas.categoria);
    const filtros = page.locator('details.filtros-movil > summary');
    const formulario = page.locator('details.filtros-movil + form');
    expect(await filtros.isVisible()).toBe(true);
    expect(await page.locator('.filtros-activos').textContent()).toBe('Ninguno activo');
    expect(await formulario.isVisible()).toBe(false);
    // The first conversation shows on the first screen.
    const primera = await page.locator('ul.conversaciones > li').first().boundingBox();
    expect((primera?.y ?? Number.POSITIVE_INFINITY) + 80).toBeLessThanOrEqual(MOBILE.height);
    await filtros.click();
    expect(await page.getByRole('button', { name: 'Buscar' }).isVisible()).toBe(true);

    await page.goto(`${rutas.categoria}?palabra_clave=rúbricas&fecha_desde=2026-03-05`);
    expect(await page.locator('.filtros-activos').textContent()).toBe('«rúbricas» · desde el 5 de marzo de 2026');
    expect(await formulario.isVisible()).toBe(false);
    // A date in the future: the form comes open with the server's message in view.
    await page.goto(`${rutas.categoria}?fecha_desde=2999-01-01`);
    expect(await formulario.isVisible()).toBe(true);
    expect(await page.locator('#fecha_desde-error').isVisible()).toBe(true);

    const escritorio = await abrirComo(browser, docente, DESKTOP);
    await escritorio.goto(rutas.categoria);
    expect(await escritorio.locator('details.filtros-movil').isVisible()).toBe(false);
    expect(await escritorio.locator('details.filtros-movil + form').isVisible()).toBe(true);
  });
});

describe('a profile', () => {
  it.each(ANCHOS)("shows 'Colecciones compartidas' as a panel like its other sections, %s", async (_, viewport) => {
    const page = await abrirComo(browser, docente, viewport);
    await page.goto(`/perfil/${idDocente}`);
    const panel = (titulo: string) =>
      page.getByRole('region', { name: titulo }).evaluate((s) => {
        const e = getComputedStyle(s);
        const h = getComputedStyle(s.querySelector('h2') as Element);
        return {
          relleno: e.padding,
          borde: e.border,
          radio: e.borderRadius,
          fondo: e.backgroundColor,
          titulo: `${h.fontSize} ${h.marginBottom}`,
        };
      });
    expect(await page.getByRole('link', { name: 'Para primero medio' }).isVisible()).toBe(true);
    expect(await panel('Colecciones compartidas')).toEqual(await panel('Establecimientos'));
  });
});

describe('no page wider than the screen', () => {
  it.each(ANCHOS)('the pages the other files leave out, %s', async (_, viewport) => {
    const page = await abrirComo(browser, docente, viewport);
    const anchas: string[] = [];
    for (const ruta of [
      rutas.conversacion,
      `/perfil/${idDocente}`,
      '/perfil/guardados',
      '/colecciones/',
      rutas.coleccion,
      `/colecciones/agregar?tipo=material&id=${rutas.material.split('/').at(-1)}`,
      rutas.oa,
      `/perfil/${idAdmin}/contactar`,
      '/perfil/mis-datos',
      '/perfil/sesiones',
      '/perfil/segundo-factor',
      '/perfil/eliminar-cuenta',
      '/privacidad',
      '/explorar/',
    ]) {
      await page.goto(ruta);
      await page.waitForLoadState('load');
      const sobra = await desborde(page);
      if (sobra > 0) anchas.push(`${ruta}: ${sobra} px de más`);
    }
    expect(anchas).toEqual([]);
  });

  it.each(ANCHOS)("nor an admin's upload and edit forms outside the console, %s", async (_, viewport) => {
    const page = await abrirComo(browser, undefined, viewport);
    const id = (ruta: string) => ruta.split('/').at(-1);
    const anchas: string[] = [];
    for (const ruta of [
      '/capsulas/subir',
      '/manuales/subir',
      `/capsulas/editar/${id(rutas.capsula)}`,
      `/manuales/editar/${id(rutas.manual)}`,
      `/biblioteca-docente/editar/${id(rutas.material)}`,
      '/foro/categorias/crear',
      `/foro/categorias/editar/${id(rutas.categoria)}`,
    ]) {
      expect((await page.goto(ruta))?.status(), ruta).toBe(200);
      await page.waitForLoadState('load');
      const sobra = await desborde(page);
      if (sobra > 0) anchas.push(`${ruta}: ${sobra} px de más`);
    }
    expect(anchas).toEqual([]);
  });
});
