/**
 * The capsule player's figures for `npm run bench` (issue 15, item 1), measured in Debian's
 * Chromium against a running server:
 * - JS before any click, brotli bytes as they crossed the network: the player (hls.js,
 *   media-chrome, hls-video-element: every chunk the player loader imports) and the rest;
 * - the first frame at 150 ms RTT / 1.6 Mbps (CDP Network.emulateNetworkConditions), from the
 *   navigation's start, and the bytes moved until then;
 * - after 30 s on a fast link, playing: bytes moved and seconds buffered ahead of the playhead;
 * - with the video paused: segment requests in 10 s and style/layout passes per second at 6x CPU
 *   throttling (Performance.getMetrics' LayoutCount and RecalcStyleCount).
 *
 * `subirCapsula` uploads a long enough test video (made by ffmpeg) and waits until it is ready.
 */
import { performance } from 'node:perf_hooks';
import { type CDPSession, chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../tests/support/browser.ts';
import { apiClient, type Session } from '../../tests/support/client.ts';
import { multipart } from '../../tests/support/form.ts';
import { video } from '../../tests/support/video.ts';
import { extractPageAssets, findImports, resolveReference, walkModuleGraph } from './budgets-lib.ts';

const FLAGS = [
  ...CHROMIUM_FLAGS,
  // Headless Chromium plays muted video on its own; this keeps autoplay as a real visit has it.
  '--autoplay-policy=no-user-gesture-required',
];
/** The slow link of issue 15: 150 ms round trip, 1.6 Mbps down, 750 kbps up. */
export const ENLACE_LENTO = { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (0.75e6 / 8) | 0 };
const PROCESAMIENTO_MS = 300_000;

/** Uploads a `seconds`-long 1280x720 test video as a capsule and waits until its ladder is ready. */
export async function subirCapsula(baseUrl: string, session: Session, seconds = 60): Promise<number> {
  const api = apiClient(baseUrl, session.access);
  const [{ data: areas = [] }, { data: metodologias = [] }, { data: niveles = [] }] = await Promise.all([
    api.GET('/api/curriculum_escolar/areas/'),
    api.GET('/api/metodologias/'),
    api.GET('/api/curriculum_escolar/niveles/'),
  ]);
  const [area, metodologia, nivel] = [areas[0], metodologias[0], niveles[0]];
  if (!area || !metodologia || !nivel) throw new Error('The curriculum catalogues are empty: cannot upload the bench capsule.');
  const { data, error, response } = await api.POST('/api/capsulas/', {
    body: {
      titulo: 'Cápsula para medir el reproductor',
      descripcion: 'Una clase de **prueba** para medir el reproductor.',
      id_area: area.id,
      id_metodologia: metodologia.id,
      id_nivel: nivel.codigo,
      extension: 'mp4',
      archivo: 'medicion.mp4',
    },
    bodySerializer: multipart({ data: await video({ width: 1280, height: 720, seconds }), name: 'medicion.mp4', type: 'video/mp4' }),
  });
  if (!data) throw new Error(`Uploading the bench capsule failed (HTTP ${response.status}): ${JSON.stringify(error)}`);
  const limite = Date.now() + PROCESAMIENTO_MS;
  for (;;) {
    const { data: pendientes } = await api.GET('/api/capsulas/procesando');
    const capsula = pendientes?.capsulas.find((c) => c.id === data.id);
    if (!capsula) return data.id;
    if (capsula.estado === 'error') throw new Error(`The bench capsule's video could not be processed: ${capsula.mensaje_error}`);
    if (Date.now() > limite) throw new Error(`The bench capsule was still processing after ${PROCESAMIENTO_MS / 1000} s.`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export interface CifrasReproductor {
  /** Brotli bytes of JS on the wire before any click: the player's chunks and everything else. */
  jsReproductorBytes: number;
  jsRestoBytes: number;
  /** From navigation start to the first frame presented, at 150 ms / 1.6 Mbps; null when no frame came in 20 s. */
  primerCuadroMs: number | null;
  /** Bytes that crossed the network until that first frame. */
  bytesAntesDelPrimerCuadro: number;
  /** After 30 s playing on a fast link: bytes moved and seconds buffered ahead of the playhead. */
  bytes30s: number;
  adelanto30s: number;
  /** Paused: segment requests in the 10 s after pausing; layouts and style recalculations per second at 6x CPU throttling. */
  segmentosEnPausa: number;
  layoutsPorSegundoEnPausa: number;
  estilosPorSegundoEnPausa: number;
}

interface Respuesta {
  url: string;
  tipo: string;
  bytes: number;
  fin: number;
}

/** Records every response of a page through CDP: URL, resource type, bytes on the wire, when it ended. */
async function registrarRed(cdp: CDPSession): Promise<Respuesta[]> {
  const enCurso = new Map<string, { url: string; tipo: string }>();
  const hechas: Respuesta[] = [];
  cdp.on('Network.responseReceived', (e) => enCurso.set(e.requestId, { url: e.response.url, tipo: e.type }));
  cdp.on('Network.loadingFinished', (e) => {
    const r = enCurso.get(e.requestId);
    if (r) hechas.push({ ...r, bytes: e.encodedDataLength, fin: performance.now() });
  });
  await cdp.send('Network.enable');
  return hechas;
}

/**
 * The paths of the player's chunks, as `npm run budgets` counts them: the scripts the page reaches
 * only through a dynamic import() (the player loader's), not through its HTML's static graph.
 */
async function chunksDelReproductor(baseUrl: string, capsulaUrl: string, session: Session): Promise<Set<string>> {
  const leer = async (ruta: string) => {
    const res = await fetch(new URL(ruta, baseUrl), { headers: { cookie: session.cookie } });
    return res.ok ? res.text() : null;
  };
  const pagina = new URL(capsulaUrl).pathname;
  const html = (await leer(pagina)) ?? '';
  const assets = extractPageAssets(html);
  const eager = assets.scripts.map((src) => resolveReference(src, pagina)).filter((p) => p !== null);
  const lazy: string[] = [];
  for (const script of assets.inlineScripts) {
    const imports = findImports(script.code);
    if (script.module) eager.push(...imports.static.map((spec) => resolveReference(spec, pagina) ?? ''));
    lazy.push(...imports.dynamic.map((spec) => resolveReference(spec, pagina) ?? ''));
  }
  const grafo = await walkModuleGraph({ eager: eager.filter(Boolean), lazy: lazy.filter(Boolean) }, leer);
  return new Set(grafo.lazy);
}

const esDelReproductor = (url: string, reproductor: Set<string>) => reproductor.has(new URL(url).pathname);

async function nuevaPagina(browser: Awaited<ReturnType<typeof chromium.launch>>, baseUrl: string, session: Session) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'es-CL' });
  const { hostname } = new URL(baseUrl);
  await context.addCookies(
    session.cookie.split('; ').map((par) => {
      const [name = '', ...valor] = par.split('=');
      return { name, value: valor.join('='), domain: hostname, path: '/' };
    }),
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  return { context, page, cdp };
}

const adelanto = (page: Page) =>
  page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('hls-video');
    if (!v) return 0;
    const b = v.buffered;
    for (let i = 0; i < b.length; i++) if (b.start(i) <= v.currentTime + 0.1 && b.end(i) >= v.currentTime) return b.end(i) - v.currentTime;
    return 0;
  });

