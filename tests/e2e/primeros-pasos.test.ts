/**
 * The admin side of a network's first day (issue 33, decision 0055), at 1280x800 and 375x740.
 * Every console page reads in a coordinator's words: no command, no internal job name, no record
 * kind by its code, and no page wider than the screen. 'Primeros pasos' on a server of its own
 * (the suite's shared server may already hold categories, manuals and capsules from other files):
 * every step starts undone and ticks as it is done (a teacher invited, a category created, the
 * curriculum opened, a manual and a capsule uploaded), then the list folds into one line.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAVE_LOCAL, TRABAJOS } from '../../src/lib/palabras-admin.ts';
import { PASOS } from '../../src/lib/server/services/primeros-pasos.server.ts';
import { SECCIONES_ADMIN } from '../../src/pages/admin/_componentes/admin.ts';
import { DESKTOP, MOBILE, newPage } from '../support/browser.ts';
import { type ApiClient, apiClient, signIn } from '../support/client.ts';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { ADMIN, type RunningServer, removeDir, startServer } from '../support/server.ts';
import { video } from '../support/video.ts';
import { ANCHOS, abrirComo, correoNuevo, hidratada, invitar, navegador, violacionesGraves } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const PAGINAS = ['/admin', ...SECCIONES_ADMIN.map((s) => s.href), '/admin/trabajos?estado=pendiente'];

/** What an engineer types, never a coordinator: a package script, a CLI flag, a shell prompt. */
const COMANDO = /\bnpm\b|\bnpx\b|\bnode\s|\s--[a-z]|\$ |\bsudo\b|\.ts\b|\.server\b/;
/** Internal identifiers a page must never show: the job types and the local key's stored name. */
const IDENTIFICADORES = [...Object.keys(TRABAJOS), CLAVE_LOCAL];

