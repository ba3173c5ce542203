/**
 * Every screen, at desktop width and at 375px: axe-core finds no serious or critical violation;
 * loading it moves nothing on screen (layout shifts without recent input add up to at most 0.02,
 * issue 15's CLS) and asks for nothing that fails (no answer of 400 or more but those the screen
 * is about, such as a 404 page or an expired token). The detail pages stay within that budget
 * when a browser paints them halfway through their HTML, where Astro's island scripts begin.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { crearMuestras, type Muestras } from '../../scripts/lib/muestras.ts';
import { apiClient, signIn } from '../support/client.ts';
import { multipart } from '../support/form.ts';
import { ADMIN } from '../support/server.ts';
import { ANCHOS, abrir, abrirComo, navegador, responder, violacionesGraves } from './helpers.ts';

let browser: Browser;
/** A capsule, a material, a manual, a conversation and a teacher, for the detail screens. */
let muestras: Muestras;
beforeAll(async () => {
  browser = await navegador();
  const sesion = await signIn(inject('baseUrl'), ADMIN);
  muestras = await crearMuestras(inject('baseUrl'), inject('dataDir'), sesion);
  await conSubtitulos(apiClient(inject('baseUrl'), sesion.access), muestras.capsulaId);
}, 240_000);
afterAll(async () => {
  await browser?.close();
});

/** A word said in the sample capsule's captions only (issue 20: the search says where). */
const DICHA = 'pentagrama';

/** Spanish and English captions on the sample capsule: its page has the captions menu and 'Ver transcripción'. */
async function conSubtitulos(api: ReturnType<typeof apiClient>, id: number): Promise<void> {
  const archivos = {
    es: `WEBVTT\n\n00:00:00.100 --> 00:00:01.000\nHoy dibujamos un ${DICHA}.\n\n00:00:01.000 --> 00:00:01.900\nY cantamos.\n`,
    en: 'WEBVTT\n\n00:00:00.100 --> 00:00:01.900\nToday we draw a staff.\n',
  } as const;
  for (const idioma of ['es', 'en'] as const) {
    const { response } = await api.POST('/api/capsulas/{id}/subtitulos/', {
      params: { path: { id } },
      body: { idioma, archivo: `${idioma}.vtt` },
      bodySerializer: multipart({ data: archivos[idioma], name: `${idioma}.vtt`, type: 'text/vtt' }),
    });
    expect(response.status).toBe(201);
  }
}

const verificarToken = (u: URL) => /^\/api\/usuarios\/(activar-cuenta\/$|cambiar-contrasena\/[^/]+$)/.test(u.pathname);

interface Pantalla {
  nombre: string;
  ruta: string | ((m: Muestras) => string);
  sesion?: boolean;
  /** Waits for the state to check, or brings the page to it. */
  preparar?: (page: Page) => Promise<void>;
  /** The failing answers the screen is about (its own 404, a token that does not verify). */
  fallaEsperada?: (u: URL) => boolean;
}

/** Issue 15: cumulative layout shift of a page's load. */
const CLS_MAXIMO = 0.02;

const listo = (texto: string) => async (page: Page) => {
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(texto);
};

