/**
 * `npm run budgets` (after `npm run build`): holds every page to the size budgets of DESIGN.md.
 *
 * Starts the built server on a fresh data directory, signs in as the admin and requests every
 * page of src/pages with the session cookies, as a signed-in browser would. For each page it
 * measures, in gzip bytes:
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
import { gzipSync } from 'node:zlib';
import { ADMIN, root } from '../tests/support/server.ts';
import { apiClient, listFiles, requireBuild, type Session, signIn, withServer } from './lib/api.ts';
import {
  type BudgetVerdict,
  budgetVerdict,
  encodeRoute,
  extractPageAssets,
  findCssImports,
  findImports,
  kb,
  type PageRoute,
  pageRoute,
  resolveReference,
  statusProblem,
  walkModuleGraph,
} from './lib/budgets-lib.ts';
import { activarDocente, crearMuestras, type Muestras } from './lib/muestras.ts';
import { formatTable } from './lib/table.ts';

interface SampleContext {
  adminId: number;
  /** A teacher created (and activated) for the run, or null when that failed. */
  teacherId: number | null;
  /** A forum category with one conversation, created for the run, or null when that failed. */
  foro: { categoriaId: number; conversacionId: number } | null;
  /** A manual, a material and a processed capsule (scripts/lib/muestras.ts). */
  contenido: Muestras;
}

/**
 * Paths to request for dynamic routes, keyed by route as the file tree writes it. A key matches
 * whatever its parameters are called ('/perfil/[id]/' also matches '/perfil/[usuario]/'). A route
 * whose sample could not be made is reported as skipped.
 */
const SAMPLES: Record<string, (ctx: SampleContext) => string | null> = {
  '/perfil/[id]/': (c) => `/perfil/${c.adminId}/`,
  '/perfil/[id]/contactar/': (c) => (c.teacherId === null ? null : `/perfil/${c.teacherId}/contactar/`),
  '/comunidad/[id]/contactar/': (c) => (c.teacherId === null ? null : `/comunidad/${c.teacherId}/contactar/`),
  '/activar-cuenta/[token]/': () => '/activar-cuenta/token-de-muestra/',
  '/cambiar-contraseña/[token]/': () => '/cambiar-contraseña/token-de-muestra/',
  '/foro/categorias/[id]/': (c) => (c.foro ? `/foro/categorias/${c.foro.categoriaId}/` : null),
  '/foro/categorias/editar/[id]/': (c) => (c.foro ? `/foro/categorias/editar/${c.foro.categoriaId}/` : null),
  '/foro/categorias/[idCategoria]/conversaciones/nueva/': (c) =>
    c.foro ? `/foro/categorias/${c.foro.categoriaId}/conversaciones/nueva/` : null,
  '/foro/categorias/[idCategoria]/conversacion/[id]/': (c) =>
    c.foro ? `/foro/categorias/${c.foro.categoriaId}/conversacion/${c.foro.conversacionId}/` : null,
  '/manuales/[id]/': ({ contenido: { manualId } }) => (manualId === null ? null : `/manuales/${manualId}/`),
  '/manuales/editar/[id]/': ({ contenido: { manualId } }) => (manualId === null ? null : `/manuales/editar/${manualId}/`),
  '/biblioteca-docente/[id]/': ({ contenido: { material } }) => (material ? `/biblioteca-docente/${material.id}/` : null),
  '/biblioteca-docente/editar/[id]/': ({ contenido: { material } }) => (material ? `/biblioteca-docente/editar/${material.id}/` : null),
  '/biblioteca-docente/oa/[codigo]/': ({ contenido: { material } }) => (material ? `/biblioteca-docente/oa/${material.oa}/` : null),
  '/capsulas/[id]/': ({ contenido: { capsulaId } }) => (capsulaId === null ? null : `/capsulas/${capsulaId}/`),
  '/capsulas/editar/[id]/': ({ contenido: { capsulaId } }) => (capsulaId === null ? null : `/capsulas/editar/${capsulaId}/`),
};

/** Served by the 404 page for a signed-in user. */
const MISSING_PATH = '/pagina-que-no-existe-presupuestos/';

const gzipCache = new Map<string, number>();
function gzipBytes(data: string | Buffer): number {
  return gzipSync(data, { level: 9 }).length;
}

interface Asset {
  text: string;
  gzip: number;
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
        return { text: bytes.toString('utf8'), gzip: gzipBytes(bytes) };
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
  const graph = await walkModuleGraph({ eager: eagerRoots.filter(Boolean), lazy: lazyRoots.filter(Boolean) }, async (p) => {
    const asset = await load(p);
    if (asset) gzipCache.set(p, asset.gzip);
    return asset?.text ?? null;
  });
  for (const p of graph.missing) row.problems.push(`missing script ${p}`);
  const inlineJs = assets.inlineScripts.map((s) => s.code).join('\n');

  row.eagerFiles = graph.eager.map((p) => [p, gzipCache.get(p) ?? 0]);
  if (inlineJs) row.eagerFiles.push(['(inline scripts)', gzipBytes(inlineJs)]);
  row.lazyFiles = graph.lazy.map((p) => [p, gzipCache.get(p) ?? 0]);
  const sum = (files: Iterable<[string, number]>) => [...files].reduce((total, [, size]) => total + size, 0);

