/**
 * Shared steps of the browser suite: the browser, signing in, inviting a teacher, routes to fake or
 * hold, notifications, axe. The project's setup file (setup.ts) closes every context a test opened
 * on `navegador()` once that test ends, passed or failed, and makes every test fail on a
 * Content-Security-Policy violation or an html-validate error in a page the server sent.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import { expect, inject, vi } from 'vitest';
import { DESKTOP, launchBrowser, MOBILE, newPage, violacionesCsp } from '../support/browser.ts';
import { type ApiClient, apiClient, signIn } from '../support/client.ts';
import { multipart } from '../support/form.ts';
import { erroresHtml } from '../support/html.ts';
import { pdf } from '../support/pdf.ts';
import { ADMIN, lastLinkTo, runCli } from '../support/server.ts';

export const ANCHOS = [
  ['escritorio', DESKTOP],
  ['móvil', MOBILE],
] as const;

/** The contexts opened since the last test ended. */
const abiertos = new Set<BrowserContext>();

/** Closes the contexts the test that just ended opened on `navegador()`. */
export async function cerrarContextos(): Promise<void> {
  const contextos = [...abiertos];
  abiertos.clear();
  await Promise.all(contextos.map((c) => c.close()));
}

/** Fails the test that just ended if its pages broke the Content-Security-Policy or sent HTML with errors. */
export async function revisarPaginas(): Promise<void> {
  expect(violacionesCsp(), 'violaciones de Content-Security-Policy').toEqual([]);
  expect(await erroresHtml(), 'errores de html-validate en el HTML que envió el servidor').toEqual([]);
}

/** Chromium for a test file: every context a test opens on it (pages included) is closed when that test ends. */
export async function navegador(): Promise<Browser> {
  const browser = await launchBrowser();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    abiertos.add(context);
    context.once('close', () => abiertos.delete(context));
    return context;
  };
  return browser;
}

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

export function abrir(browser: Browser, viewport = DESKTOP): Promise<Page> {
  return newPage(browser, inject('baseUrl'), viewport);
}

/**
 * Signs the page's context in through the API, as the sign-in form would: for tests about something
 * other than signing in (faster than the form), and for pages without JavaScript.
 */
export async function ingresarPorApi(page: Page, credenciales: { email: string; password: string } = ADMIN): Promise<void> {
  const respuesta = await page.request.post(url('/auth/login/'), { data: credenciales });
  expect(respuesta.status(), await respuesta.text()).toBe(200);
}

/** A new page, already signed in through the API. */
export async function abrirComo(
  browser: Browser,
  credenciales: { email: string; password: string } = ADMIN,
  viewport = DESKTOP,
): Promise<Page> {
  const page = await abrir(browser, viewport);
  await ingresarPorApi(page, credenciales);
  return page;
}

/** A page signed in as `credenciales`, without JavaScript: every step is a plain form (issue 35's flows). */
export async function sinScriptComo(
  browser: Browser,
  credenciales: { email: string; password: string },
  viewport = DESKTOP,
): Promise<Page> {
  const contexto = await browser.newContext({ baseURL: inject('baseUrl'), viewport, locale: 'es-CL', javaScriptEnabled: false });
  contexto.setDefaultTimeout(15_000);
  const page = await contexto.newPage();
  await ingresarPorApi(page, credenciales);
  return page;
}

