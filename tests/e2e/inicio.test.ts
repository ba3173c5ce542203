/**
 * The home in the browser (issue 21): a teacher whose profile has an area and a level (set through
 * the API, as the profile page does) sees that area's materials in 'Novedades para ti' and not the
 * network's newer ones, follows 'Ver más' to the filtered list, sees 'Desde tu última visita' count
 * a material published after they opened the home; the page is axe clean at 1280 and 375 px, has
 * no horizontal scroll on a phone, and works with JavaScript disabled.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/client.ts';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { ANCHOS, abrirComo, apiComo, correoNuevo, docenteActivo, ingresarPorApi, navegador, url, violacionesGraves } from './helpers.ts';

let browser: Browser;
let admin: ApiClient;
const docente = { email: correoNuevo('inicio'), password: 'Docente2026' };
/** The teacher's area and level: few other browser tests publish there. */
const AREA = 'Ciencias Naturales';
const NIVEL = '04';
let area: { id: number; nombre: string };
let nivel: { codigo: string; nombre: string };
const marca = Date.now().toString(36);

/** Publishes a material as the admin, as the upload form would; its title. */
async function publicarMaterial(titulo: string, codigoArea: string, codigoNivel: string): Promise<string> {
  const [{ data: areas = [] }, { data: tipos = [] }] = await Promise.all([
    admin.GET('/api/curriculum_escolar/areas/'),
    admin.GET('/api/bdocente/tipo/'),
  ]);
  const a = areas.find((x) => x.codigo === codigoArea);
  const { data: unidades = [] } = await admin.GET('/api/curriculum_escolar/unidades/', {
    params: { query: { area: a?.id ?? 0, nivel: codigoNivel } },
  });
  const unidad = unidades[0];
  const { data: oas = [] } = await admin.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: unidad?.id ?? 0 } } });
  if (!a || !unidad || !oas[0] || !tipos[0]) throw new Error(`the catalogues lack a unit with OAs of ${codigoArea} at ${codigoNivel}`);
  const { response } = await admin.POST('/api/bdocente/', {
    body: {
      titulo,
      descripcion: 'Un material para la sala.',
      id_area: a.id,
      id_nivel: codigoNivel,
      id_unidad: unidad.id,
      oas: [oas[0].id],
      tipo_material_docente: tipos[0].id,
      archivo: 'guia.pdf',
    },
    bodySerializer: multipart({ data: pdf(1), name: 'guia.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
  return titulo;
}

const bloque = (page: Page, titulo: string) => page.getByRole('region', { name: titulo, exact: true });
const titulosDe = (page: Page, titulo: string) => bloque(page, titulo).locator('.filas-novedades > li > a').allTextContents();

/** How many new materials 'Desde tu última visita' says there are (0 when it lists none). */
async function materialesNuevos(page: Page): Promise<number> {
  const textos = await page.getByRole('region', { name: 'Desde tu última visita' }).getByRole('link').allTextContents();
  const texto = textos.find((t) => t.includes('Biblioteca Docente'));
  return texto ? Number(texto.split(' ')[0]) : 0;
}

beforeAll(async () => {
  browser = await navegador();
  admin = (await apiComo()).api;
  await docenteActivo(docente.email, docente.password);
  const comoDocente = await apiComo(docente);
  const [{ data: areas = [] }, { data: niveles = [] }] = await Promise.all([
    admin.GET('/api/curriculum_escolar/areas/'),
    admin.GET('/api/curriculum_escolar/niveles/'),
  ]);
  const a = areas.find((x) => x.nombre === AREA);
  const n = niveles.find((x) => x.codigo === NIVEL);
  if (!a || !n) throw new Error(`no area ${AREA} or level ${NIVEL}`);
  area = a;
  nivel = n;
  const id = { path: { id: comoDocente.id } };
  const conArea = await comoDocente.api.POST('/api/usuarios/profesores/{id}/areas/', { params: id, body: { area: AREA } });
  expect(conArea.response.status).toBe(201);
  const conNivel = await comoDocente.api.POST('/api/usuarios/profesores/{id}/niveles/', { params: id, body: { nivel: nivel.nombre } });
  expect(conNivel.response.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
});

describe('home', () => {
  it("shows the profile's area and level first, 'Ver más' lands on the filtered list, and a new material is counted", async () => {
    const delPerfil = await publicarMaterial(`Ciclo del agua ${marca}`, 'CN', NIVEL);
    // Newer, of another area: the network's, not the teacher's.
    const deLaRed = await publicarMaterial(`Fracciones de la red ${marca}`, 'MA', '07');

    const page = await abrirComo(browser, docente);
    await page.goto('/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Bienvenido a Entre Docentes');
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Desde tu última visita', 'Novedades para ti']);
    expect((await page.getByRole('heading', { level: 3 }).allTextContents()).map((t) => t.trim())).toEqual([
      'Cápsulas',
      'Biblioteca Docente',
      'Manuales',
      'Conversaciones con actividad',
      'Notificaciones sin leer',
    ]);
    expect((await page.locator('.alcance-novedades').textContent())?.trim()).toBe(`Según tus áreas (${AREA}) y niveles (${nivel.nombre}).`);
    const materiales = await titulosDe(page, 'Biblioteca Docente');
    expect(materiales).toContain(delPerfil);
    expect(materiales).not.toContain(deLaRed);
    expect(await bloque(page, 'Notificaciones sin leer').getByText('No tienes notificaciones sin leer.').isVisible()).toBe(true);

    // 'Desde tu última visita': a first visit counts the last 7 days; a material published since is counted on the next opening.
    expect(await page.getByText('Es tu primera visita: te contamos lo nuevo de los últimos 7 días.').isVisible()).toBe(true);
    const antes = await materialesNuevos(page);
    expect(antes).toBeGreaterThanOrEqual(2);
    await publicarMaterial(`Los sentidos ${marca}`, 'CN', NIVEL);
    await page.reload();
    expect(await materialesNuevos(page)).toBe(antes + 1);
    expect(await titulosDe(page, 'Biblioteca Docente')).toContain(`Los sentidos ${marca}`);

    const verMas = bloque(page, 'Biblioteca Docente').getByRole('link', { name: `Ver más materiales de ${AREA} en ${nivel.nombre}` });
    await verMas.click();
    await page.waitForURL(url(`/biblioteca-docente/?id_area=${area.id}&id_nivel=${NIVEL}`));
    const lista = page.locator('main');
    expect(await lista.getByText(delPerfil).count()).toBe(1);
    expect(await lista.getByText(deLaRed).count()).toBe(0);
  });

  it("says when the previous visit was once the teacher signs in again, no longer 'Es tu primera visita' (issue 33)", async () => {
    const otra = { email: correoNuevo('inicio-visitas'), password: 'Docente2026' };
    await docenteActivo(otra.email, otra.password);
    const desde = (page: Page) => page.getByRole('region', { name: 'Desde tu última visita' });

    const primera = await abrirComo(browser, otra);
    await primera.goto('/');
    expect(await desde(primera).getByText('Es tu primera visita', { exact: false }).isVisible()).toBe(true);
    await primera.context().close();

    // Another sign-in, minutes later: a new visit, counted from the opening before it.
    const segunda = await abrirComo(browser, otra);
    await segunda.goto('/');
    expect(await desde(segunda).getByText('Tu visita anterior fue el', { exact: false }).isVisible()).toBe(true);
    expect(await desde(segunda).getByText('Es tu primera visita', { exact: false }).count()).toBe(0);
    // A reload is the same visit: still anchored on the previous one.
    await segunda.reload();
    expect(await desde(segunda).getByText('Tu visita anterior fue el', { exact: false }).isVisible()).toBe(true);
    await segunda.context().close();
  });

  it.each(ANCHOS)('is axe clean and fits the screen (%s)', async (_nombre, viewport) => {
    const page = await abrirComo(browser, docente, viewport);
    await page.goto('/');
    await bloque(page, 'Biblioteca Docente').waitFor();
    expect(await violacionesGraves(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  });

  it("wraps a row's meta line after a '·', never before one (375 px)", async () => {
    const page = await abrirComo(browser, docente, { width: 375, height: 800 });
    await page.goto('/');
    await bloque(page, 'Biblioteca Docente').waitFor();
    // Each part of a meta line: its left edge, whether it begins a line, and its separators.
    const partes = await page.locator('.meta-novedad').evaluateAll((lineas) =>
      lineas.flatMap((linea) => {
        const izquierda = linea.getBoundingClientRect().left;
        return [...linea.children].map((parte, i) => ({
          inicioDeRenglon: i > 0 && Math.abs(parte.getBoundingClientRect().left - izquierda) < 1,
          antes: getComputedStyle(parte, '::before').content,
          despues: getComputedStyle(parte, '::after').content,
          ultima: i === linea.children.length - 1,
        }));
      }),
    );
    // The block's rows are narrow enough at 375 px that the date goes to a line of its own.
    expect(partes.some((p) => p.inicioDeRenglon)).toBe(true);
    for (const parte of partes) {
      expect(parte.antes).toBe('none');
      expect(parte.despues).toBe(parte.ultima ? 'none' : '"·" / ""');
    }
  });

  it('works with JavaScript disabled', async () => {
    const context = await browser.newContext({ baseURL: inject('baseUrl'), javaScriptEnabled: false, locale: 'es-CL' });
    const page = await context.newPage();
    await ingresarPorApi(page, docente);
    await page.goto('/');
    expect(await page.getByRole('heading', { name: 'Novedades para ti' }).isVisible()).toBe(true);
    await bloque(page, 'Biblioteca Docente')
      .getByRole('link', { name: `Ver más materiales de ${AREA} en ${nivel.nombre}` })
      .click();
    await page.waitForURL(url(`/biblioteca-docente/?id_area=${area.id}&id_nivel=${NIVEL}`));
    await page.goto('/');
    await page.getByRole('link', { name: 'Ver todas las notificaciones' }).click();
    await page.waitForURL(url('/notificaciones'));
  });
});
