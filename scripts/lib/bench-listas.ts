/**
 * The lists with thumbnails (issue 15 item 2): /biblioteca-docente/ and /manuales/ with a full
 * first page of PDFs, measured as a teacher's first visit (empty cache, signed in):
 *
 * - bytes moved, from Chromium's network log (Network.loadingFinished, headers included), on a
 *   desktop window and on Lighthouse's phone (412x823 at 1.75 device pixels), once the page is
 *   quiet and again after scrolling to the end of the list;
 * - Lighthouse mobile (simulated Slow 4G, 4x CPU): LCP, CLS, total byte weight, score.
 *
 * `benchListas(url, session)` uploads what is missing (the real `public/instructivo.pdf`, a
 * busy first page like a teacher's guide, not a one-line test PDF) and prints a table; `npm run
 * bench` calls it. Run alone (`node scripts/lib/bench-listas.ts`) it starts the built server on a
 * fresh data directory first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../tests/support/browser.ts';
import { type ApiClient, apiClient, type Session, signIn } from '../../tests/support/client.ts';
import { multipart } from '../../tests/support/form.ts';
import { ADMIN, root } from '../../tests/support/server.ts';
import { requireBuild, withServer } from './api.ts';
import { formatTable } from './table.ts';

/** More than the first page (10 by default) holds, so every card of it has a thumbnail. */
const ITEMS = 12;
export const LISTAS = ['/biblioteca-docente/', '/manuales/'] as const;
export const TARGET_BYTES = 120 * 1024;
export const TARGET_LCP_MS = 1500;

const VISTAS = {
  escritorio: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
  // Lighthouse's mobile emulation (Moto G Power).
  movil: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true },
} as const;
type Vista = keyof typeof VISTAS;

export interface Transferencia {
  bytes: number;
  imagenes: number;
  bytesImagenes: number;
}

export interface MedidaLista {
  ruta: string;
  red: Record<Vista, { alCargar: Transferencia; alBajar: Transferencia }>;
  /** The run of median LCP; `lcpsMs` has every run's. */
  lighthouse: { lcpMs: number; lcpsMs?: number[]; cls: number; bytes: number; puntaje: number; elementoLcp: string };
}

const pdfReal = () => readFileSync(path.join(root, 'public/instructivo.pdf'));