/** Full-page screenshots at 1280 and 375 px (`/tmp/{nombre}-1280.png`…), with no sideways scroll at 375. */
export async function capturasAnchos(page: Page, nombre: string): Promise<void> {
  await page.screenshot({ path: `/tmp/${nombre}-1280.png`, fullPage: true });
  await page.setViewportSize(MOBILE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `/tmp/${nombre}-375.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** Waits until every island of the page is live (Astro drops `ssr` once it hydrated). */
export async function hidratada(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await expect.poll(() => page.locator('astro-island[ssr]').count()).toBe(0);
  // A form whose code comes in its own chunk is live when its fieldset is enabled (diferido.tsx).
  await expect.poll(() => page.locator('fieldset.diferido[disabled]').count()).toBe(0);
}

/** The base URL with a path, for comparing with page.url(). */
export const url = (path: string) => new URL(path, inject('baseUrl')).toString();

export async function ingresar(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  await page.goto('/ingresar/');
  await completarIngreso(page, email, password);
}

/** Signs in on the sign-in page already open (keeping its `siguiente`). */
export async function completarIngreso(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  await page.getByLabel('Correo').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.waitForURL((u) => u.pathname !== '/ingresar/');
}

let contador = 0;
/** A unique address per call, so tests never share an account. */
export function correoNuevo(prefijo: string): string {
  contador += 1;
  return `${prefijo}.${Date.now().toString(36)}${contador}@colegio.cl`;
}

/** Signs in through the API: a client with that session, for setting things up as the site's forms would. */
export async function apiComo(credenciales: { email: string; password: string } = ADMIN): Promise<{ api: ApiClient; id: number }> {
  const sesion = await signIn(inject('baseUrl'), credenciales);
  return { api: apiClient(inject('baseUrl'), sesion.access), id: sesion.usuarioId };
}

/** A one-page manual uploaded by the admin, as the upload form sends it; its id. */
export async function manualPorApi(titulo: string, descripcion = 'Un manual'): Promise<number> {
  const { api } = await apiComo();
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const { data, response } = await api.POST('/api/manuales/', {
    body: { titulo, descripcion, id_area: areas[0]?.id ?? 0, archivo: 'manual.pdf' },
    bodySerializer: multipart({ data: pdf(1), name: 'manual.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
  return data?.id ?? 0;
}

/**
 * A PDF guide of 7° básico Matemática aligned to the first OA of its first unit, uploaded through
 * the API (by the suite's server's admin unless `api` says who and where): its id and the OA's code.
 */
export async function materialPorApi(
  titulo: string,
  descripcion = 'Un material',
  api?: ApiClient,
  archivo = pdf(2),
): Promise<{ id: number; oa: string }> {
  api ??= (await apiComo()).api;
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const { data: tipos = [] } = await api.GET('/api/bdocente/tipo/');
  const area = areas.find((a) => a.nombre === 'Matemática');
  const { data: unidades = [] } = await api.GET('/api/curriculum_escolar/unidades/', {
    params: { query: { area: area?.id ?? 0, nivel: '07' } },
  });
  const unidad = unidades[0];
  const { data: oas = [] } = await api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: unidad?.id ?? 0 } } });
  const { data, response } = await api.POST('/api/bdocente/', {
    body: {
      titulo,
      descripcion,
      id_area: area?.id ?? 0,
      id_nivel: '07',
      id_unidad: unidad?.id ?? 0,
      oas: [oas[0]?.id ?? 0],
      tipo_material_docente: tipos[0]?.id ?? 0,
      archivo: 'guia.pdf',
    },
    bodySerializer: multipart({ data: archivo, name: 'guia.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
  return { id: data?.id ?? 0, oa: oas[0]?.codigo ?? '' };
}

/** ffmpeg and the HLS job share the machine's two cores with the browser: processing takes a while. */
export const PROCESO_MS = 120_000;

export interface CapsulaPorPublicar {
  titulo: string;
  descripcion?: string;
  video: Buffer;
  /** The area's name; the first area by default. */
  area?: string;
  /** The level's codigo; the fifth level of the catalogue by default. */
  nivel?: string;
  /** Runs once the capsule exists, before its video is ready (to add captions, say). */
  alCrear?: (id: number) => Promise<void>;
  /** How long its video may take to be ready. */
  espera?: number;
}

/** Publishes a capsule through the API as the upload form would, and waits until its video is ready. */
export async function publicarCapsula(api: ApiClient, c: CapsulaPorPublicar) {
  const [{ data: areas = [] }, { data: metodologias = [] }, { data: niveles = [] }] = await Promise.all([
    api.GET('/api/curriculum_escolar/areas/'),
    api.GET('/api/metodologias/'),
    api.GET('/api/curriculum_escolar/niveles/'),
  ]);
  const area = c.area === undefined ? areas[0] : areas.find((a) => a.nombre === c.area);
  const nivel = c.nivel === undefined ? niveles[4] : niveles.find((n) => n.codigo === c.nivel);
  const [metodologia] = metodologias;
  if (!area || !metodologia || !nivel) throw new Error('the curriculum catalogues lack what the capsule asks for');
  const { data: creada, response } = await api.POST('/api/capsulas/', {
    body: {
      titulo: c.titulo,
      descripcion: c.descripcion ?? 'Una cápsula de prueba para la sala.',
      id_area: area.id,
      id_metodologia: metodologia.id,
      id_nivel: nivel.codigo,
      extension: 'mp4',
      archivo: 'clase.mp4',
    },
    bodySerializer: multipart({ data: c.video, name: 'clase.mp4', type: 'video/mp4' }),
  });
  expect(response.status).toBe(201);
  const id = creada?.id ?? 0;
  await c.alCrear?.(id);
  const capsula = await vi.waitUntil(
    async () => {
      const { data } = await api.GET('/api/capsulas/{id}/', { params: { path: { id } } });
      if (data?.estado === 'error') throw new Error(`the capsule's video failed to process: ${data.mensaje_error}`);
      return data?.estado === 'listo' ? data : undefined;
    },
    { timeout: c.espera ?? PROCESO_MS, interval: 1000 },
  );
  return { ...capsula, area };
}

/** Invites a teacher with the admin CLI and returns the activation link mailed to them. */
export async function invitar(email: string, nombres: string, apellidos: string): Promise<string> {
  const salida = await runCli(['crear', '--email', email, '--nombres', nombres, '--apellidos', apellidos], inject('serverEnv'));
  expect(salida.code, salida.stderr + salida.stdout).toBe(0);
  return enlaceEnviadoA(email);
}

/** The link of the last mail sent to an address (activation, or `ruta` '/cambiar-contraseña/'), once it arrives. */
export const enlaceEnviadoA = (email: string, ruta?: string): Promise<string> => lastLinkTo(inject('dataDir'), email, ruta);

