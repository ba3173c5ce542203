/**
 * The pure parts of `npm run budgets`: which assets a page loads, which JS files those pull in
 * (static imports eagerly, dynamic imports lazily), where a page file is served, and whether a page
 * keeps the budgets of docs/DESIGN.md. No I/O here: the script passes the fetched text in.
 */

export const KB = 1024;

/** docs/DESIGN.md, "Budgets" (gzip bytes per page). */
export const BUDGETS = {
  html: 14 * KB,
  css: 16 * KB,
  jsWithoutIslands: 5 * KB,
  jsWithIslands: 90 * KB,
} as const;

// ── HTML ─────────────────────────────────────────────────────────────────────────────────────────

export interface InlineScript {
  code: string;
  module: boolean;
}

export interface PageAssets {
  /** Stylesheet URLs as written in the page (`<link rel=stylesheet>`, `<link rel=preload as=style>`). */
  stylesheets: string[];
  /** JS URLs the page loads without waiting for anything but hydration (script src, modulepreload, islands). */
  scripts: string[];
  /** Inline scripts that run as JavaScript (the astro-island runtime, small hoisted scripts). JSON data blocks are not here. */
  inlineScripts: InlineScript[];
  /** Total characters inside inline `<style>` elements (they travel, and are counted, in the HTML). */
  inlineStyleChars: number;
  /** Number of `<astro-island>` elements. */
  islands: number;
}

