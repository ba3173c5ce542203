/**
 * Lighthouse (its node API) on Debian's Chromium, as `npm test` runs it (issue 15): one browser
 * for every page, driven by playwright-core for the session cookies and by Lighthouse through the
 * browser's debugging port. Lighthouse opens its tab in the browser's default context, the one a
 * persistent context is, so the pages it audits carry the cookies the context was signed in with
 * (Lighthouse resets an origin's caches and service workers, never its cookies).
 *
 * Mobile defaults: a Moto G Power screen and simulated Slow 4G; the CPU slowed down to the same
 * mid-tier phone whatever the host (auditarCalibrado, decision 0036); only the performance and
 * accessibility categories, which keep a run near 10 s a page on two cores, and SEO on the public
 * pages that search engines may index (issue 34; every other page says noindex).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './browser.ts';
import { freePort } from './server.ts';

/** What issue 15 asks of every page. */
export const UMBRALES = {
  /** Lighthouse's performance score, 0-100. */
  rendimiento: 95,
  lcpMs: 2000,
  tbtMs: 200,
  cls: 0.02,
  /** Lighthouse's accessibility score, 0-100. */
  accesibilidad: 100,
  /** Lighthouse's SEO score, 0-100, on the public pages (issue 34). */
  seo: 100,
} as const;

export interface Cifras {
  rendimiento: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  accesibilidad: number;
  /** The accessibility audits that failed, by id: what to fix when the score is under 100. */
  fallasAccesibilidad: string[];
  /** Lighthouse's SEO score, when the page was audited for it (`auditar(url, { seo: true })`). */
  seo: number | null;
  /** The SEO audits that failed, by id. */
  fallasSeo: string[];
  /** Lighthouse's own warnings about the run (a page that redirected, a timed-out reset). */
  avisos: string[];
  /**
   * Lighthouse's measure of the machine's speed at the time of the run (higher is faster): a run
   * with an odd TBT and a low index met a machine busy with something else.
   */
  indiceCpu: number;
  /** The CPU slowdown the simulation applied for that index (auditarCalibrado). */
  ralentizacionCpu: number;
  /** The element of the largest contentful paint, as Lighthouse names it: what to look at when LCP is slow. */
  elementoLcp: string;
  /** The longest main-thread tasks as observed (script and milliseconds): what to look at when TBT is high. */
  tareasLargas: string[];
}

export interface NavegadorLighthouse {
  context: BrowserContext;
  auditar(url: string, opciones?: { seo?: boolean }): Promise<Cifras>;
  cerrar(): Promise<void>;
}

export async function navegadorLighthouse(): Promise<NavegadorLighthouse> {
  const perfil = mkdtempSync(path.join(os.tmpdir(), 'ed-lighthouse-'));
  const puerto = await freePort();
  const context = await chromium.launchPersistentContext(perfil, {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${puerto}`],
  });
  return {
    context,
    async auditar(url, { seo = false } = {}) {
      const resultado = await auditarCalibrado(url, puerto, path.join(perfil, 'corrida'), seo);
      if (!resultado) throw new Error(`Lighthouse no devolvió resultados para ${url}`);
      const { lhr } = resultado;
      if (lhr.runtimeError) throw new Error(`Lighthouse falló en ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const valor = (id: string) => {
        const v = lhr.audits[id]?.numericValue;
        if (v === undefined) throw new Error(`Lighthouse no midió ${id} en ${url}: ${lhr.audits[id]?.errorMessage ?? 'sin valor'}`);
        return v;
      };
      const puntaje = (id: 'performance' | 'accessibility' | 'seo') => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const fallas = (id: 'accessibility' | 'seo') =>
        (lhr.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => ref.id);
      return {
        rendimiento: puntaje('performance'),
        lcpMs: Math.round(valor('largest-contentful-paint')),
        tbtMs: Math.round(valor('total-blocking-time')),
        cls: Number(valor('cumulative-layout-shift').toFixed(3)),
        accesibilidad: puntaje('accessibility'),
        fallasAccesibilidad: fallas('accessibility'),
        seo: seo ? puntaje('seo') : null,
        fallasSeo: seo ? fallas('seo') : [],
        avisos: lhr.runWarnings.map(String),
        indiceCpu: Math.round(lhr.environment.benchmarkIndex),
        ralentizacionCpu: lhr.configSettings.throttling.cpuSlowdownMultiplier,
        elementoLcp: elementoLcp(lhr.audits['lcp-breakdown-insight']?.details),
        tareasLargas: tareasLargas(lhr.audits['long-tasks']?.details),
      };
    },
    async cerrar() {
      await context.close();
      rmSync(perfil, { recursive: true, force: true });
    },
  };
}

/**
 * Lighthouse's CPU benchmark score of the mid-tier phone the simulation stands for: Chrome
 * DevTools' CPU calibration takes 1000 for a Pixel 5-class device (CalibrationController.ts,
 * `midScore`). Lighthouse's fixed 4x slowdown reaches it only from a host scoring about 4000.
 */
const INDICE_MOVIL_MEDIO = 1000;

/**
 * One Lighthouse run whose simulated CPU is the same phone on any host (decision 0036): the page
 * is gathered unthrottled as usual, then audited with the CPU slowdown that takes the host's
 * measured benchmark index, taken at the start of this very run, down to INDICE_MOVIL_MEDIO
 * (never below 1x). A fixed 4x made a host 2.5 times slower than CI simulate a phone 2.5 times
 * slower too, and failed pages there that pass on CI; the network stays Slow 4G either way.
 *
 * Lighthouse refuses to audit with settings other than the gathered ones, and the slowdown is
 * used only by the audit's simulation, so the saved artifacts get the audit's slowdown too.
 */