export async function benchReproductor(baseUrl: string, capsulaUrl: string, session: Session): Promise<CifrasReproductor> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    // 1. JS before any click, and the first frame on the slow link.
    const lento = await nuevaPagina(browser, baseUrl, session);
    const red = await registrarRed(lento.cdp);
    await lento.cdp.send('Network.emulateNetworkConditions', { offline: false, ...ENLACE_LENTO });
    await lento.page.addInitScript(() => {
      // The first presented frame, from the navigation's start (requestVideoFrameCallback's own clock).
      const vigilar = () => {
        const v = document.querySelector('hls-video') as (HTMLElement & { nativeEl?: HTMLVideoElement }) | null;
        const nativo = v?.nativeEl;
        if (!nativo) return void requestAnimationFrame(vigilar);
        nativo.requestVideoFrameCallback((ahora) => Reflect.set(window, '__primerCuadro', ahora));
      };
      addEventListener('DOMContentLoaded', vigilar);
    });
    const inicio = performance.now();
    await lento.page.goto(capsulaUrl, { waitUntil: 'load' });
    const primerCuadroMs: number | null = await lento.page
      .waitForFunction(() => Reflect.get(window, '__primerCuadro') as number | undefined, null, { timeout: 20_000 })
      .then(async (h) => (await h.jsonValue()) ?? null)
      .catch(() => null);
    const hastaCuadro = primerCuadroMs === null ? Number.POSITIVE_INFINITY : inicio + primerCuadroMs;
    const bytesAntesDelPrimerCuadro = red.filter((r) => r.fin <= hastaCuadro).reduce((s, r) => s + r.bytes, 0);
    await lento.page.waitForTimeout(3_000);
    const reproductor = await chunksDelReproductor(baseUrl, capsulaUrl, session);
    const js = red.filter((r) => r.tipo === 'Script');
    const jsReproductorBytes = js.filter((r) => esDelReproductor(r.url, reproductor)).reduce((s, r) => s + r.bytes, 0);
    const jsRestoBytes = js.filter((r) => !esDelReproductor(r.url, reproductor)).reduce((s, r) => s + r.bytes, 0);
    await lento.context.close();

    // 2. Thirty seconds playing on a fast link.
    const rapido = await nuevaPagina(browser, baseUrl, session);
    const redRapida = await registrarRed(rapido.cdp);
    await rapido.page.goto(capsulaUrl, { waitUntil: 'load' });
    // Autoplay starts it; play() only where it did not (a link the browser calls slow).
    await rapido.page.waitForFunction(() => {
      const v = document.querySelector('hls-video') as (HTMLVideoElement & { api?: { levels: unknown[] } | null }) | null;
      return (v?.api?.levels.length ?? 0) > 0;
    });
    await rapido.page.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('hls-video');
      if (v?.paused) void v.play().catch(() => undefined);
    });
    await rapido.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('hls-video')?.currentTime ?? 0) > 0);
    await rapido.page.waitForTimeout(30_000);
    const bytes30s = redRapida.reduce((s, r) => s + r.bytes, 0);
    const adelanto30s = await adelanto(rapido.page);

    // 3. Paused: no more segments, and no work on every frame (6x CPU throttling).
    await rapido.page.evaluate(() => document.querySelector<HTMLVideoElement>('hls-video')?.pause());
    await rapido.page.waitForTimeout(1_000);
    const segmentosAntes = redRapida.filter((r) => r.url.endsWith('.ts')).length;
    await rapido.cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await rapido.cdp.send('Performance.enable');
    const metricas = async () => {
      const { metrics } = await rapido.cdp.send('Performance.getMetrics');
      const valor = (nombre: string) => metrics.find((m) => m.name === nombre)?.value ?? 0;
      return { layouts: valor('LayoutCount'), estilos: valor('RecalcStyleCount') };
    };
    const antes = await metricas();
    const t0 = performance.now();
    await rapido.page.waitForTimeout(10_000);
    const despues = await metricas();
    const segundos = (performance.now() - t0) / 1000;
    const layoutsPorSegundoEnPausa = (despues.layouts - antes.layouts) / segundos;
    const estilosPorSegundoEnPausa = (despues.estilos - antes.estilos) / segundos;
    const segmentosEnPausa = redRapida.filter((r) => r.url.endsWith('.ts')).length - segmentosAntes;
    await rapido.context.close();

    return {
      jsReproductorBytes,
      jsRestoBytes,
      primerCuadroMs,
      bytesAntesDelPrimerCuadro,
      bytes30s,
      adelanto30s,
      segmentosEnPausa,
      layoutsPorSegundoEnPausa,
      estilosPorSegundoEnPausa,
    };
  } finally {
    await browser.close();
  }
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** The figures as lines for `npm run bench`, each beside issue 15's target. */
export function describirReproductor(c: CifrasReproductor): string {
  const filas: [string, string, string][] = [
    ['JS before any click: player (brotli on the wire)', kB(c.jsReproductorBytes), '<= 150 kB'],
    ['JS before any click: everything else', kB(c.jsRestoBytes), '<= 90 kB'],
    ['first frame at 150 ms / 1.6 Mbps', c.primerCuadroMs === null ? 'none in 20 s' : `${Math.round(c.primerCuadroMs)} ms`, '<= 2000 ms'],
    ['bytes moved before that first frame', kB(c.bytesAntesDelPrimerCuadro), ''],
    ['after 30 s playing (fast link): bytes moved', kB(c.bytes30s), ''],
    ['after 30 s playing: seconds buffered ahead', c.adelanto30s.toFixed(1), '<= 15'],
    ['paused 10 s: segments requested', String(c.segmentosEnPausa), '0'],
    ['paused, 6x CPU: layouts per second', c.layoutsPorSegundoEnPausa.toFixed(1), '~0'],
    ['paused, 6x CPU: style recalculations per second', c.estilosPorSegundoEnPausa.toFixed(1), '~0'],
  ];
  const ancho = Math.max(...filas.map(([f]) => f.length));
  return filas.map(([f, v, meta]) => `${f.padEnd(ancho)}  ${v.padStart(12)}  ${meta}`).join('\n');
}
