/**
 * A teacher's screens on a 375x740 phone and a 1280x800 desktop (issue 33): what an empty network
 * says a teacher can do, the lists' 'Filtros' panel that lets the first result show on the first
 * phone screen, no page wider than the screen, the map's table scrolling in its own box, the
 * profile dialog's Guardar in reach, a quiet 'Cerrar Sesión' and the upload form's neutral
 * invitation on an OA with no material.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, newPage } from '../support/browser.ts';
import { type ApiClient, apiClient, signIn } from '../support/client.ts';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { ADMIN, lastLinkTo, type RunningServer, removeDir, startServer } from '../support/server.ts';
import { video } from '../support/video.ts';
import { ANCHOS, abrirComo, apiComo, correoNuevo, docenteActivo, hidratada, navegador, publicarCapsula } from './helpers.ts';

/** A 1x1 PNG: the server crops any category image to 640x360. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const CLAVE = 'Docente2026';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

async function crearCategoria(api: ApiClient, nombre: string): Promise<number> {
  const { data, response } = await api.POST('/api/foro/categorias/', {
    body: { nombre, descripcion: 'Para probar las pantallas de un docente', activa: true, archivo: 'c.png' },
    bodySerializer: multipart({ data: PNG, name: 'c.png', type: 'image/png' }),
  });
  expect(response.status).toBe(201);
  return data?.id ?? 0;
}

/** How far the page scrolls sideways: 0 when nothing is wider than the screen. */
const desborde = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('a network on its first day (a server of its own: the shared one already has categories and content)', () => {
  let server: RunningServer;
  let docente: { email: string; password: string };

  beforeAll(async () => {
    server = await startServer();
    const admin = apiClient(server.url, (await signIn(server.url, ADMIN)).access);
    docente = { email: 'primer.dia@colegio.cl', password: CLAVE };
    const { response } = await admin.POST('/api/admin/usuarios/', {
      body: { email: docente.email, nombres: 'Primer', apellidos: 'Día Docente', admin: false },
    });
    expect(response.status).toBe(201);
    const token = new URL(await lastLinkTo(server.dataDir, docente.email)).pathname.split('/').filter(Boolean).at(-1) ?? '';
    const activada = await apiClient(server.url).POST('/api/usuarios/activar-cuenta/', {
      body: { token, password: CLAVE, password_confirmation: CLAVE, acepta_privacidad: true },
    });
    expect(activada.response.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (server) removeDir(server.dataDir);
  });

  async function comoDocente(viewport: { width: number; height: number }): Promise<Page> {
    const page = await newPage(browser, server.url, viewport);
    expect((await page.request.post('/auth/login/', { data: docente })).status()).toBe(200);
    return page;
  }

  for (const [nombre, viewport] of ANCHOS) {
    it(`the forum with no category says so in SPEC's words, then who creates them and where to propose one (${nombre})`, async () => {
      const page = await comoDocente(viewport);
      await page.goto('/foro/');
      const vacio = page.locator('.vacio');
      expect(await vacio.locator('p').first().textContent()).toBe('No se encontraron categorias');
      expect(await vacio.textContent()).toContain('Las categorías del foro las crea el equipo administrador de la red.');
      const ayuda = vacio.getByRole('link', { name: 'proponlo desde Ayuda' });
      expect(await ayuda.getAttribute('href')).toBe('/ayuda');
      expect(await ayuda.isVisible()).toBe(true);
      expect(await desborde(page)).toBe(0);
    });

    it(`empty capsules and manuals say only the network's admins publish them and link to Ayuda; the library invites an upload (${nombre})`, async () => {
      const page = await comoDocente(viewport);
      for (const [ruta, mensaje, quien, enlace] of [
        [
          '/capsulas/',
          'No se encontraron cápsulas',
          'Las cápsulas las publica el equipo administrador de la red.',
          'Sugiere una cápsula desde Ayuda',
        ],
        [
          '/manuales/',
          'No se encontraron manuales',
          'Los manuales los publica el equipo administrador de la red.',
          'Sugiere un manual desde Ayuda',
        ],
      ] as const) {
        await page.goto(ruta);
        const vacio = page.locator('.sin-resultados');
        expect(await vacio.locator('p').first().textContent()).toBe(mensaje);
        expect(await vacio.textContent()).toContain(quien);
        expect(await vacio.getByRole('link', { name: enlace }).getAttribute('href')).toBe('/ayuda');
        expect(await vacio.getByRole('link', { name: enlace }).isVisible()).toBe(true);
      }
      await page.goto('/biblioteca-docente/');
      expect(await page.locator('.sin-resultados').getByRole('link', { name: 'sube el primero' }).getAttribute('href')).toBe(
        '/biblioteca-docente/subir',
      );
      // A search with no result says how to widen it, not that the network is empty.
      await page.goto('/capsulas/?titulo=ninguna');
      expect(await page.locator('.sin-resultados').textContent()).toContain('Prueba con otras palabras o menos filtros');
      expect(await page.locator('.sin-resultados').getByRole('link', { name: 'Sugiere una cápsula desde Ayuda' }).count()).toBe(0);
    });
  }

  it('a category with no conversation invites the teacher to start the first, on a phone and a desktop', async () => {
    const admin = apiClient(server.url, (await signIn(server.url, ADMIN)).access);
    const id = await crearCategoria(admin, 'Evaluación formativa');
    for (const [, viewport] of ANCHOS) {
      const page = await comoDocente(viewport);
      await page.goto(`/foro/categorias/${id}`);
      const vacio = page.locator('.vacio');
      expect(await vacio.locator('p').first().textContent()).toBe('No se encontraron conversaciones');
      const iniciar = vacio.getByRole('link', { name: 'Iniciar una conversación' });
      expect(await iniciar.getAttribute('href')).toBe(`/foro/categorias/${id}/conversaciones/nueva`);
      await iniciar.click();
      await page.waitForURL((u) => u.pathname === `/foro/categorias/${id}/conversaciones/nueva`);
      await page.context().close();
    }
  });
});

describe('the lists, the pages and the dialog on a phone and on a desktop', () => {
  const docente = { email: correoNuevo('pantallas'), password: CLAVE };
  let material = 0;
  let manual = 0;
  let capsula = 0;
  let categoria = 0;
  let area = 0;

  beforeAll(async () => {
    await docenteActivo(docente.email, docente.password);
    // A colleague, so the directory has someone to list.
    await docenteActivo(correoNuevo('colega'), CLAVE);
    const { api } = await apiComo();
    const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
    const matematica = areas.find((a) => a.nombre === 'Matemática');
    if (!matematica) throw new Error("no 'Matemática' area in the catalogue");
    area = matematica.id;
    const { data: unidades = [] } = await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area, nivel: '1M' } } });
    const unidad = unidades[0];
    const { data: oas = [] } = await api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: unidad?.id ?? 0 } } });
    const { data: tipos = [] } = await api.GET('/api/bdocente/tipo/');
    if (!unidad || !oas[0] || !tipos[0]) throw new Error('the catalogue lacks a unit of Matemática 1° medio with OAs, or a material type');
    const comun = { descripcion: 'Para las pantallas de un docente.', id_area: area };
    const m = await api.POST('/api/bdocente/', {
      body: {
        ...comun,
        titulo: 'Guía de funciones para el teléfono',
        extension: 'pdf',
        id_nivel: '1M',
        id_unidad: unidad.id,
        oas: [oas[0].id],
        tipo_material_docente: tipos[0].id,
        archivo: 'guia.pdf',
      },
      bodySerializer: multipart({ data: pdf(1), name: 'guia.pdf', type: 'application/pdf' }),
    });
    expect(m.response.status).toBe(201);
    material = m.data?.id ?? 0;
    const n = await api.POST('/api/manuales/', {
      body: { ...comun, titulo: 'Manual para el teléfono', extension: 'pdf', archivo: 'manual.pdf' },
      bodySerializer: multipart({ data: pdf(2), name: 'manual.pdf', type: 'application/pdf' }),
    });
    expect(n.response.status).toBe(201);
    manual = n.data?.id ?? 0;
    categoria = await crearCategoria(api, `Pantallas ${Date.now().toString(36)}`);
    capsula = (await publicarCapsula(api, { titulo: 'Cápsula para el teléfono', video: await video({ seconds: 2 }) })).id;
  }, 240_000);

  const LISTAS = [
    ['/biblioteca-docente/', 'section.resultados ul.contenidos > li'],
    ['/manuales/', 'section.resultados ul.contenidos > li'],
    ['/capsulas/', 'section.resultados ul.contenidos > li'],
    ['/comunidad/', 'section.resultados ul.docentes > li'],
  ] as const;

  it("on a phone, each list's filters wait behind 'Filtros' and its first result shows on the first screen", async () => {
    const page = await abrirComo(browser, docente, MOBILE);
    for (const [ruta, tarjeta] of LISTAS) {
      await page.goto(ruta);
      const filtros = page.locator('details.filtros-movil > summary');
      expect(await filtros.isVisible(), ruta).toBe(true);
      expect(await filtros.locator('.titulo-filtros').textContent()).toBe('Filtros');
      const formulario = page.locator('details.filtros-movil + form');
      expect(await formulario.isVisible(), ruta).toBe(false);
      const primero = await page.locator(tarjeta).first().boundingBox();
      expect(primero, ruta).not.toBeNull();
      // Its top and its first lines (the title of a card) within the first 740 px.
      expect((primero?.y ?? Number.POSITIVE_INFINITY) + 120, ruta).toBeLessThanOrEqual(MOBILE.height);
      await filtros.click();
      expect(await formulario.isVisible(), ruta).toBe(true);
      expect(await page.getByRole('button', { name: 'Buscar' }).isVisible(), ruta).toBe(true);
    }
  });

  it("on a desktop the filters show at once, with no 'Filtros' line, and the first result too", async () => {
    const page = await abrirComo(browser, docente, DESKTOP);
    for (const [ruta, tarjeta] of LISTAS) {
      await page.goto(ruta);
      expect(await page.locator('details.filtros-movil').isVisible(), ruta).toBe(false);
      expect(await page.locator('details.filtros-movil + form').isVisible(), ruta).toBe(true);
      const primero = await page.locator(tarjeta).first().boundingBox();
      expect((primero?.y ?? Number.POSITIVE_INFINITY) + 120, ruta).toBeLessThanOrEqual(DESKTOP.height);
    }
  });

  it("the 'Filtros' line names the active filters", async () => {
    const page = await abrirComo(browser, docente, MOBILE);
    await page.goto(`/biblioteca-docente/?titulo=funciones&id_area=${area}&id_nivel=1M`);
    expect(await page.locator('.filtros-activos').textContent()).toBe('«funciones» · 1° medio · Matemática');
    await page.goto('/manuales/');
    expect(await page.locator('.filtros-activos').textContent()).toBe('Ninguno activo');
  });

  for (const [nombre, viewport] of ANCHOS) {
    it(`no teacher page is wider than the screen (${nombre})`, async () => {
      const page = await abrirComo(browser, docente, viewport);
      const paginas = [
        '/',
        '/capsulas/',
        `/capsulas/${capsula}`,
        '/manuales/',
        `/manuales/${manual}`,
        '/biblioteca-docente/',
        `/biblioteca-docente/${material}`,
        '/biblioteca-docente/subir',
        '/biblioteca-docente/mapa',
        `/biblioteca-docente/mapa?area=${area}&nivel=1M`,
        '/comunidad/',
        '/foro/',
        `/foro/categorias/${categoria}`,
        `/foro/categorias/${categoria}/conversaciones/nueva`,
        '/perfil/',
        '/perfil/editar',
        '/notificaciones',
        '/ayuda',
      ];
      const anchas: string[] = [];
      for (const ruta of paginas) {
        await page.goto(ruta);
        await page.waitForLoadState('load');
        const sobra = await desborde(page);
        if (sobra > 0) anchas.push(`${ruta}: ${sobra} px de más`);
      }
      expect(anchas).toEqual([]);
    });
  }

  it("on a phone the curriculum map's table scrolls in its own box, with a line that says so", async () => {
    const page = await abrirComo(browser, docente, MOBILE);
    await page.goto(`/biblioteca-docente/mapa?area=${area}`);
    const caja = page.locator('section.mapa-desplazable');
    const medida = await caja.evaluate((e) => ({ ancho: e.scrollWidth, visible: e.clientWidth, overflow: getComputedStyle(e).overflowX }));
    expect(medida.overflow).toBe('auto');
    expect(medida.ancho).toBeGreaterThan(medida.visible);
    expect(await page.getByText('Desliza la tabla hacia el lado para ver todas las unidades').isVisible()).toBe(true);
    expect(await desborde(page)).toBe(0);
    const desktop = await abrirComo(browser, docente, DESKTOP);
    await desktop.goto(`/biblioteca-docente/mapa?area=${area}`);
    expect(await desktop.getByText('Desliza la tabla hacia el lado para ver todas las unidades').isVisible()).toBe(false);
  });

  for (const [nombre, viewport] of ANCHOS) {
    it(`the personal-information dialog keeps Guardar on screen and clickable (${nombre})`, async () => {
      const page = await abrirComo(browser, docente, viewport);
      await page.goto('/perfil/editar#datos');
      await page.locator('nav.pestanas-verticales').getByRole('link', { name: 'Información personal' }).click();
      const editar = page.getByRole('button', { name: 'Editar información personal' });
      await editar.scrollIntoViewIfNeeded();
      // The island wakes as it comes into view; the button is enabled once it has.
      await editar.click();
      const guardar = page.getByRole('dialog').getByRole('button', { name: 'Guardar' });
      await guardar.waitFor();
      const caja = await guardar.boundingBox();
      expect(caja).not.toBeNull();
      expect((caja?.y ?? 0) + (caja?.height ?? 0)).toBeLessThanOrEqual(viewport.height);
      expect(caja?.y ?? -1).toBeGreaterThanOrEqual(0);
      // Nothing covers it: a trial click reaches the button itself.
      await guardar.click({ trial: true, timeout: 5000 });
      expect(await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).isVisible()).toBe(true);
    });

    it(`'Cerrar Sesión' is a small, quiet control set apart from Ayuda (${nombre})`, async () => {
      const page = await abrirComo(browser, docente, viewport);
      await page.goto('/ayuda');
      const barra = page.locator('header.barra');
      const salir = barra.getByRole('button', { name: 'Cerrar Sesión' });
      const ayuda = barra.getByRole('link', { name: 'Ayuda' });
      const [cajaSalir, cajaAyuda] = [await salir.boundingBox(), await ayuda.boundingBox()];
      expect(await salir.isVisible()).toBe(true);
      expect(cajaSalir?.height).toBeLessThan(cajaAyuda?.height ?? 0);
      // At least 12 px between Ayuda's right edge and Cerrar Sesión's left edge.
      expect((cajaSalir?.x ?? 0) - ((cajaAyuda?.x ?? 0) + (cajaAyuda?.width ?? 0))).toBeGreaterThanOrEqual(12);
      const estilo = await salir.evaluate((b) => ({ borde: getComputedStyle(b).borderTopWidth, letra: getComputedStyle(b).fontSize }));
      expect(estilo.borde).toBe('0px');
      expect(Number.parseFloat(estilo.letra)).toBeLessThan(14);
      expect(cajaSalir && cajaSalir.x + cajaSalir.width).toBeLessThanOrEqual(viewport.width);
    });
  }

  it('the upload form invites a teacher to give an OA with no material its first, in a neutral style that reads well (375 and 1280)', async () => {
    for (const [, viewport] of ANCHOS) {
      const page = await abrirComo(browser, docente, viewport);
      await page.goto('/biblioteca-docente/subir');
      await hidratada(page);
      await page.getByLabel('Nivel', { exact: true }).selectOption('1M');
      await page.getByLabel('Área', { exact: true }).selectOption(String(area));
      const unidad = page.getByLabel('Unidad', { exact: true });
      await expect.poll(() => unidad.locator('option').count()).toBeGreaterThan(1);
      await unidad.selectOption({ index: 1 });
      const oa = page
        .locator('[data-lista="disponibles"] li')
        .filter({ has: page.locator('.oa-sin-materiales') })
        .first();
      const invitacion = oa.locator('.oa-sin-materiales');
      await invitacion.waitFor();
      expect(await invitacion.textContent()).toBe('Aún sin materiales: el tuyo puede ser el primero');
      const estilo = await invitacion.evaluate((e) => {
        const s = getComputedStyle(e);
        return { color: s.color, fondo: s.backgroundColor, borde: s.borderTopStyle };
      });
      expect(contraste(estilo.color, estilo.fondo)).toBeGreaterThanOrEqual(4.5);
      // Not an error's look: no red text or background, no dashed alarm border.
      expect(rojizo(estilo.color)).toBe(false);
      expect(rojizo(estilo.fondo)).toBe(false);
      expect(estilo.borde).not.toBe('dashed');
      // Chosen, it says the teacher's material will be the first.
      await oa.getByRole('button', { name: /^Agregar/ }).click();
      await expect
        .poll(() => page.locator('[data-lista="seleccionados"] .oa-sin-materiales').first().textContent())
        .toBe('Tu material será el primero de este OA');
      await page.context().close();
    }
  });
});

/** The channels of a computed 'rgb(r, g, b)' or 'rgba(r, g, b, a)'. */
function canales(color: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b];
}

/** Red clearly above green and blue: the error palette's hue. */
function rojizo(color: string): boolean {
  const [r, g, b] = canales(color);
  return r > g + 24 && r > b + 24;
}

/** WCAG 2 contrast ratio of two opaque colours. */
function contraste(a: string, b: string): number {
  const luminancia = (color: string) => {
    const [r, g, bl] = canales(color).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [claro, oscuro] = [luminancia(a), luminancia(b)].sort((x, y) => y - x);
  return ((claro ?? 0) + 0.05) / ((oscuro ?? 0) + 0.05);
}