  row.html = gzipBytes(body);
  row.css = sum(css);
  row.js = sum(row.eagerFiles);
  row.lazy = sum(row.lazyFiles);
  row.islands = assets.islands;
  row.verdict = budgetVerdict({ html: row.html, css: row.css, js: row.js, lazy: row.lazy, islands: assets.islands > 0 });
  return row;
}

function sampleFor(page: PageRoute, ctx: SampleContext): string | null {
  const general = (route: string) => route.replace(/\[[^\]]+\]/g, '[]');
  const key = page.route in SAMPLES ? page.route : Object.keys(SAMPLES).find((k) => general(k) === general(page.route));
  const sample = key ? SAMPLES[key] : undefined;
  return sample ? sample(ctx) : null;
}

function discoverPages(): PageRoute[] {
  const pagesDir = path.join(root, 'src/pages');
  return listFiles(pagesDir)
    .map((file) => pageRoute(path.relative(pagesDir, file)))
    .filter((p) => p !== null)
    .sort((a, b) => a.route.localeCompare(b.route, 'es'));
}

const SAMPLE_TEACHER = 'docente.presupuestos@example.cl';

async function createTeacher(baseUrl: string, dataDir: string, session: Session): Promise<number | null> {
  const { data } = await apiClient(baseUrl, session.access).POST('/api/admin/usuarios/', {
    body: { email: SAMPLE_TEACHER, nombres: 'Docente', apellidos: 'De Muestra', admin: false },
  });
  if (!data) return null;
  return (await activarDocente(baseUrl, dataDir, SAMPLE_TEACHER)) ? data.usuario.id : null;
}

/** A 1x1 PNG: the server crops any category image to 640x360. */
const SAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A forum category with a conversation and a comment, as the forum's pages show them. */
async function createForumSample(baseUrl: string, session: Session): Promise<SampleContext['foro']> {
  const client = apiClient(baseUrl, session.access);
  const campos = { nombre: 'Categoría de muestra', descripcion: 'Para medir las páginas del foro', activa: true };
  const form = new FormData();
  for (const [k, v] of Object.entries(campos)) form.set(k, String(v));
  form.set('archivo', new Blob([Buffer.from(SAMPLE_PNG, 'base64')], { type: 'image/png' }), 'muestra.png');
  const { data: categoria } = await client.POST('/api/foro/categorias/', {
    body: { ...campos, archivo: 'muestra.png' },
    bodySerializer: () => form,
  });
  if (!categoria) return null;
  const { data: conversacion } = await client.POST('/api/foro/conversacion/nueva/', {
    body: {
      id_usuario: session.usuarioId,
      id_categoria: categoria.id,
      titulo: 'Conversación de muestra',
      contenido: 'Un párrafo con **negrita**, una lista:\n\n- uno\n- dos\n\ny un [enlace](https://example.cl).',
    },
  });
  if (!conversacion) return null;
  await client.POST('/api/foro/conversacion/comentar/', {
    body: { id_conversacion: conversacion.id, id_categoria: categoria.id, contenido: 'Un comentario de muestra', comentario_padre: null },
  });
  return { categoriaId: categoria.id, conversacionId: conversacion.id };
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

  const measured = rows.filter((r) => !r.skipped);
  const skipped = rows.length - measured.length;
  process.stdout.write(
    `\n${measured.length} pages measured, ${measured.length - failing.length} within budget, ${failing.length} failing, ${skipped} skipped. ` +
      'Budgets (gzip): HTML 14.0 kB, CSS 16.0 kB, JS 5.0 kB without islands / 90.0 kB with islands.\n' +
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
  return withServer('ed-budgets-', async (server) => {
    const session = await signIn(server.url, ADMIN);
    const ctx: SampleContext = {
      adminId: session.usuarioId,
      teacherId: await createTeacher(server.url, server.dataDir, session),
      foro: await createForumSample(server.url, session),
      contenido: await crearMuestras(server.url, session),
    };
    const load = assetLoader(server.url, session.cookie);

    const rows: Measured[] = [];
    for (const page of pages) {
      const skip = (why: string) =>
        rows.push({ label: page.route, status: '-', problems: [], eagerFiles: [], lazyFiles: [], skipped: why });
      if (page.errorPage) {
        if (page.route !== '/404/') skip('skipped (error page)');
        else rows.push(await measurePage(server.url, `404 (${MISSING_PATH})`, MISSING_PATH, 404, session, load));
        continue;
      }
      const sample = page.dynamic ? sampleFor(page, ctx) : page.route;
      if (sample === null) {
        skip('skipped (no sample path)');
        continue;
      }
      const label = sample === page.route ? page.route : `${page.route} → ${sample}`;
      rows.push(await measurePage(server.url, label, encodeRoute(sample), 200, session, load));
    }
    return report(rows) ? 0 : 1;
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`\nbudgets: ${message}\n`);
    process.exit(1);
  },
);