function exigir<T>(que: string, { data, error, response }: { data?: T; error?: unknown; response: Response }): T {
  if (data === undefined) throw new Error(`bench-listas: ${que}: HTTP ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/** A level of the area with a unit that has learning objectives: what a material must name. */
async function curriculo(api: ApiClient, area: number): Promise<{ nivel: string; unidad: number; oa: number }> {
  const niveles = exigir('niveles', await api.GET('/api/curriculum_escolar/niveles/', { params: { query: { area } } }));
  for (const { codigo: nivel } of niveles) {
    const unidades = exigir('unidades', await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area, nivel } } }));
    for (const { id: unidad } of unidades) {
      const oa = exigir('oas', await api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad } } }))[0];
      if (oa) return { nivel, unidad, oa: oa.id };
    }
  }
  throw new Error(`bench-listas: no unit of area ${area} has learning objectives`);
}

/** Uploads manuals and materials until each list has ITEMS of them. */
async function poblar(api: ApiClient): Promise<void> {
  const areas = exigir('areas', await api.GET('/api/curriculum_escolar/areas/'));
  const area = areas.find((a) => a.codigo === 'MA') ?? areas[0];
  if (!area) throw new Error('bench-listas: no areas');
  const { nivel, unidad, oa } = await curriculo(api, area.id);
  const tipo = exigir('tipos', await api.GET('/api/bdocente/tipo/'))[0];
  if (!tipo) throw new Error('bench-listas: no material types');

  const { num_results: materiales } = exigir('materiales', await api.GET('/api/bdocente/'));
  for (let i = materiales; i < ITEMS; i++) {
    exigir(
      'material',
      await api.POST('/api/bdocente/', {
        body: {
          titulo: `Guía de fracciones equivalentes ${i + 1}`,
          descripcion: 'Una guía de trabajo con ejemplos y ejercicios.',
          extension: 'pdf',
          id_area: area.id,
          id_nivel: nivel,
          id_unidad: unidad,
          oas: [oa],
          tipo_material_docente: tipo.id,
          archivo: 'guia.pdf',
        },
        bodySerializer: multipart({ data: pdfReal(), name: 'guia.pdf', type: 'application/pdf' }),
      }),
    );
  }
  const { num_results: manuales } = exigir('manuales', await api.GET('/api/manuales/'));
  for (let i = manuales; i < ITEMS; i++) {
    exigir(
      'manual',
      await api.POST('/api/manuales/', {
        body: {
          titulo: `Manual de evaluación formativa ${i + 1}`,
          descripcion: 'Orientaciones para evaluar en el aula.',
          id_area: area.id,
          extension: 'pdf',
          archivo: 'manual.pdf',
        },
        bodySerializer: multipart({ data: pdfReal(), name: 'manual.pdf', type: 'application/pdf' }),
      }),
    );
  }
}

/** A first visit in a fresh context (empty cache), counted from Chromium's network log. */
async function transferencia(browser: Browser, url: string, cookie: string, vista: Vista) {
  const context = await browser.newContext({ ...VISTAS[vista], locale: 'es-CL' });
  const { origin } = new URL(url);
  await context.addCookies(
    cookie.split('; ').map((par) => {
      const [name = '', ...value] = par.split('=');
      return { name, value: value.join('='), url: origin };
    }),
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const tipos = new Map<string, string>();
  let bytes = 0;
  let imagenes = 0;
  let bytesImagenes = 0;
  // data: URLs (the CSS's icons) move nothing and are not counted as images.
  cdp.on('Network.responseReceived', (e) => tipos.set(e.requestId, e.response.url.startsWith('data:') ? 'data' : e.type));
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    if (tipos.get(e.requestId) === 'Image') {
      imagenes++;
      bytesImagenes += e.encodedDataLength;
    }
  });
  const foto = (): Transferencia => ({ bytes, imagenes, bytesImagenes });
  const respuesta = await page.goto(url, { waitUntil: 'networkidle' });
  if (!respuesta?.ok() || new URL(page.url()).pathname !== new URL(url).pathname)
    throw new Error(`bench-listas: ${url} answered ${respuesta?.status()} at ${page.url()} (not signed in?)`);
  const alCargar = foto();
  // Down the list a screen at a time, as a person reads it, so lazy images come in.
  const alto = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < alto; y += VISTAS[vista].viewport.height / 2) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
  }
  await page.waitForLoadState('networkidle');
  const alBajar = foto();
  await context.close();
  return { alCargar, alBajar };
}

/** Lighthouse's simulated figures move with the machine's other work: the median of a few runs is reported. */
const LIGHTHOUSE_RUNS = 3;

async function faro(url: string, cookie: string): Promise<MedidaLista['lighthouse']> {
  const corridas: MedidaLista['lighthouse'][] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) corridas.push(await unFaro(url, cookie));
  corridas.sort((a, b) => a.lcpMs - b.lcpMs);
  const mediana = corridas[Math.floor(corridas.length / 2)];
  if (!mediana) throw new Error('bench-listas: no Lighthouse run');
  return { ...mediana, lcpsMs: corridas.map((c) => c.lcpMs) };
}

/** One Lighthouse mobile run (its defaults: simulated Slow 4G, 4x CPU) with the session's cookies. */
async function unFaro(url: string, cookie: string): Promise<MedidaLista['lighthouse']> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const resultado = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      extraHeaders: { Cookie: cookie },
    });
    if (!resultado) throw new Error(`bench-listas: Lighthouse gave no result for ${url}`);
    const { lhr } = resultado;
    if (lhr.runtimeError) throw new Error(`bench-listas: Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`bench-listas: Lighthouse ended on ${lhr.finalDisplayedUrl} (not signed in?)`);
    const valor = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      elementoLcp: elementoLcp(lhr.audits['lcp-breakdown-insight']?.details),
      lcpMs: valor('largest-contentful-paint'),
      cls: valor('cumulative-layout-shift'),
      bytes: valor('total-byte-weight'),
      puntaje: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    };
  } finally {
    chrome.kill();
  }
}