const PANTALLAS: Pantalla[] = [
  { nombre: 'ingresar', ruta: '/ingresar/' },
  {
    nombre: 'ingresar con errores',
    ruta: '/ingresar/',
    preparar: async (page) => {
      await expect.poll(() => page.getByRole('button', { name: 'Ingresar' }).isEnabled()).toBe(true);
      await page.getByRole('button', { name: 'Ingresar' }).click();
      await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(2);
    },
  },
  { nombre: 'reestablecer', ruta: '/reestablecer-contraseña/' },
  { nombre: 'ingresar/reestablecer', ruta: '/ingresar/reestablecer-contraseña/' },
  {
    nombre: 'activar (token inválido)',
    ruta: '/activar-cuenta/no-sirve',
    preparar: listo('Token inválido o expirado'),
    fallaEsperada: verificarToken,
  },
  {
    nombre: 'activar (formulario)',
    ruta: '/activar-cuenta/token-de-prueba',
    fallaEsperada: verificarToken,
    preparar: async (page) => {
      await page.route(verificarToken, responder(200, { email: 'nueva@colegio.cl' }));
      await page.reload();
      await listo('Bienvenido a Entre Docentes')(page);
    },
  },
  {
    nombre: 'registrar (formulario)',
    ruta: '/registrar/?token=token-de-prueba',
    fallaEsperada: verificarToken,
    preparar: async (page) => {
      await page.route(verificarToken, responder(200, { email: 'nueva@colegio.cl' }));
      await page.reload();
      await listo('Bienvenido a Entre Docentes')(page);
    },
  },
  {
    nombre: 'cambiar (token inválido)',
    ruta: '/cambiar-contraseña/no-sirve',
    preparar: listo('Token inválido o expirado'),
    fallaEsperada: verificarToken,
  },
  {
    nombre: 'cambiar (formulario)',
    ruta: '/cambiar-contraseña/token-de-prueba',
    fallaEsperada: verificarToken,
    preparar: async (page) => {
      await page.route(verificarToken, responder(200, { email: 'ana@colegio.cl' }));
      await page.reload();
      await listo('Crea una nueva contraseña')(page);
    },
  },
  { nombre: '404', ruta: '/no-existe/', fallaEsperada: (u) => u.pathname === '/no-existe/' },
  { nombre: 'inicio', ruta: '/', sesion: true },
  {
    nombre: 'inicio con el menú abierto',
    ruta: '/',
    sesion: true,
    preparar: async (page) => {
      await page.getByRole('button', { name: 'Menú' }).click();
      // Checked once the menu has slid open: getAnimations() sees the transitions the click started.
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
            .map((a) => a.finished),
        ),
      );
    },
  },
  { nombre: 'ayuda', ruta: '/ayuda', sesion: true },
  {
    nombre: 'ayuda con error',
    ruta: '/ayuda',
    sesion: true,
    preparar: async (page) => {
      await expect.poll(() => page.getByRole('button', { name: 'Enviar' }).isEnabled()).toBe(true);
      await page.getByLabel('Mensaje').fill('Hola');
      await page.route('**/enviar-email-ayuda/', responder(500, { detail: 'Error' }));
      await page.getByRole('button', { name: 'Enviar' }).click();
      await expect.poll(() => page.locator('.notificaciones [role="alert"]').count()).toBe(1);
    },
  },
  { nombre: '404 con sesión', ruta: '/capsulas/', sesion: true },
  { nombre: 'lista de la biblioteca', ruta: '/biblioteca-docente/', sesion: true },
  { nombre: 'lista de manuales', ruta: '/manuales/', sesion: true },
  { nombre: 'cápsula', ruta: (m) => `/capsulas/${m.capsulaId}`, sesion: true },
  {
    nombre: 'cápsula: menú de subtítulos abierto',
    ruta: (m) => `/capsulas/${m.capsulaId}`,
    sesion: true,
    preparar: async (page) => {
      await page.getByRole('button', { name: 'subtítulos', exact: true }).click();
      await page.locator('media-captions-menu media-chrome-menu-item', { hasText: 'Español' }).waitFor();
    },
  },
  { nombre: 'cápsula: transcripción abierta', ruta: (m) => `/capsulas/${m.capsulaId}?transcripcion=en`, sesion: true },
  { nombre: 'cápsula: búsqueda de algo dicho en el video', ruta: `/capsulas/?titulo=${DICHA}`, sesion: true },
  { nombre: 'editar una cápsula y sus subtítulos', ruta: (m) => `/capsulas/editar/${m.capsulaId}`, sesion: true },
  { nombre: 'material', ruta: (m) => `/biblioteca-docente/${m.material.id}`, sesion: true },
  { nombre: 'manual', ruta: (m) => `/manuales/${m.manualId}`, sesion: true },
  { nombre: 'foro', ruta: '/foro/', sesion: true },
  { nombre: 'categoría del foro', ruta: (m) => `/foro/categorias/${m.foro.categoriaId}`, sesion: true },
  {
    nombre: 'conversación del foro',
    ruta: (m) => `/foro/categorias/${m.foro.categoriaId}/conversacion/${m.foro.conversacionId}`,
    sesion: true,
  },
  { nombre: 'comunidad', ruta: '/comunidad/', sesion: true },
  { nombre: 'contactar a un colega', ruta: (m) => `/comunidad/${m.teacherId}/contactar`, sesion: true },
  { nombre: 'mi perfil', ruta: '/perfil/', sesion: true },
  { nombre: 'perfil de un colega', ruta: (m) => `/perfil/${m.teacherId}`, sesion: true },
  {
    nombre: 'denunciar un perfil (diálogo con error)',
    ruta: (m) => `/perfil/${m.teacherId}`,
    sesion: true,
    preparar: async (page) => {
      const denunciar = page.getByRole('button', { name: 'Denunciar este perfil' });
      await expect.poll(() => denunciar.isEnabled()).toBe(true);
      await denunciar.click();
      const dialogo = page.getByRole('dialog', { name: '¿Por qué denuncias este contenido?' });
      await dialogo.getByRole('button', { name: 'Enviar denuncia' }).click();
      await dialogo.getByText('Elige un motivo').waitFor();
    },
  },
  { nombre: 'editar mi perfil', ruta: '/perfil/editar', sesion: true },
  { nombre: 'mis publicaciones', ruta: '/perfil/editar?pestana=publicaciones', sesion: true },
  { nombre: 'subir una cápsula', ruta: '/capsulas/subir', sesion: true },
  { nombre: 'subir un material', ruta: '/biblioteca-docente/subir', sesion: true },
  { nombre: 'administración: usuarios', ruta: '/admin/usuarios', sesion: true },
  {
    nombre: 'administración: invitar con errores',
    ruta: '/admin/usuarios',
    sesion: true,
    preparar: async (page) => {
      await page.getByText('Invitar a una persona').click();
      await expect.poll(() => page.getByRole('button', { name: 'Invitar' }).isEnabled()).toBe(true);
      await page.getByRole('button', { name: 'Invitar' }).click();
      await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(3);
    },
  },
  {
    nombre: 'administración: vista previa de una planilla',
    ruta: '/admin/usuarios',
    sesion: true,
    preparar: async (page) => {
      await page.getByText('Importar una planilla CSV').click();
      await expect.poll(() => page.getByLabel('Planilla CSV').isEnabled()).toBe(true);
      const planilla = 'email,nombres,apellidos\nnueva.vista@colegio.cl,Ana,Rojas\nno-es-correo,Luis,Soto\n';
      await page.getByLabel('Planilla CSV').setInputFiles({ name: 'nomina.csv', mimeType: 'text/csv', buffer: Buffer.from(planilla) });
      await page.getByRole('button', { name: 'Revisar planilla' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Confirmar importación' }).count()).toBe(1);
    },
  },
  { nombre: 'administración: trabajos y correos', ruta: '/admin/trabajos', sesion: true },
  { nombre: 'administración: respaldos', ruta: '/admin/respaldos', sesion: true },
  { nombre: 'administración: moderación', ruta: '/admin/moderacion', sesion: true },
  { nombre: 'notificaciones', ruta: '/notificaciones', sesion: true },
  {
    nombre: 'administración: estadísticas con sus tablas',
    ruta: '/admin/estadisticas',
    sesion: true,
    preparar: async (page) => {
      for (const resumen of await page.getByText('Ver los datos').all()) await resumen.click();
    },
  },
  { nombre: 'administración: registro', ruta: '/admin/registro', sesion: true },
];

/** Records the layout shifts no input caused, from the first paint on. */
async function vigilarDesplazamientos(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const desplazamientos: string[] = [];
    Reflect.set(window, '__desplazamientos', desplazamientos);
    new PerformanceObserver((lista) => {
      for (const e of lista.getEntries()) {
        if (Reflect.get(e, 'hadRecentInput')) continue;
        const fuentes: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] =
          Reflect.get(e, 'sources') ?? [];
        // Each node and where it went (x,y from → to), so a failure says how far it moved.
        const donde = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
        const nodos = fuentes.map(
          (f) =>
            `${f.node instanceof Element ? `${f.node.localName}.${f.node.className}` : String(f.node?.nodeName)} (${donde(f.previousRect)} → ${donde(f.currentRect)})`,
        );
        desplazamientos.push(`${Reflect.get(e, 'value')} ${nodos.join(' ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts recorded so far, as «value nodes», and their sum. */
async function desplazamientos(page: Page): Promise<{ total: number; detalle: string[] }> {
  const detalle: string[] = await page.evaluate(() => Reflect.get(window, '__desplazamientos') ?? []);
  return { total: detalle.reduce((suma, d) => suma + Number(d.split(' ')[0]), 0), detalle };
}

describe.each(ANCHOS)('accessibility (%s)', (_ancho, viewport) => {
  it.each(PANTALLAS.map((p) => [p.nombre, p] as const))(
    '%s loads without shifts or failed requests and has no serious or critical violation',
    async (_nombre, pantalla) => {
      const page = pantalla.sesion ? await abrirComo(browser, ADMIN, viewport) : await abrir(browser, viewport);
      await vigilarDesplazamientos(page);
      const fallidas: string[] = [];
      const anotar = (status: number, metodo: string, direccion: string) => {
        if (status >= 400 && !pantalla.fallaEsperada?.(new URL(direccion))) fallidas.push(`${status} ${metodo} ${direccion}`);
      };
      const respuesta = (r: Response) => anotar(r.status(), r.request().method(), r.url());
      // A request cut short because the page went elsewhere could still have succeeded: not counted.
      const cortada = (r: Request) => {
        if (r.failure()?.errorText !== 'net::ERR_ABORTED') fallidas.push(`${r.failure()?.errorText} ${r.method()} ${r.url()}`);
      };
      page.on('response', respuesta);
      page.on('requestfailed', cortada);
      await page.goto(typeof pantalla.ruta === 'string' ? pantalla.ruta : pantalla.ruta(muestras));
      await page.waitForLoadState('networkidle');
      // The visit as a person makes it: what preparar does (fake answers, clicks) is not measured.
      page.off('response', respuesta);
      page.off('requestfailed', cortada);
      expect(fallidas, 'peticiones que fallaron al cargar la pantalla').toEqual([]);
      const { total, detalle } = await desplazamientos(page);
      expect(total, `desplazamientos al cargar: ${detalle.join('; ')}`).toBeLessThanOrEqual(CLS_MAXIMO);
      await pantalla.preparar?.(page);
      expect(await violacionesGraves(page)).toEqual([]);
    },
  );
});

/** How long the second part of a page waits: long enough for any browser to paint the first. */
const PAUSA_MS = 600;

/**
 * A proxy to the test server that sends each page's HTML in two parts, PAUSA_MS apart, cut before
 * the body's first inline script: Astro writes its island scripts there, just before a page's first
 * island, and a busy browser stops reading at a script to paint what it has (the CI run where a
 * profile's header moved 0.07 when its 'Denunciar' arrived). Everything else passes through.
 */
async function enDosPartes(
  destino: string,
): Promise<{ url: string; cortes: string[]; pendientes: () => string[]; cerrar: () => Promise<void> }> {
  const base = new URL(destino);
  const cortes: string[] = [];
  /** Requests not answered in full yet, with when they came: what a page that never settles waits for. */
  const abiertas = new Map<http.ServerResponse, string>();
  const desde = Date.now();
  const proxy = http.createServer((pedido, respuesta) => {
    abiertas.set(respuesta, `${pedido.method} ${pedido.url} (at ${Date.now() - desde} ms)`);
    respuesta.on('close', () => abiertas.delete(respuesta));
    const documento = pedido.headers.accept?.includes('text/html') ?? false;
    const headers = { ...pedido.headers, host: base.host, ...(documento && { 'accept-encoding': 'identity' }) };
    const reenvio = http.request({ hostname: base.hostname, port: base.port, path: pedido.url, method: pedido.method, headers }, (r) => {
      // An answer the server cuts short is cut short here too, piped or held, rather than never ending.
      r.on('error', () => respuesta.destroy());
      if (!documento || !r.headers['content-type']?.startsWith('text/html')) {
        respuesta.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(respuesta);
        return;
      }
      const trozos: Buffer[] = [];
      r.on('data', (trozo: Buffer) => trozos.push(trozo));
      r.on('end', () => {
        const html = Buffer.concat(trozos).toString('utf8');
        const corte = html.indexOf('<script>', html.indexOf('<body'));
        const { 'content-length': _largo, ...cabeceras } = r.headers;
        respuesta.writeHead(r.statusCode ?? 502, cabeceras);
        if (corte === -1) return respuesta.end(html);
        cortes.push(pedido.url ?? '');
        respuesta.write(html.slice(0, corte));
        setTimeout(() => respuesta.end(html.slice(corte)), PAUSA_MS);
      });
    });
    // A server that hangs up answers 502 here, as a real proxy would, instead of crashing the test run.
    reenvio.on('error', () => {
      if (respuesta.headersSent) respuesta.destroy();
      else respuesta.writeHead(502).end();
    });
    pedido.pipe(reenvio);
  });
  await new Promise<void>((listo) => proxy.listen(0, '127.0.0.1', listo));
  const { port } = proxy.address() as AddressInfo;
  // The page is still open when the test closes the proxy (its context closes after the test), and
  // Chromium keeps sockets to it, some preconnected with no request: close() alone waits for them
  // until the headers timeout (a CI run where this test ran out of its 60 s).
  const cerrar = () =>
    new Promise<void>((listo) => {
      proxy.close(() => listo());
      proxy.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${port}`, cortes, pendientes: () => [...abiertas.values()], cerrar };
}

/** Detail pages whose header holds an island: the first inline script comes in the middle of it. */
const A_MEDIAS = ['perfil de un colega', 'cápsula', 'material', 'manual', 'conversación del foro'];

describe.each(ANCHOS)('painted halfway (%s)', (_ancho, viewport) => {
  it.each(A_MEDIAS)('%s stays within the shift budget when the rest of its HTML arrives', async (nombre) => {
    const pantalla = PANTALLAS.find((p) => p.nombre === nombre);
    if (!pantalla || typeof pantalla.ruta === 'string') throw new Error(`${nombre}: no such detail screen`);
    const proxy = await enDosPartes(inject('baseUrl'));
    try {
      // Cookies belong to the host, not the port: the session signed in on the server holds here.
      const page = await abrirComo(browser, ADMIN, viewport);
      await vigilarDesplazamientos(page);
      const ruta = pantalla.ruta(muestras);
      // Bounded well inside the test's own limit, so a page that never settles says what it waits for.
      await page
        .goto(`${proxy.url}${ruta}`, { timeout: 20_000 })
        .then(() => page.waitForLoadState('networkidle', { timeout: 20_000 }))
        .catch((error: Error) => {
          throw new Error(`${error.message}\nunanswered through the proxy: ${proxy.pendientes().join(', ') || 'none'}`);
        });
      expect(proxy.cortes, 'the page was sent in two parts').toContain(ruta);
      const { total, detalle } = await desplazamientos(page);
      expect(total, `desplazamientos: ${detalle.join('; ')}`).toBeLessThanOrEqual(CLS_MAXIMO);
    } finally {
      await proxy.cerrar();
    }
  });
});