/**
 * Invites a teacher through the admin endpoint the CLI posts to (with the data directory's admin
 * key, as `npm run usuarios` sends it) and activates the account through the API, as the
 * activation page would. `invitar` runs the CLI itself: a process of its own costs about a second.
 */
export async function docenteActivo(email: string, password: string): Promise<void> {
  const clave = readFileSync(path.join(inject('dataDir'), 'secretos', 'admin-key'), 'utf8').trim();
  const invitacion = await apiClient(inject('baseUrl')).POST('/api/admin/usuarios/', {
    body: { email, nombres: 'Docente', apellidos: 'Prueba Activa', admin: false },
    headers: { 'x-admin-key': clave },
  });
  expect(invitacion.response.status).toBe(201);
  const enlace = await enlaceEnviadoA(email);
  const token = new URL(enlace).pathname.split('/').at(-1) ?? '';
  const { response } = await apiClient(inject('baseUrl')).POST('/api/usuarios/activar-cuenta/', {
    body: { token, password, password_confirmation: password, acepta_privacidad: true },
  });
  expect(response.status).toBe(200);
}

/** Answers a call with a status and a JSON body. */
export function responder(status: number, body: unknown = {}) {
  return (route: Route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
}

/**
 * Holds the calls a route matches until the returned `soltar` is called, then lets them reach the
 * server (or answers them with `respuesta`): the test reads what shows while a call is under way
 * for as long as it needs, with no timer. Calls after `soltar` pass at once.
 */
export async function retener(
  page: Page,
  ruta: Parameters<Page['route']>[0],
  respuesta: (route: Route) => Promise<void> = (route) => route.continue(),
): Promise<() => void> {
  const { promise: suelta, resolve: soltar } = Promise.withResolvers<void>();
  await page.route(ruta, async (route) => {
    await suelta;
    await respuesta(route);
  });
  return soltar;
}

/** A call that never reaches the server (no response). */
export const sinRespuesta = (route: Route) => route.abort('internetdisconnected');

/** Waits for a notification that contains the text (an upload's answer may take a while). */
export async function toast(page: Page, texto: string): Promise<void> {
  await expect
    .poll(() => page.locator('.notificacion').allTextContents(), { timeout: 15_000 })
    .toContainEqual(expect.stringContaining(texto));
}

/** The texts of the notifications on screen: every one, or only the alerts or the status messages. */
export function avisos(page: Page, rol?: 'alert' | 'status'): Promise<string[]> {
  return page.locator(rol ? `.notificaciones [role="${rol}"] p` : '.notificaciones p').allTextContents();
}

/** The message of a field, tied to its input by aria-describedby. */
export async function mensajeDe(page: Page, etiqueta: string): Promise<string> {
  const campo = page.getByLabel(etiqueta, { exact: true });
  await expect.poll(() => campo.getAttribute('aria-invalid')).toBe('true');
  const ids = (await campo.getAttribute('aria-describedby')) ?? '';
  const id = ids.split(' ').find((i) => i.endsWith('-error'));
  return (await page.locator(`#${id}`).textContent()) ?? '';
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function violacionesGraves(page: Page): Promise<string[]> {
  // Evaluated by the test tool, not injected as a <script>: the page's policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  const violaciones: AxeViolation[] = await page.evaluate(async () => {
    const resultado = await Reflect.get(window, 'axe').run(document);
    return resultado.violations;
  });
  return violaciones
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/**
 * Checks an image with `sizes` on a screen: the width its first matching `sizes` entry predicts
 * (measured by the browser) is within 12 px of the width it is drawn at, and the browser chose the
 * smallest variant (320 or 640 px) that covers that width at the screen's density. Returns the
 * chosen variant's URL.
 */
export async function comprobarVariante(
  imagen: Locator,
  { width, height, deviceScaleFactor }: { width: number; height: number; deviceScaleFactor: number },
): Promise<string> {
  const medida = await imagen.evaluate((img: HTMLImageElement) => {
    const entradas = img.sizes.split(', ').map((e) => /^(\(.+\))\s+(.+)$/.exec(e) ?? [e, '', e]);
    const [, , largo] = entradas.find(([, media]) => !media || matchMedia(media).matches) ?? [];
    const regla = document.createElement('div');
    regla.style.width = largo ?? '0';
    document.body.append(regla);
    const prevista = regla.getBoundingClientRect().width;
    regla.remove();
    return { prevista, real: img.getBoundingClientRect().width, elegida: img.currentSrc };
  });
  const ventana = `${width}x${height} @${deviceScaleFactor}`;
  expect(Math.abs(medida.prevista - medida.real), `${ventana}: sizes ${medida.prevista} px, drawn ${medida.real} px`).toBeLessThanOrEqual(
    12,
  );
  const variante = medida.real * deviceScaleFactor > 320 ? 640 : 320;
  expect(medida.elegida, ventana).toContain(`ancho=${variante}&`);
  return medida.elegida;
}
