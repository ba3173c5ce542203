/**
 * 'Ahorro de datos' in Chromium (issue 20), from the browser's own network log (CDP): with the
 * person's preference on, a capsule page moves under 1 MB before play and playback never asks for
 * a rung above 360p (the player's switch then lifts the ceiling); without it the video still waits
 * for play, with only its first segment; the player's switch saves the preference and the next
 * pages follow it; the quality menu says what a minute of each quality costs; the list cards and
 * the profile's rows of one's publications ask only for their 320 px pictures (with the preference
 * or with Save-Data alone); the profile's switch works without JavaScript.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, it as base, beforeAll, describe, expect, inject } from 'vitest';
import { DESKTOP, MOBILE } from '../support/browser.ts';
import { video } from '../support/video.ts';
import { apiComo, comprobarVariante, correoNuevo, docenteActivo, ingresarPorApi, navegador, publicarCapsula } from './helpers.ts';

let browser: Browser;
const CLAVE = 'Docente2026';
let docente: { email: string; password: string };
let idDocente: number;

// ffmpeg and the HLS job share the machine's cores with the browser: processing takes a while.
const PROCESO_MS = 180_000;

beforeAll(async () => {
  browser = await navegador();
  docente = { email: correoNuevo('ahorro.docente'), password: CLAVE };
  await docenteActivo(docente.email, CLAVE);
  idDocente = (await apiComo(docente)).id;
});
afterAll(async () => {
  await browser?.close();
});

/** A ready 720p capsule (rungs 234p, 360p and 720p), 40 s long, uploaded as the admin. */
async function capsula720(): Promise<number> {
  const { api } = await apiComo();
  const capsula = await publicarCapsula(api, {
    titulo: `Ahorro de datos en la sala ${Date.now()}`,
    descripcion: 'Una cápsula en 720p para medir lo que se descarga.',
    video: await video({ width: 1280, height: 720, seconds: 40 }),
    espera: PROCESO_MS,
  });
  return capsula.id;
}

const it = base.extend<{ capsula: number }>({
  capsula: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture needs from this pattern.
    async ({}, use) => {
      await use(await capsula720());
    },
    { scope: 'file' },
  ],
});
const CON_CAPSULA = PROCESO_MS + 90_000;

/** Sets the teacher's preference through the API, as the profile or the player's switch would. */
async function preferencia(ahorro_datos: boolean): Promise<void> {
  const { api } = await apiComo(docente);
  const { data, response } = await api.PUT('/api/usuarios/{id}/preferencias/', {
    params: { path: { id: idDocente } },
    body: { ahorro_datos },
  });
  expect(response.status).toBe(200);
  expect(data?.ahorro_datos).toBe(ahorro_datos);
}

interface Respuesta {
  url: string;
  bytes: number;
}

/** Every response the page's network finished, with the bytes it moved (headers and body, as encoded). */
async function registrarRed(cdp: CDPSession): Promise<Respuesta[]> {
  const urls = new Map<string, string>();
  const hechas: Respuesta[] = [];
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => hechas.push({ url: urls.get(e.requestId) ?? '', bytes: e.encodedDataLength }));
  await cdp.send('Network.enable');
  return hechas;
}

const segmentos = (red: Respuesta[]) => red.map((r) => new URL(r.url).pathname).filter((p) => p.endsWith('.ts'));
/** The rung of a segment's path: '/streaming/7/360p_002.ts' -> 360. */
const altoDe = (ruta: string) => Number(/\/(\d+)p_\d+\.ts$/.exec(ruta)?.[1] ?? Number.NaN);

interface OpcionesPagina {
  viewport?: typeof DESKTOP;
  deviceScaleFactor?: number;
  /** Headers every request of the page sends ('save-data': 'on'). */
  cabeceras?: Record<string, string>;
}

