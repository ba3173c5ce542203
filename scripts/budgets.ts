/**
 * `npm run budgets` (after `npm run build`): holds every page to the size budgets of docs/DESIGN.md.
 *
 * Starts the built server on a fresh data directory, signs in as the admin, makes the sample
 * content the detail pages need (scripts/lib/muestras.ts; the run fails when it cannot) and
 * requests every page of src/pages with the session cookies, as a signed-in browser would. For
 * each page it measures, in gzip bytes:
 * - HTML: the body of the first response (inline <style> and <script> included: they travel in it);
 * - CSS: every <link rel=stylesheet> (and what it @imports), each file gzipped on its own;
 * - JS: every <script src>, <link rel=modulepreload>, island component and renderer, and everything
 *   those import statically, each file once, plus the inline scripts (the astro-island runtime).
 *   Inline scripts are therefore counted in HTML and in JS: they are bytes of the first response
 *   and code the browser must run;
 * - lazy: the chunks reached only through a dynamic import() (reported, held to no budget).
 *
 * Sizes are of the bytes fetched over HTTP (decoded, as the browser gets them), gzipped again here
 * with zlib level 9, so prerendered and on-request pages are measured the same way.
 */
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { rutaPublica } from '../src/lib/explorar.ts';
import { apiClient, type Session, signIn } from '../tests/support/client.ts';
import { ADMIN, adminAceptaPrivacidad, root } from '../tests/support/server.ts';
import { listFiles, requireBuild, withServer } from './lib/api.ts';
import {
  BUDGETS,
  type BudgetVerdict,
  budgetVerdict,
  encodeRoute,
  extractPageAssets,
  findCssImports,
  findImports,
  hasPlayer,
  kb,
  type PageRoute,
  PLAYER_BUDGETS,
  pageRoute,
  playerExcess,
  resolveReference,
  statusProblem,
  walkModuleGraph,
} from './lib/budgets-lib.ts';
import { crearMuestras, MATERIAL_DE_MUESTRA, type Muestras, publicarMaterial } from './lib/muestras.ts';
import { formatTable } from './lib/table.ts';

/**
 * Paths to request for dynamic routes, keyed by route as the file tree writes it, filled in with
 * the samples of scripts/lib/muestras.ts. A key matches whatever its parameters are called
 * ('/perfil/[id]/' also matches '/perfil/[usuario]/'). A dynamic route with no key here is
 * reported as skipped.
 */
const SAMPLES: Record<string, (m: Muestras) => string> = {
  '/perfil/[id]/': (m) => `/perfil/${m.adminId}/`,
  '/perfil/[id]/contactar/': (m) => `/perfil/${m.teacherId}/contactar/`,
  '/comunidad/[id]/contactar/': (m) => `/comunidad/${m.teacherId}/contactar/`,
  '/activar-cuenta/[token]/': () => '/activar-cuenta/token-de-muestra/',
  '/cambiar-contraseña/[token]/': () => '/cambiar-contraseña/token-de-muestra/',
  '/foro/categorias/[id]/': (m) => `/foro/categorias/${m.foro.categoriaId}/`,
  '/foro/categorias/editar/[id]/': (m) => `/foro/categorias/editar/${m.foro.categoriaId}/`,
  '/foro/categorias/[idCategoria]/conversaciones/nueva/': (m) => `/foro/categorias/${m.foro.categoriaId}/conversaciones/nueva/`,
  '/foro/categorias/[idCategoria]/conversacion/[id]/': (m) =>
    `/foro/categorias/${m.foro.categoriaId}/conversacion/${m.foro.conversacionId}/`,
  '/manuales/[id]/': (m) => `/manuales/${m.manualId}/`,
  '/manuales/editar/[id]/': (m) => `/manuales/editar/${m.manualId}/`,
  '/biblioteca-docente/[id]/': (m) => `/biblioteca-docente/${m.material.id}/`,
  '/biblioteca-docente/editar/[id]/': (m) => `/biblioteca-docente/editar/${m.material.id}/`,
  '/biblioteca-docente/oa/[codigo]/': (m) => `/biblioteca-docente/oa/${m.material.oa}/`,
  '/capsulas/[id]/': (m) => `/capsulas/${m.capsulaId}/`,
  '/capsulas/editar/[id]/': (m) => `/capsulas/editar/${m.capsulaId}/`,
  // The public pages (issue 34): the sample material is made public before the pages are measured.
  '/explorar/materiales/[id]/[...slug]/': (m) => rutaPublica('material', m.material.id, MATERIAL_DE_MUESTRA),
  '/explorar/oa/[codigo]/': (m) => `/explorar/oa/${m.material.oa}/`,
  // A static page that needs its query: what to add to a collection (issue 35).
  '/colecciones/agregar/': (m) => `/colecciones/agregar/?tipo=manual&id=${m.manualId}`,
};