const anchoDe = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('the console speaks to coordinators', () => {
  beforeAll(async () => {
    // An action with the local admin key (the CLI): the audit log names it in words.
    await invitar(correoNuevo('cli.consola'), 'Clara', 'Línea Comando');
  }, 60_000);

  for (const [nombre, viewport] of ANCHOS) {
    it(`shows no command, job name or code on any admin page (${nombre})`, { timeout: 120_000 }, async () => {
      const page = await abrirComo(browser, ADMIN, viewport);
      for (const ruta of PAGINAS) {
        const respuesta = await page.goto(ruta);
        expect(respuesta?.status(), ruta).toBe(200);
        await hidratada(page);
        const texto = await page.evaluate(() => document.body.innerText);
        expect(texto, ruta).not.toMatch(COMANDO);
        for (const id of IDENTIFICADORES) expect(texto, `${ruta}: ${id}`).not.toContain(id);
        expect(await anchoDe(page), `${nombre} ${ruta}`).toBeLessThanOrEqual(viewport.width);
      }
      // The recurring jobs are queued on every server: they show by what they do.
      await page.goto('/admin/trabajos');
      const enCola = page.getByRole('region', { name: 'En cola', exact: true });
      await expect.poll(() => enCola.innerText()).toContain(TRABAJOS['subidas-limpieza']);
      // The audit log: who in words, and each action and record kind in words, never by its code.
      await page.goto('/admin/registro');
      await expect.poll(() => page.locator('tbody').innerText()).toContain('Clave de administración del servidor');
      const codigos = await page
        .locator('tbody tr')
        .evaluateAll((filas) =>
          filas.flatMap((f) => [...f.children].slice(2, 4).map((c) => c.textContent ?? '')).filter((t) => t.includes('_')),
        );
      expect(codigos).toEqual([]);
    });
  }

  it('on a phone every table or chart wider than the screen scrolls in its own box, with an edge shadow and a line that says so', {
    timeout: 60_000,
  }, async () => {
    const page = await abrirComo(browser, ADMIN, MOBILE);
    const anchas: string[] = [];
    const sinPista: string[] = [];
    for (const ruta of PAGINAS) {
      await page.goto(ruta);
      await hidratada(page);
      // The tables folded in a <details> (a chart's data, an area of the curriculum) count too.
      const cajas = await page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = true;
        return [...document.querySelectorAll<HTMLElement>('.tabla-admin, .lienzo')]
          .filter((caja) => caja.scrollWidth > caja.clientWidth + 1)
          .map((caja) => {
            const pista = caja.previousElementSibling;
            return {
              nombre: caja.querySelector('caption')?.textContent ?? caja.getAttribute('aria-label') ?? caja.className,
              desplaza: getComputedStyle(caja).overflowX,
              sombra: getComputedStyle(caja).backgroundImage.includes('radial-gradient'),
              pista:
                pista?.classList.contains('pista-desliza') && (pista as HTMLElement).offsetHeight > 0 ? pista.textContent?.trim() : null,
            };
          });
      });
      for (const caja of cajas) {
        anchas.push(`${ruta}: ${caja.nombre}`);
        const conPista = caja.desplaza === 'auto' && caja.sombra && /^Desliza (la tabla|el gráfico) hacia el lado/.test(caja.pista ?? '');
        if (!conPista) sinPista.push(`${ruta}: ${caja.nombre} ${JSON.stringify(caja)}`);
      }
      expect(await anchoDe(page), ruta).toBeLessThanOrEqual(MOBILE.width);
    }
    expect(sinPista).toEqual([]);
    // The tables issue 33 found cut on a phone are among them: accounts, mail, audit log, heat map.
    for (const ruta of ['/admin/usuarios', '/admin/trabajos', '/admin/registro', '/admin/estadisticas']) {
      expect(
        anchas.some((a) => a.startsWith(`${ruta}:`)),
        ruta,
      ).toBe(true);
    }
  });

  it("finds the local key's actions in the audit log by the words it shows", async () => {
    const page = await abrirComo(browser, ADMIN, DESKTOP);
    await page.goto(`/admin/registro?q=${encodeURIComponent('clave de administración')}`);
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('tbody th').allTextContents()).toEqual(expect.arrayContaining(['Clave de administración del servidor']));
  });

  it('fits the tables to their columns at 1280 px: no cell cut and no table scrolls sideways', { timeout: 60_000 }, async () => {
    const page = await abrirComo(browser, ADMIN, DESKTOP);
    for (const ruta of ['/admin/usuarios', '/admin/trabajos', '/admin/registro', '/admin/respaldos']) {
      await page.goto(ruta);
      await hidratada(page);
      const desbordes = await page.evaluate(() =>
        [...document.querySelectorAll('table')]
          .map((t) => t.parentElement)
          .filter((caja): caja is HTMLElement => caja !== null && caja.scrollWidth > caja.clientWidth + 1)
          .map((caja) => caja.querySelector('caption')?.textContent ?? caja.className),
      );
      expect(desbordes, ruta).toEqual([]);
    }
  });
});