/** A page signed in as `credenciales` (the admin when omitted), with its network log. */
async function paginaDe(
  credenciales: { email: string; password: string } | undefined,
  opciones: OpcionesPagina = {},
): Promise<{ page: Page; red: Respuesta[] }> {
  const context = await browser.newContext({
    baseURL: inject('baseUrl'),
    viewport: opciones.viewport ?? DESKTOP,
    deviceScaleFactor: opciones.deviceScaleFactor ?? 1,
    locale: 'es-CL',
    ...(opciones.cabeceras ? { extraHTTPHeaders: opciones.cabeceras } : {}),
  });
  const page = await context.newPage();
  await ingresarPorApi(page, credenciales);
  const red = await registrarRed(await context.newCDPSession(page));
  return { page, red };
}

const paginaDocente = (opciones: OpcionesPagina = {}) => paginaDe(docente, opciones);

/** The thumbnail variants a page asked for ('/miniaturas/capsulas/7/?ancho=320&v=…'). */
const miniaturas = (red: Respuesta[]) =>
  red.map((r) => new URL(r.url)).filter((u) => u.pathname.startsWith('/miniaturas/') && u.searchParams.has('ancho'));
const noDe320 = (red: Respuesta[]) =>
  miniaturas(red)
    .filter((u) => u.searchParams.get('ancho') !== '320')
    .map(String);

/** Resolves once the player is live and hls.js has read the master playlist. */
async function reproductorListo(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const v = document.querySelector('hls-video') as (HTMLVideoElement & { api?: { levels: unknown[] } | null }) | null;
    return (v?.api?.levels.length ?? 0) > 0;
  });
}

/**
 * Resolves once hls.js holds more ahead of the playhead than it may ask for: with
 * preload="metadata" hls-video-element lowers that to 1 s until play, and the first 2-second
 * segment passes it. From then on a paused video asks for nothing more, so a second segment or
 * playback that started on its own would already show.
 */
async function cargaDetenida(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    type Api = { mainForwardBufferInfo: { len: number } | null; maxBufferLength: number };
    const api = (document.querySelector('hls-video') as (HTMLVideoElement & { api?: Api | null }) | null)?.api;
    return !!api && (api.mainForwardBufferInfo?.len ?? 0) >= api.maxBufferLength;
  });
}

/** Plays the video at 2x until `segundos` of it have played. */
async function reproducir(page: Page, segundos: number): Promise<void> {
  await page.getByRole('button', { name: 'Reproducir' }).click();
  await page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('hls-video');
    if (v) v.playbackRate = 2;
  });
  await expect
    .poll(() => page.evaluate(() => document.querySelector<HTMLVideoElement>('hls-video')?.currentTime ?? 0), { timeout: 60_000 })
    .toBeGreaterThan(segundos);
}