async function auditarCalibrado(url: string, puerto: number, carpeta: string, seo: boolean) {
  const opciones = {
    port: puerto,
    output: 'json' as const,
    logLevel: 'error' as const,
    onlyCategories: ['performance', 'accessibility', ...(seo ? ['seo'] : [])],
    // A picture of the whole page is for people reading a report; nobody reads these.
    disableFullPageScreenshot: true,
  };
  rmSync(carpeta, { recursive: true, force: true });
  await lighthouse(url, { ...opciones, gatherMode: carpeta });
  const archivo = path.join(carpeta, 'artifacts.json');
  const artefactos = JSON.parse(readFileSync(archivo, 'utf8'));
  const throttling = {
    ...artefactos.settings.throttling,
    cpuSlowdownMultiplier: Math.max(1, artefactos.BenchmarkIndex / INDICE_MOVIL_MEDIO),
  };
  artefactos.settings.throttling = throttling;
  writeFileSync(archivo, JSON.stringify(artefactos));
  try {
    return await lighthouse(undefined, { ...opciones, auditMode: carpeta, throttling });
  } finally {
    rmSync(carpeta, { recursive: true, force: true });
  }
}

/**
 * The median of each figure over several runs of one page. Lighthouse's figures on a shared
 * two-core machine vary from run to run (a 150 ms pause of the machine becomes 600 ms of TBT under
 * the simulated 4x CPU); Lighthouse's own advice is to judge the median of several runs.
 */
export function mediana(corridas: Cifras[]): Cifras {
  const [primera] = corridas;
  if (!primera) throw new Error('sin corridas');
  const med = (f: (c: Cifras) => number) => {
    const v = corridas.map(f).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)] ?? 0;
  };
  return {
    rendimiento: med((c) => c.rendimiento),
    lcpMs: med((c) => c.lcpMs),
    tbtMs: med((c) => c.tbtMs),
    cls: med((c) => c.cls),
    accesibilidad: med((c) => c.accesibilidad),
    fallasAccesibilidad: [...new Set(corridas.flatMap((c) => c.fallasAccesibilidad))],
    seo: primera.seo === null ? null : med((c) => c.seo ?? 0),
    fallasSeo: [...new Set(corridas.flatMap((c) => c.fallasSeo))],
    avisos: [...new Set(corridas.flatMap((c) => c.avisos))],
    indiceCpu: med((c) => c.indiceCpu),
    ralentizacionCpu: med((c) => c.ralentizacionCpu),
    elementoLcp: [...new Set(corridas.map((c) => c.elementoLcp))].join(' / '),
    tareasLargas: corridas.flatMap((c) => c.tareasLargas).slice(0, TAREAS_LARGAS),
  };
}

/** Each figure past its threshold, as a line that names the page and the figure. */
export function incumplimientos(pagina: string, c: Cifras): string[] {
  const fallas: string[] = [];
  if (c.rendimiento < UMBRALES.rendimiento) fallas.push(`${pagina}: rendimiento ${c.rendimiento} < ${UMBRALES.rendimiento}`);
  if (c.lcpMs > UMBRALES.lcpMs) fallas.push(`${pagina}: LCP ${c.lcpMs} ms > ${UMBRALES.lcpMs} ms (${c.elementoLcp})`);
  if (c.tbtMs > UMBRALES.tbtMs) fallas.push(`${pagina}: TBT ${c.tbtMs} ms > ${UMBRALES.tbtMs} ms (${c.tareasLargas.join(', ')})`);
  if (c.cls > UMBRALES.cls) fallas.push(`${pagina}: CLS ${c.cls} > ${UMBRALES.cls}`);
  if (c.accesibilidad < UMBRALES.accesibilidad)
    fallas.push(`${pagina}: accesibilidad ${c.accesibilidad} < ${UMBRALES.accesibilidad} (${c.fallasAccesibilidad.join(', ')})`);
  if (c.seo !== null && c.seo < UMBRALES.seo) fallas.push(`${pagina}: SEO ${c.seo} < ${UMBRALES.seo} (${c.fallasSeo.join(', ')})`);
  return fallas;
}

/**
 * The LCP element's selector, from the details of Lighthouse 13's LCP breakdown insight: a list
 * of the phases' table and the element's node.
 */
function elementoLcp(detalles: unknown): string {
  const items = (detalles as { items?: { type?: string; selector?: string }[] } | undefined)?.items ?? [];
  return items.find((item) => item.type === 'node')?.selector ?? 'elemento desconocido';
}

/** How many of a run's long tasks a failure names. */
const TAREAS_LARGAS = 4;

/** The longest tasks of Lighthouse's long-tasks audit (observed, not simulated), longest first. */
function tareasLargas(detalles: unknown): string[] {
  const items = (detalles as { items?: { url?: string; duration?: number }[] } | undefined)?.items ?? [];
  return [...items]
    .sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0))
    .slice(0, TAREAS_LARGAS)
    .map((item) => `${(item.url ?? '').replace(/^https?:\/\/[^/]+/, '') || 'sin script'} ${Math.round(item.duration ?? 0)} ms`);
}

/** One line of figures, for the test's output. */
export function resumen(pagina: string, c: Cifras): string {
  return `${pagina.padEnd(28)} rendimiento ${String(c.rendimiento).padStart(3)}  LCP ${String(c.lcpMs).padStart(5)} ms  TBT ${String(c.tbtMs).padStart(4)} ms  CLS ${c.cls.toFixed(3)}  accesibilidad ${c.accesibilidad}${c.seo === null ? '' : `  SEO ${c.seo}`}  índice de CPU ${c.indiceCpu} (CPU ${c.ralentizacionCpu.toFixed(1)}x)  LCP en ${c.elementoLcp}`;
}