/** The chunks the capsule player's loader imports at once (src/islands/capsulas/codigo-reproductor.ts, controles-reproductor.ts). */
const CHUNK_REPRODUCTOR = /\/(codigo|controles)-reproductor\.[\w-]+\.js$/;

const ACEPTAR_PRIVACIDAD = '/privacidad/aceptar/';

/** Served by the 404 page for a signed-in user. */
const MISSING_PATH = '/pagina-que-no-existe-presupuestos/';

function gzipBytes(data: string | Buffer): number {
  return gzipSync(data, { level: 9 }).length;
}

/** As scripts/precompress.ts writes the .br files the server sends. */
function brotliBytes(data: string | Buffer): number {
  return brotliCompressSync(data, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

interface Asset {
  text: string;
  gzip: number;
  br: number;
}

/** Every asset fetched once per run (by path), whatever the number of pages that load it. */
function assetLoader(baseUrl: string, cookie: string) {
  const cache = new Map<string, Promise<Asset | null>>();
  return (assetPath: string): Promise<Asset | null> => {
    let pending = cache.get(assetPath);
    if (!pending) {
      pending = fetch(baseUrl + assetPath, { headers: { cookie } }).then(async (res) => {
        if (!res.ok) return null;
        const bytes = Buffer.from(await res.arrayBuffer());
        return { text: bytes.toString('utf8'), gzip: gzipBytes(bytes), br: brotliBytes(bytes) };
      });
      cache.set(assetPath, pending);
    }
    return pending;
  };
}

interface Measured {
  label: string;
  status: string;
  html?: number;
  css?: number;
  js?: number;
  lazy?: number;
  islands?: number;
  /** Pages with the capsule player: brotli bytes of the player's chunks and of every other script. */
  player?: { player: number; rest: number };
  problems: string[];
  verdict?: BudgetVerdict;
  eagerFiles: [string, number][];
  lazyFiles: [string, number][];
  skipped?: string;
}

async function measurePage(
  baseUrl: string,
  label: string,
  pagePath: string,
  expected: number,
  session: Session,
  load: ReturnType<typeof assetLoader>,
): Promise<Measured> {
  const res = await fetch(baseUrl + pagePath, { redirect: 'manual', headers: { cookie: session.cookie } });
  const body = Buffer.from(await res.arrayBuffer());
  const problem = statusProblem(res.status, expected, res.headers.get('location'));
  const row: Measured = { label, status: String(res.status), problems: [], eagerFiles: [], lazyFiles: [] };
  if (problem) {
    row.problems.push(problem);
    return row;
  }
  const html = body.toString('utf8');
  const assets = extractPageAssets(html);

  const css = new Map<string, number>();
  const cssQueue = assets.stylesheets.map((href) => resolveReference(href, pagePath)).filter((p) => p !== null);
  for (let p = cssQueue.shift(); p !== undefined; p = cssQueue.shift()) {
    if (css.has(p)) continue;
    const asset = await load(p);
    if (!asset) {
      row.problems.push(`missing stylesheet ${p}`);
      css.set(p, 0);
      continue;
    }
    css.set(p, asset.gzip);
    for (const ref of findCssImports(asset.text)) {
      const target = resolveReference(ref, p);
      if (target) cssQueue.push(target);
    }
  }

  const eagerRoots = assets.scripts.map((src) => resolveReference(src, pagePath)).filter((p) => p !== null);
  const lazyRoots: string[] = [];
  for (const script of assets.inlineScripts) {
    const imports = findImports(script.code);
    if (script.module) for (const spec of imports.static) eagerRoots.push(resolveReference(spec, pagePath) ?? '');
    for (const spec of imports.dynamic) lazyRoots.push(resolveReference(spec, pagePath) ?? '');
  }
  const graph = await walkModuleGraph(
    { eager: eagerRoots.filter(Boolean), lazy: lazyRoots.filter(Boolean) },
    async (p) => (await load(p))?.text ?? null,
  );
  for (const p of graph.missing) row.problems.push(`missing script ${p}`);
  const inlineJs = assets.inlineScripts.map((s) => s.code).join('\n');
  // The loader has every file of the graph already (and its size): this only reads them back.
  const sized = (paths: string[]) => Promise.all(paths.map(async (p): Promise<[string, number]> => [p, (await load(p))?.gzip ?? 0]));

  row.eagerFiles = await sized(graph.eager);
  if (inlineJs) row.eagerFiles.push(['(inline scripts)', gzipBytes(inlineJs)]);
  row.lazyFiles = await sized(graph.lazy);
  const sum = (files: Iterable<[string, number]>) => [...files].reduce((total, [, size]) => total + size, 0);

  row.html = gzipBytes(body);
  row.css = sum(css);
  row.js = sum(row.eagerFiles);
  row.lazy = sum(row.lazyFiles);
  row.islands = assets.islands;
  row.verdict = budgetVerdict({ html: row.html, css: row.css, js: row.js, lazy: row.lazy, islands: assets.islands > 0 });
  if (hasPlayer(html)) {
    // The player's loader imports its chunks without waiting for a press, so those chunks and what they import are
    // loaded before any click: the player's budget holds them; the other budget holds the rest.
    // Lazy chunks that wait for a press (the report dialog, issue 17) load after one, not counted here.
    const brotli = async (paths: string[]) =>
      (await Promise.all(paths.map(async (p) => (await load(p))?.br ?? 0))).reduce((a, b) => a + b, 0);
    const desdeReproductor = await walkModuleGraph(
      { eager: [], lazy: graph.lazy.filter((p) => CHUNK_REPRODUCTOR.test(p)) },
      async (p) => (await load(p))?.text ?? null,
    );
    const reproductor = desdeReproductor.lazy.filter((p) => !graph.eager.includes(p));
    row.player = { player: await brotli(reproductor), rest: (await brotli(graph.eager)) + (inlineJs ? brotliBytes(inlineJs) : 0) };
    if (reproductor.length === 0) row.problems.push('the capsule player loaded no chunk of its own');
    const over = playerExcess(row.player);
    if (over.length > 0) row.verdict = { ...row.verdict, ok: false, over: [...row.verdict.over, ...over] };
  }
  return row;
}

function sampleFor(page: PageRoute, muestras: Muestras): string | null {
  const general = (route: string) => route.replace(/\[[^\]]+\]/g, '[]');
  const key = page.route in SAMPLES ? page.route : Object.keys(SAMPLES).find((k) => general(k) === general(page.route));
  const sample = key ? SAMPLES[key] : undefined;
  return sample ? sample(muestras) : null;
}

function discoverPages(): PageRoute[] {
  const pagesDir = path.join(root, 'src/pages');
  return listFiles(pagesDir)
    .map((file) => pageRoute(path.relative(pagesDir, file)))
    .filter((p) => p !== null)
    .sort((a, b) => a.route.localeCompare(b.route, 'es'));
}

function verdictText(row: Measured): string {
  if (row.skipped) return row.skipped;
  if (row.problems.length > 0) return `FAIL: ${row.problems.join('; ')}`;
  if (!row.verdict || row.verdict.ok) return 'ok';
  return `OVER: ${row.verdict.over.map((o) => `${o.what} ${kb(o.size)} > ${kb(o.budget)}`).join(', ')}`;
}

function report(rows: Measured[]): boolean {
  const cell = (n: number | undefined) => (n === undefined ? '-' : kb(n));
  const table = formatTable(
    ['page', 'status', 'HTML kB', 'CSS kB', 'JS kB', 'lazy kB', 'island?', 'verdict'],
    rows.map((r) => [
      r.label,
      r.status,
      cell(r.html),
      cell(r.css),
      cell(r.js),
      cell(r.lazy),
      r.islands === undefined ? '-' : r.islands > 0 ? `yes (${r.islands})` : 'no',
      verdictText(r),
    ]),
    ['left', 'right', 'right', 'right', 'right', 'right', 'left', 'left'],
  );
  process.stdout.write(`\n${table}\n`);

  const failing = rows.filter((r) => !r.skipped && (r.problems.length > 0 || (r.verdict && !r.verdict.ok)));
  for (const r of failing.filter((f) => f.verdict && !f.verdict.ok && f.verdict.over.some((o) => o.what === 'JS'))) {
    const top = [...r.eagerFiles].sort((a, b) => b[1] - a[1]).slice(0, 6);
    process.stdout.write(`\nLargest eager JS on ${r.label}:\n${top.map(([f, s]) => `  ${kb(s).padStart(6)} kB  ${f}`).join('\n')}\n`);
  }

  const lazy = new Map<string, { size: number; pages: number }>();
  for (const r of rows)
    for (const [f, size] of r.lazyFiles) {
      const entry = lazy.get(f) ?? { size, pages: 0 };
      entry.pages++;
      lazy.set(f, entry);
    }
  if (lazy.size > 0) {
    process.stdout.write('\nLazy chunks (dynamic import(), loaded when needed, not held to the page budget):\n');
    for (const [f, { size, pages }] of [...lazy].sort((a, b) => b[1].size - a[1].size)) {
      process.stdout.write(`  ${kb(size).padStart(6)} kB  ${f}  (reachable from ${pages} page${pages === 1 ? '' : 's'})\n`);
    }
  }

  for (const r of rows.filter((row) => row.player)) {
    const { player, rest } = r.player ?? { player: 0, rest: 0 };
    process.stdout.write(
      `\nCapsule player on ${r.label} (brotli, before any click): player ${kb(player)} kB (budget ${kb(PLAYER_BUDGETS.player)}), ` +
        `other JS ${kb(rest)} kB (budget ${kb(PLAYER_BUDGETS.rest)}).\n`,
    );
  }

  const measured = rows.filter((r) => !r.skipped);
  const skipped = rows.length - measured.length;
  process.stdout.write(
    `\n${measured.length} pages measured, ${measured.length - failing.length} within budget, ${failing.length} failing, ${skipped} skipped. ` +
      `Budgets (gzip): HTML ${kb(BUDGETS.html)} kB, CSS ${kb(BUDGETS.css)} kB, ` +
      `JS ${kb(BUDGETS.jsWithoutIslands)} kB without islands / ${kb(BUDGETS.jsWithIslands)} kB with islands.\n` +
      'Sizes: bytes fetched over HTTP, gzipped with zlib level 9, each file once per page; kB = 1024 bytes; ' +
      'inline scripts count in HTML and in JS.\n',
  );
  if (rows.some((r) => r.problems.some((p) => p.includes('session was not accepted')))) {
    process.stderr.write(
      `\nProtected pages redirected to /ingresar/: signing in as ${ADMIN.email} did not give a working session, so those pages were not measured.\n`,
    );
  }
  return failing.length === 0;
}

async function main(): Promise<number> {
  requireBuild();
  const pages = discoverPages();
  if (pages.length === 0) {
    process.stderr.write('No .astro pages found under src/pages.\n');
    return 1;
  }
  process.stdout.write(`Starting the built server on a fresh data directory (${pages.length} page files found)…\n`);
  return withServer(
    'ed-budgets-',
    async (server) => {
      const session = await signIn(server.url, ADMIN);
      const muestras = await crearMuestras(server.url, server.dataDir, session);
      await publicarMaterial(apiClient(server.url, session.access), muestras.material.id);
      const load = assetLoader(server.url, session.cookie);

      const rows: Measured[] = [];
      // The acceptance page is what the admin sees before accepting the privacy notice (issue 31);
      // it sends anyone who accepted on. It is measured first, then the admin accepts.
      const primero = (p: PageRoute) => (p.route === ACEPTAR_PRIVACIDAD ? 0 : 1);
      for (const page of [...pages].sort((a, b) => primero(a) - primero(b))) {
        const skip = (why: string) =>
          rows.push({ label: page.route, status: '-', problems: [], eagerFiles: [], lazyFiles: [], skipped: why });
        if (page.errorPage) {
          if (page.route !== '/404/') skip('skipped (error page)');
          else rows.push(await measurePage(server.url, `404 (${MISSING_PATH})`, MISSING_PATH, 404, session, load));
          continue;
        }
        const sample = page.dynamic || page.route in SAMPLES ? sampleFor(page, muestras) : page.route;
        if (sample === null) {
          skip('skipped (no sample path)');
          continue;
        }
        const label = sample === page.route ? page.route : `${page.route} → ${sample}`;
        rows.push(await measurePage(server.url, label, encodeRoute(sample), 200, session, load));
        if (page.route === ACEPTAR_PRIVACIDAD) await adminAceptaPrivacidad(server.url);
      }
      return report(rows) ? 0 : 1;
    },
    {},
    { aceptarPrivacidad: false },
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`\nbudgets: ${message}\n`);
    process.exit(1);
  },
);