describe('the data saver on a capsule page (issue 20)', () => {
  it(
    'with the preference on: under 1 MB before play, no segment, no preload; then never a rung above 360p until the switch is turned off',
    async ({ capsula }) => {
      await preferencia(true);
      try {
        // A wide window: the player is far wider than the 360p rung's 640 px, so hls.js's size cap allows 720p.
        const { page, red } = await paginaDocente({ viewport: { width: 1600, height: 900 } });
        await page.goto(`/capsulas/${capsula}`);
        const videoEl = page.locator('hls-video');
        expect(await page.locator('link[rel="preload"][href^="/streaming/"]').count()).toBe(0);
        expect(await videoEl.getAttribute('autoplay')).toBeNull();
        expect(await videoEl.getAttribute('preload')).toBe('none');
        await reproductorListo(page);
        // Measured once media-chrome is live: until its code defines hls-video the element is an
        // empty inline box (0 px) and the poster fills the player (reproductor.css).
        expect(await videoEl.evaluate((v) => v.getBoundingClientRect().width)).toBeGreaterThan(800);
        await page.waitForLoadState('networkidle');
        const antes = red.reduce((s, r) => s + r.bytes, 0);
        process.stdout.write(`\nAhorro de datos: ${(antes / 1024).toFixed(0)} kB movidos antes de reproducir (${red.length} respuestas)\n`);
        expect(antes).toBeGreaterThan(0);
        expect(antes).toBeLessThan(1_000_000);
        expect(segmentos(red)).toEqual([]);
        expect(await videoEl.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
        const interruptor = page.getByRole('button', { name: 'Ahorro de datos' });
        expect(await interruptor.getAttribute('aria-pressed')).toBe('true');

        // A fast local link and a wide player: without the ceiling hls.js would climb to 720p.
        await reproducir(page, 6);
        const vistos = segmentos(red);
        expect(vistos.length).toBeGreaterThan(1);
        expect(vistos.filter((s) => altoDe(s) > 360)).toEqual([]);

        // Off in the player: the ceiling goes for this page, and the 720p rung follows for what is not buffered yet.
        await interruptor.click();
        expect(await interruptor.getAttribute('aria-pressed')).toBe('false');
        await page.evaluate(() => {
          const v = document.querySelector<HTMLVideoElement>('hls-video');
          if (v) v.playbackRate = 1;
        });
        await expect.poll(() => segmentos(red).filter((s) => altoDe(s) === 720).length, { timeout: 60_000 }).toBeGreaterThan(0);
      } finally {
        await preferencia(false);
      }
    },
    CON_CAPSULA,
  );

  it(
    'without it the video waits for play too, with only its first segment moved',
    async ({ capsula }) => {
      await preferencia(false);
      const { page, red } = await paginaDocente();
      await page.goto(`/capsulas/${capsula}`);
      const videoEl = page.locator('hls-video');
      expect(await videoEl.getAttribute('autoplay')).toBeNull();
      expect(await videoEl.getAttribute('preload')).toBe('metadata');
      await reproductorListo(page);
      await page.waitForLoadState('networkidle');
      await cargaDetenida(page);
      expect(await videoEl.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
      // The browser's log may report the segment's end a moment after the player buffered it.
      await expect.poll(() => segmentos(red)).toEqual([`/streaming/${capsula}/234p_000.ts`]);
      const antes = red.reduce((s, r) => s + r.bytes, 0);
      process.stdout.write(`\nSin ahorro de datos: ${(antes / 1024).toFixed(0)} kB movidos antes de reproducir\n`);
      expect(await page.getByRole('button', { name: 'Ahorro de datos' }).getAttribute('aria-pressed')).toBe('false');
    },
    CON_CAPSULA,
  );

  it(
    'the switch in the player saves the preference, and the next pages follow it',
    async ({ capsula }) => {
      await preferencia(false);
      try {
        const { page } = await paginaDocente();
        await page.goto(`/capsulas/${capsula}`);
        await reproductorListo(page);
        const interruptor = page.getByRole('button', { name: 'Ahorro de datos' });
        expect(await interruptor.getAttribute('aria-pressed')).toBe('false');
        const [respuesta] = await Promise.all([
          page.waitForResponse(
            (r) => new URL(r.url()).pathname === `/api/usuarios/${idDocente}/preferencias/` && r.request().method() === 'PUT',
          ),
          interruptor.click(),
        ]);
        expect(respuesta.status()).toBe(200);
        expect(await interruptor.getAttribute('aria-pressed')).toBe('true');
        const { api } = await apiComo(docente);
        const { data } = await api.GET('/api/usuarios/{id}/preferencias/', { params: { path: { id: idDocente } } });
        expect(data?.ahorro_datos).toBe(true);

        // Another page, then the capsule again: the server renders it with the data saver on.
        await page.goto('/capsulas/');
        expect(await page.locator('.tarjeta-contenido img[srcset]').count()).toBe(0);
        await page.goto(`/capsulas/${capsula}`);
        expect(await page.locator('hls-video').getAttribute('preload')).toBe('none');
        expect(await page.locator('link[rel="preload"][href^="/streaming/"]').count()).toBe(0);
        await reproductorListo(page);
        expect(await interruptor.getAttribute('aria-pressed')).toBe('true');

        // Turned off again, even before the server knows (the PUT held back), the next page follows this device.
        await page.route(`**/api/usuarios/${idDocente}/preferencias/`, (route) => route.abort('internetdisconnected'));
        await interruptor.click();
        expect(await interruptor.getAttribute('aria-pressed')).toBe('false');
        await page.reload();
        await reproductorListo(page);
        expect(await page.locator('hls-video').getAttribute('preload')).toBe('metadata');
        expect(await interruptor.getAttribute('aria-pressed')).toBe('false');
      } finally {
        await preferencia(false);
      }
    },
    CON_CAPSULA,
  );

  it(
    'the switch fits the control bar of a 375 px phone, every control inside the player',
    async ({ capsula }) => {
      const { page } = await paginaDocente({ viewport: MOBILE });
      await page.goto(`/capsulas/${capsula}`);
      await reproductorListo(page);
      const interruptor = page.getByRole('button', { name: 'Ahorro de datos' });
      await expect.poll(() => interruptor.isVisible()).toBe(true);
      const caja = await page.locator('section.reproductor').boundingBox();
      const fuera = await page.locator('.reproductor-botones > *').evaluateAll(
        (controles, limite) =>
          controles
            .filter((c) => c.getBoundingClientRect().width > 0)
            .filter((c) => c.getBoundingClientRect().right > (limite as number) + 0.5)
            .map((c) => c.tagName.toLowerCase()),
        (caja?.x ?? 0) + (caja?.width ?? 0),
      );
      expect(fuera).toEqual([]);
    },
    CON_CAPSULA,
  );

  it(
    'the quality menu says what a minute of each quality costs',
    async ({ capsula }) => {
      const { page } = await paginaDocente();
      await page.goto(`/capsulas/${capsula}`);
      await reproductorListo(page);
      await page.locator('media-rendition-menu-button').click();
      const items = page.locator('media-rendition-menu media-chrome-menu-item');
      await expect.poll(() => items.count()).toBeGreaterThan(3);
      const textos = (await items.allTextContents()).map((t) => t.trim());
      process.stdout.write(`\nMenú de calidad: ${textos.join(' | ')}\n`);
      for (const alto of [234, 360, 720])
        expect(textos).toContainEqual(expect.stringMatching(new RegExp(`^${alto}p · ~\\d+(,\\d)? MB/min$`)));
      // Costs grow with the rung.
      const megas = (alto: number) =>
        Number(
          textos
            .find((t) => t.startsWith(`${alto}p`))
            ?.replace(/^.*~([\d,]+) MB.*$/, '$1')
            .replace(',', '.'),
        );
      expect(megas(234)).toBeLessThan(megas(360));
      expect(megas(360)).toBeLessThan(megas(720));
    },
    CON_CAPSULA,
  );
});

describe('the data saver elsewhere (issue 20)', () => {
  it(
    'list cards ask only for their 320 px pictures, even on a 2x screen',
    async ({ capsula }) => {
      expect(capsula).toBeGreaterThan(0);
      await preferencia(true);
      try {
        const { page, red } = await paginaDocente({ deviceScaleFactor: 2 });
        await page.goto('/capsulas/');
        await page.waitForLoadState('networkidle');
        expect(await page.locator('.tarjeta-contenido img').count()).toBeGreaterThan(0);
        expect(await page.locator('.tarjeta-contenido img[srcset]').count()).toBe(0);
        const pedidas = miniaturas(red);
        expect(pedidas.length).toBeGreaterThan(0);
        expect(noDe320(red)).toEqual([]);
      } finally {
        await preferencia(false);
      }
      // Without it the same screen takes the 640 px ones: the check above is not empty.
      const { page, red } = await paginaDocente({ deviceScaleFactor: 2 });
      await page.goto('/capsulas/');
      await page.waitForLoadState('networkidle');
      expect(miniaturas(red).some((u) => u.searchParams.get('ancho') === '640')).toBe(true);
    },
    CON_CAPSULA,
  );

  it(
    'a browser that says Save-Data, with no preference saved, gets list cards with their 320 px pictures only',
    async ({ capsula }) => {
      expect(capsula).toBeGreaterThan(0);
      await preferencia(false);
      const { page, red } = await paginaDocente({ deviceScaleFactor: 2, cabeceras: { 'save-data': 'on' } });
      await page.goto('/capsulas/');
      await page.waitForLoadState('networkidle');
      expect(await page.locator('.tarjeta-contenido img').count()).toBeGreaterThan(0);
      expect(await page.locator('.tarjeta-contenido img[srcset]').count()).toBe(0);
      expect(miniaturas(red).length).toBeGreaterThan(0);
      expect(noDe320(red)).toEqual([]);
      // The same person and screen without the header take the 640 px ones.
      const sin = await paginaDocente({ deviceScaleFactor: 2 });
      await sin.page.goto('/capsulas/');
      await sin.page.waitForLoadState('networkidle');
      expect(miniaturas(sin.red).some((u) => u.searchParams.get('ancho') === '640')).toBe(true);
    },
    CON_CAPSULA,
  );

  it(
    'the rows of one’s publications in the profile ask for the variant a slide is drawn at, and the 320 px one only with Save-Data',
    async ({ capsula }) => {
      expect(capsula).toBeGreaterThan(0);
      // The capsule is the admin's (its preference is never saved here: off).
      const publicaciones = '/perfil/editar?pestana=publicaciones';
      const ventanas = [
        { width: 375, height: 740, deviceScaleFactor: 2 },
        { width: 600, height: 800, deviceScaleFactor: 1 },
        { width: 1000, height: 800, deviceScaleFactor: 1 },
        { width: 1280, height: 800, deviceScaleFactor: 2 },
        { width: 1600, height: 900, deviceScaleFactor: 1 },
      ];
      for (const { width, height, deviceScaleFactor } of ventanas) {
        const { page } = await paginaDe(undefined, { viewport: { width, height }, deviceScaleFactor });
        await page.goto(publicaciones);
        const imagen = page.locator('#mis-capsulas img').first();
        expect(await imagen.evaluate((img: HTMLImageElement) => [img.loading, img.width, img.height].join(' '))).toMatch(/^lazy \d+ \d+$/);
        await imagen.scrollIntoViewIfNeeded();
        await expect.poll(() => imagen.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        await comprobarVariante(imagen, { width, height, deviceScaleFactor });
        await page.context().close();
      }

      const { page, red } = await paginaDe(undefined, { deviceScaleFactor: 2, cabeceras: { 'save-data': 'on' } });
      await page.goto(publicaciones);
      const imagenes = page.locator('.carrusel img');
      expect(await imagenes.count()).toBeGreaterThan(0);
      expect(await page.locator('.carrusel img[srcset]').count()).toBe(0);
      const primera = page.locator('#mis-capsulas img').first();
      await primera.scrollIntoViewIfNeeded();
      await expect.poll(() => primera.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      expect(await primera.evaluate((img: HTMLImageElement) => img.currentSrc)).toContain('ancho=320&');
      expect(miniaturas(red).length).toBeGreaterThan(0);
      expect(noDe320(red)).toEqual([]);
      await page.context().close();
    },
    CON_CAPSULA,
  );

  it('the profile’s switch works without JavaScript and says it saved', async () => {
    await preferencia(false);
    const context = await browser.newContext({ baseURL: inject('baseUrl'), javaScriptEnabled: false, locale: 'es-CL' });
    const page = await context.newPage();
    await ingresarPorApi(page, docente);
    await page.goto('/perfil/editar#ahorro');
    const interruptor = page.getByRole('switch', { name: 'Ahorro de datos' });
    expect(await interruptor.isChecked()).toBe(false);
    expect(await page.locator('#explicacion-ahorro').textContent()).toContain('360p');
    const { api } = await apiComo(docente);
    const leer = async () =>
      (await api.GET('/api/usuarios/{id}/preferencias/', { params: { path: { id: idDocente } } })).data?.ahorro_datos;
    const seccion = page.locator('#ahorro');
    for (const valor of [true, false]) {
      await interruptor.setChecked(valor);
      await seccion.getByRole('button', { name: 'Guardar' }).click();
      await page.waitForURL((u) => u.searchParams.get('ahorro') === 'guardado');
      expect(await seccion.getByRole('status').textContent()).toBe('Preferencia guardada.');
      expect(await page.getByRole('switch', { name: 'Ahorro de datos' }).isChecked()).toBe(valor);
      expect(await leer()).toBe(valor);
    }
    // A hostile post is refused and changes nothing.
    const mala = await page.request.post('/perfil/ahorro-datos', {
      headers: { origin: new URL(inject('baseUrl')).origin, 'content-type': 'application/x-www-form-urlencoded' },
      data: 'ahorro_datos=constructor',
    });
    expect(mala.status()).toBe(400);
    expect(await leer()).toBe(false);
  });
});