const TAG = /<(script|link|style|astro-island)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTR = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;
const JS_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript', 'application/ecmascript']);

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number.parseInt(dec, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The attributes of one start tag, names lower-cased, values entity-decoded (a bare attribute is ''). */
export function parseAttributes(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of source.matchAll(ATTR)) {
    const name = m[1]?.toLowerCase();
    if (!name || attrs.has(name)) continue;
    attrs.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attrs;
}

function pushOnce(list: string[], value: string | undefined): void {
  if (value && !list.includes(value)) list.push(value);
}

/** What a page's HTML makes the browser load: stylesheets, eager scripts, inline scripts, islands. */
export function extractPageAssets(html: string): PageAssets {
  const source = html.replace(/<!--[\s\S]*?-->/g, '');
  const assets: PageAssets = { stylesheets: [], scripts: [], inlineScripts: [], inlineStyleChars: 0, islands: 0 };
  TAG.lastIndex = 0;
  for (let m = TAG.exec(source); m; m = TAG.exec(source)) {
    const tag = (m[1] ?? '').toLowerCase();
    const attrs = parseAttributes(m[2] ?? '');
    const contentStart = TAG.lastIndex;
    if (tag === 'link') {
      const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
      const as = (attrs.get('as') ?? '').toLowerCase();
      const href = attrs.get('href');
      if (rel.includes('stylesheet') || (rel.includes('preload') && as === 'style')) pushOnce(assets.stylesheets, href);
      else if (rel.includes('modulepreload') || (rel.includes('preload') && as === 'script')) pushOnce(assets.scripts, href);
    } else if (tag === 'astro-island') {
      assets.islands++;
      pushOnce(assets.scripts, attrs.get('before-hydration-url'));
      pushOnce(assets.scripts, attrs.get('renderer-url'));
      pushOnce(assets.scripts, attrs.get('component-url'));
    } else {
      // <script> and <style>: the element's text runs to the matching end tag.
      const close = tag === 'script' ? /<\/script\b/gi : /<\/style\b/gi;
      close.lastIndex = contentStart;
      const end = close.exec(source)?.index ?? -1;
      const content = source.slice(contentStart, end === -1 ? source.length : end);
      TAG.lastIndex = end === -1 ? source.length : end;
      if (tag === 'style') {
        assets.inlineStyleChars += content.length;
        continue;
      }
      const type = (attrs.get('type') ?? '').trim().toLowerCase();
      if (!JS_TYPES.has(type)) continue;
      const src = attrs.get('src');
      if (src !== undefined) pushOnce(assets.scripts, src);
      else if (content.trim()) assets.inlineScripts.push({ code: content, module: type === 'module' });
    }
  }
  return assets;
}

// ── URLs ─────────────────────────────────────────────────────────────────────────────────────────

const BASE = 'http://page.invalid';

/**
 * The same-origin path a reference points to, resolved against the path of the file (or page)
 * that wrote it; null for bare specifiers, other origins and data: URLs. Query and hash dropped.
 */
export function resolveReference(reference: string, fromPath: string): string | null {
  const ref = reference.trim();
  if (!ref || ref.startsWith('data:') || ref.startsWith('blob:')) return null;
  const relative = ref.startsWith('/') || ref.startsWith('./') || ref.startsWith('../');
  if (!relative && !/^https?:\/\//i.test(ref)) return null;
  const url = new URL(ref, BASE + (fromPath.startsWith('/') ? fromPath : `/${fromPath}`));
  if (url.origin !== BASE) return null;
  return url.pathname;
}

// ── JS ───────────────────────────────────────────────────────────────────────────────────────────

export interface ModuleImports {
  /** `import … from "x"`, `import "x"`, `export … from "x"`: loaded before the module runs. */
  static: string[];
  /** `import("x")`: loaded when that code runs. */
  dynamic: string[];
}

const STATIC_IMPORT = /(?<![\w$.])(?:import|export)\s*(?:[\w$*{},\s]+?\s*from\s*)?(["'])([^"'\n]+)\1/g;
const DYNAMIC_IMPORT = /(?<![\w$.])import\s*\(\s*(["'`])([^"'`\n$]+)\1\s*\)/g;
const JS_FILE = /\.m?js$/;

/** The relative or absolute .js specifiers a (bundled) module imports, each once, in source order. */
export function findImports(code: string): ModuleImports {
  const found: ModuleImports = { static: [], dynamic: [] };
  for (const [pattern, list] of [
    [STATIC_IMPORT, found.static],
    [DYNAMIC_IMPORT, found.dynamic],
  ] as const) {
    for (const m of code.matchAll(pattern)) {
      const spec = m[2] ?? '';
      const path = spec.split(/[?#]/)[0] ?? '';
      const local = spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/');
      if (local && JS_FILE.test(path)) pushOnce(list, spec);
    }
  }
  return found;
}

export interface ModuleGraph {
  /** Paths loaded with the page: the roots and everything they import statically. */
  eager: string[];
  /** Paths reachable only through a dynamic import (plus what those import), never in `eager`. */
  lazy: string[];
  /** Paths the loader could not provide (404 or unreadable). */
  missing: string[];
}

/**
 * Walks the import graph from the page's eager roots (paths) and the imports found in its inline
 * module scripts. `load` returns a module's source, or null when it does not exist.
 */
export async function walkModuleGraph(
  roots: { eager: string[]; lazy?: string[] },
  load: (path: string) => Promise<string | null>,
): Promise<ModuleGraph> {
  const eager = new Set<string>();
  const lazyRoots = new Set<string>(roots.lazy ?? []);
  const missing = new Set<string>();

  const visit = async (start: string[], into: Set<string>, skip: Set<string>, followDynamic: boolean) => {
    const queue = [...start];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (into.has(path) || skip.has(path) || missing.has(path)) continue;
      const code = await load(path);
      if (code === null) {
        missing.add(path);
        continue;
      }
      into.add(path);
      const imports = findImports(code);
      for (const spec of imports.static) {
        const target = resolveReference(spec, path);
        if (target) queue.push(target);
      }
      for (const spec of imports.dynamic) {
        const target = resolveReference(spec, path);
        if (!target) continue;
        if (followDynamic) queue.push(target);
        else lazyRoots.add(target);
      }
    }
  };

  await visit(roots.eager, eager, new Set(), false);
  const lazy = new Set<string>();
  await visit([...lazyRoots], lazy, eager, true);
  return { eager: [...eager], lazy: [...lazy], missing: [...missing] };
}

// ── CSS ──────────────────────────────────────────────────────────────────────────────────────────

const CSS_IMPORT = /@import\s+(?:url\(\s*)?(["']?)([^"')\s;]+)\1/g;

/** The URLs a stylesheet pulls in with `@import`. */
export function findCssImports(css: string): string[] {
  const found: string[] = [];
  for (const m of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(CSS_IMPORT)) pushOnce(found, m[2]);
  return found;
}

// ── Pages ────────────────────────────────────────────────────────────────────────────────────────

export interface PageRoute {
  /** The file under src/pages, with forward slashes. */
  file: string;
  /** The route with a trailing slash, as written in the file tree ('[id]' kept for dynamic routes). */
  route: string;
  dynamic: boolean;
  /** The error pages (404.astro, 500.astro) are not fetched at their own route. */
  errorPage: boolean;
}

/**
 * The route Astro serves a file under src/pages at, or null when the file is not an .astro page
 * (endpoints such as the API catch-alls) or is ignored by Astro (a `_` prefixed file or folder).
 */
export function pageRoute(file: string): PageRoute | null {
  const rel = file.replace(/\\/g, '/').replace(/^\/+/, '');
  if (!rel.endsWith('.astro')) return null;
  const segments = rel.slice(0, -'.astro'.length).split('/');
  if (segments.some((s) => s.startsWith('_'))) return null;
  if (segments.at(-1) === 'index') segments.pop();
  const route = segments.length === 0 ? '/' : `/${segments.join('/')}/`;
  return {
    file: rel,
    route,
    dynamic: segments.some((s) => /\[.+\]/.test(s)),
    errorPage: route === '/404/' || route === '/500/',
  };
}

/** The path to request for a route: percent-encoded (ñ becomes %C3%B1), '/' kept. */
export function encodeRoute(route: string): string {
  return encodeURI(route.normalize('NFC'));
}

// ── Verdict ──────────────────────────────────────────────────────────────────────────────────────

export interface PageSizes {
  /** gzip bytes of the HTML document (inline styles and scripts included). */
  html: number;
  /** gzip bytes of the stylesheets, each file gzipped on its own and summed. */
  css: number;
  /** gzip bytes of the eager JS: external files each gzipped on its own, plus the inline scripts. */
  js: number;
  /** gzip bytes of the lazily imported chunks (reported, no budget). */
  lazy: number;
  islands: boolean;
}

/**
 * Issue 15: a page with the capsule player (Reproductor.astro, `data-reproductor`), in brotli bytes
 * as the server sends them, before any click: the player (hls.js, media-chrome, hls-video-element:
 * the lazy chunks its loader imports at once) and every other script of the page (islands and
 * React included).
 */
export const PLAYER_BUDGETS = {
  player: 150 * KB,
  rest: 90 * KB,
} as const;

/** Whether a page's HTML carries the capsule player. */
export const hasPlayer = (html: string): boolean => /<[^>]+\sdata-reproductor[\s>=]/.test(html);

export interface BudgetExcess {
  what: 'HTML' | 'CSS' | 'JS' | 'player JS (br)' | 'other JS (br)';
  size: number;
  budget: number;
}

export interface BudgetVerdict {
  ok: boolean;
  jsBudget: number;
  over: BudgetExcess[];
}

/** Whether a page keeps the budgets; the JS budget depends on whether it has a React island. */
export function budgetVerdict(sizes: PageSizes): BudgetVerdict {
  const jsBudget = sizes.islands ? BUDGETS.jsWithIslands : BUDGETS.jsWithoutIslands;
  const checks: BudgetExcess[] = [
    { what: 'HTML', size: sizes.html, budget: BUDGETS.html },
    { what: 'CSS', size: sizes.css, budget: BUDGETS.css },
    { what: 'JS', size: sizes.js, budget: jsBudget },
  ];
  const over = checks.filter((c) => c.size > c.budget);
  return { ok: over.length === 0, jsBudget, over };
}

/** The player budgets a page with the capsule player exceeds (brotli bytes): none when it keeps them. */
export function playerExcess(sizes: { player: number; rest: number }): BudgetExcess[] {
  const checks: BudgetExcess[] = [
    { what: 'player JS (br)', size: sizes.player, budget: PLAYER_BUDGETS.player },
    { what: 'other JS (br)', size: sizes.rest, budget: PLAYER_BUDGETS.rest },
  ];
  return checks.filter((c) => c.size > c.budget);
}

/**
 * Why a page's status is wrong, or null when it is the expected one. A redirect to /ingresar/
 * from a protected page means the session cookies were not accepted.
 */
export function statusProblem(status: number, expected: number, location?: string | null): string | null {
  if (status === expected) return null;
  if (status >= 300 && status < 400) {
    const target = location ?? '';
    let path = target;
    try {
      path = new URL(target, BASE).pathname;
    } catch {
      /* keep it as written */
    }
    if (safeDecode(path).replace(/\/?$/, '/') === '/ingresar/') return `redirected to ${target}: the admin session was not accepted`;
    return `redirected to ${target || '(no Location)'}`;
  }
  return `answered ${status}, expected ${expected}`;
}

function safeDecode(uri: string): string {
  try {
    return decodeURI(uri);
  } catch {
    return uri;
  }
}

/** Bytes as kB (1024) with one decimal. */
export function kb(bytes: number): string {
  return (bytes / KB).toFixed(1);
}