describe('Primeros pasos on a new network', () => {
  let server: RunningServer;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    api = apiClient(server.url, (await signIn(server.url, ADMIN)).access);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (server) removeDir(server.dataDir);
  });

  /** The console's home, signed in as the admin, at a width. */
  async function portada(viewport = DESKTOP): Promise<Page> {
    const page = await newPage(browser, server.url, viewport);
    expect((await page.request.post(`${server.url}/auth/login/`, { data: ADMIN })).status()).toBe(200);
    await page.goto('/admin');
    return page;
  }

  const hechos = async (page: Page) => {
    await page.reload();
    return page.locator('#primeros-pasos li[data-hecho="true"]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-paso')));
  };

  async function captura(nombre: string) {
    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await portada(viewport);
      expect(await anchoDe(page), `${nombre} ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: path.join(os.tmpdir(), `ed-primeros-pasos-${nombre}-${viewport.width}.png`), fullPage: true });
      await page.context().close();
    }
  }

  it('ticks each step as it is done, then folds into one line', { timeout: 180_000 }, async () => {
    const page = await portada();
    const lista = page.getByRole('region', { name: /Primeros pasos/ });
    await expect.poll(() => lista.getByRole('heading').innerText()).toMatch(/0 de 6 listos/);
    expect(await hechos(page)).toEqual([]);
    // Each undone step links to where it is done.
    const enlaces = await lista.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(enlaces).toEqual([
      '/admin/usuarios#invitar',
      '/foro/categorias/crear',
      '/admin/curriculo',
      '/manuales/subir',
      '/capsulas/subir',
      '/admin/privacidad-aviso',
    ]);
    expect(await violacionesGraves(page)).toEqual([]);
    await captura('inicio');

    const invitacion = await api.POST('/api/admin/usuarios/', {
      body: { email: correoNuevo('primera.docente'), nombres: 'Marta', apellidos: 'Rojas', admin: false },
    });
    expect(invitacion.response.status).toBe(201);
    expect(await hechos(page)).toEqual(['docentes']);

    const imagen = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#5fb3a1' } })
      .png()
      .toBuffer();
    const categoria = await api.POST('/api/foro/categorias/', {
      body: { nombre: 'Convivencia escolar', descripcion: 'Conversaciones sobre convivencia', activa: true, archivo: 'imagen.png' },
      bodySerializer: multipart({ data: imagen, name: 'imagen.png', type: 'image/png' }),
    });
    expect(categoria.response.status).toBe(201);
    expect(await hechos(page)).toEqual(['docentes', 'categorias']);

    // Opening the curriculum console is what checking it takes.
    const curriculo = await newPage(browser, server.url);
    expect((await curriculo.request.post(`${server.url}/auth/login/`, { data: ADMIN })).status()).toBe(200);
    expect((await curriculo.goto('/admin/curriculo'))?.status()).toBe(200);
    await curriculo.context().close();
    expect(await hechos(page)).toEqual(['docentes', 'categorias', 'curriculo']);
    await captura('mitad');

    const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
    const area = areas[0];
    if (!area) throw new Error('no curriculum areas');
    const manual = await api.POST('/api/manuales/', {
      body: { titulo: 'Guía para la primera semana', descripcion: 'Un manual', id_area: area.id, archivo: 'manual.pdf' },
      bodySerializer: multipart({ data: pdf(1), name: 'manual.pdf', type: 'application/pdf' }),
    });
    expect(manual.response.status).toBe(201);
    expect(await hechos(page)).toEqual(['docentes', 'categorias', 'curriculo', 'manual']);

    const [{ data: metodologias = [] }, { data: niveles = [] }] = await Promise.all([
      api.GET('/api/metodologias/'),
      api.GET('/api/curriculum_escolar/niveles/', { params: { query: { area: area.id } } }),
    ]);
    const capsula = await api.POST('/api/capsulas/', {
      body: {
        titulo: 'Primera cápsula de la red',
        descripcion: 'Video de prueba',
        id_area: area.id,
        id_metodologia: metodologias[0]?.id ?? 0,
        id_nivel: niveles[0]?.codigo ?? '',
        extension: 'mp4',
        archivo: 'video.mp4',
      },
      bodySerializer: multipart({ data: await video({ seconds: 1 }), name: 'video.mp4', type: 'video/mp4' }),
    });
    expect(capsula.response.status).toBe(201);
    expect(await hechos(page)).toEqual(['docentes', 'categorias', 'curriculo', 'manual', 'capsula']);

    // The privacy notice names who is responsible for the data (issue 31).
    const responsable = await api.PUT('/api/admin/privacidad/', {
      body: { nombre: 'Red de Docentes de Ñuble', direccion: 'Av. Libertad 123, Chillán', correo: 'datos@example.cl' },
    });
    expect(responsable.response.status).toBe(200);
    expect(await hechos(page)).toEqual([...PASOS]);

    // Every step done: one line, which still opens the list.
    await expect.poll(() => page.getByRole('region', { name: /Primeros pasos/ }).count()).toBe(0);
    const resumen = page.locator('details#primeros-pasos');
    await expect.poll(() => resumen.locator('summary').innerText()).toMatch(/Primeros pasos completos/);
    expect(await resumen.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await resumen.locator('summary').click();
    await expect.poll(() => resumen.getByRole('link').count()).toBe(PASOS.length);
    expect(await violacionesGraves(page)).toEqual([]);
    await captura('completos');
  });
});