/** The LCP element's selector, from the LCP breakdown insight's node item. */
function elementoLcp(detalles: unknown): string {
  const items = (detalles as { items?: { type?: string; selector?: string }[] } | undefined)?.items ?? [];
  return items.find((i) => i.type === 'node')?.selector ?? '?';
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const segundos = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Makes sure both lists have a full first page with thumbnails, measures them and prints the figures. */
export async function benchListas(baseUrl: string, admin: Session, out: NodeJS.WritableStream = process.stdout): Promise<MedidaLista[]> {
  out.write(`Lists with thumbnails: uploading up to ${ITEMS} manuals and materials (public/instructivo.pdf)…\n`);
  await poblar(apiClient(baseUrl, admin.access));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const medidas: MedidaLista[] = [];
  try {
    for (const ruta of LISTAS) {
      const url = new URL(ruta, baseUrl).toString();
      out.write(`Measuring ${ruta} (network log, then Lighthouse mobile)…\n`);
      const red = {
        escritorio: await transferencia(browser, url, admin.cookie, 'escritorio'),
        movil: await transferencia(browser, url, admin.cookie, 'movil'),
      };
      medidas.push({ ruta, red, lighthouse: await faro(url, admin.cookie) });
    }
  } finally {
    await browser.close();
  }
  const filas = medidas.flatMap((m) => {
    const fila = (vista: string, t: { alCargar: Transferencia; alBajar: Transferencia }) => [
      m.ruta,
      vista,
      kB(t.alCargar.bytes),
      `${t.alCargar.imagenes} (${kB(t.alCargar.bytesImagenes)})`,
      kB(t.alBajar.bytes),
      `${t.alBajar.imagenes} (${kB(t.alBajar.bytesImagenes)})`,
    ];
    return [fila('desktop 1280x800', m.red.escritorio), fila('phone 412x823 @1.75', m.red.movil)];
  });
  const red = formatTable(
    ['list (first visit, empty cache)', 'window', 'moved on load', 'images on load', 'moved after scrolling', 'images after scrolling'],
    filas,
    ['left', 'left', 'right', 'right', 'right', 'right'],
  );
  const faros = formatTable(
    ['list', `Lighthouse mobile LCP (median of ${LIGHTHOUSE_RUNS})`, 'runs', 'CLS', 'total byte weight', 'performance', 'LCP element'],
    medidas.map((m) => [
      m.ruta,
      segundos(m.lighthouse.lcpMs),
      (m.lighthouse.lcpsMs ?? []).map(segundos).join(', '),
      m.lighthouse.cls.toFixed(3),
      kB(m.lighthouse.bytes),
      String(m.lighthouse.puntaje),
      m.lighthouse.elementoLcp.replace(/^main#contenido > /, ''),
    ]),
    ['left', 'right', 'left', 'right', 'right', 'right', 'left'],
  );
  out.write(
    `\n${red}\n\n${faros}\n\nTargets (issue 15): under ${kB(TARGET_BYTES)} moved on a first visit, LCP ≤ ${TARGET_LCP_MS / 1000} s.\n`,
  );
  return medidas;
}

if (import.meta.main) {
  requireBuild();
  withServer('ed-bench-listas-', async (server) => {
    await benchListas(server.url, await signIn(server.url, ADMIN));
  }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`\nbench-listas: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
