import { describe, expect, it } from 'vitest';
import {
  BUDGETS,
  budgetVerdict,
  encodeRoute,
  extractPageAssets,
  findCssImports,
  findImports,
  hasPlayer,
  kb,
  PLAYER_BUDGETS,
  pageRoute,
  playerExcess,
  resolveReference,
  statusProblem,
  walkModuleGraph,
} from '../../scripts/lib/budgets-lib.ts';

const islandPage = `<!DOCTYPE html><html lang="es-CL"><head>
<meta charset="utf-8">
<link rel="stylesheet" href="/_astro/Base.Ab12.css">
<link rel="preload" as="style" href="/_astro/Base.Ab12.css">
<link rel=modulepreload href="/_astro/jsx-runtime.Cd34.js">
<link rel="icon" href="/favicon.svg">
<link rel="preload" as="font" href="/fuente.woff2">
<style>astro-island,astro-slot{display:contents}</style>
<script type="module" src="/_astro/Menu.astro_astro_type_script_index_0_lang.Ef56.js"></script>
<script>(()=>{var A=Object.defineProperty;customElements.define("astro-island",class extends HTMLElement{})})();</script>
<script type="application/ld+json">{"@context":"https://schema.org"}</script>
<!-- <script src="/_astro/comentado.js"></script> -->
</head><body>
<astro-island uid="Z1" prefix="r0" component-url="/_astro/FormularioIngreso.Gh78.js" component-export="default" renderer-url="/_astro/client.Ij90.js" props="{&quot;titulo&quot;:[0,&quot;a &gt; b&quot;]}" ssr client="load" opts="{&quot;name&quot;:&quot;FormularioIngreso&quot;,&quot;value&quot;:true}" await-children><form></form></astro-island>
<astro-island uid="Z2" component-url="/_astro/Buscador.Kl12.js" renderer-url="/_astro/client.Ij90.js" client="visible"></astro-island>
<script type="module">import{a as t}from"/_astro/menu.Mn34.js";t();import("/_astro/extra.Op56.js");</script>
</body></html>`;

describe('extractPageAssets', () => {
  const assets = extractPageAssets(islandPage);

  it('finds each stylesheet once, whether linked or preloaded', () => {
    expect(assets.stylesheets).toEqual(['/_astro/Base.Ab12.css']);
  });

  it('finds script sources, module preloads and the component and renderer of every island, each once', () => {
    expect(assets.scripts).toEqual([
      '/_astro/jsx-runtime.Cd34.js',
      '/_astro/Menu.astro_astro_type_script_index_0_lang.Ef56.js',
      '/_astro/client.Ij90.js',
      '/_astro/FormularioIngreso.Gh78.js',
      '/_astro/Buscador.Kl12.js',
    ]);
  });

  it('counts the islands', () => {
    expect(assets.islands).toBe(2);
  });

  it('keeps inline JavaScript (the island runtime, inline modules) but not JSON data blocks or commented-out tags', () => {
    expect(assets.inlineScripts).toEqual([
      { code: '(()=>{var A=Object.defineProperty;customElements.define("astro-island",class extends HTMLElement{})})();', module: false },
      { code: 'import{a as t}from"/_astro/menu.Mn34.js";t();import("/_astro/extra.Op56.js");', module: true },
    ]);
    expect(assets.scripts).not.toContain('/_astro/comentado.js');
  });

  it('measures inline styles, which are counted as part of the HTML', () => {
    expect(assets.inlineStyleChars).toBe('astro-island,astro-slot{display:contents}'.length);
  });

  it('finds nothing to load on a page without assets', () => {
    expect(extractPageAssets('<html><body><p>Hola</p></body></html>')).toEqual({
      stylesheets: [],
      scripts: [],
      inlineScripts: [],
      inlineStyleChars: 0,
      islands: 0,
    });
  });

  it("reads single-quoted and unquoted attributes and a '>' inside a quoted value", () => {
    const found = extractPageAssets(`<script data-x="a>b" src='/_astro/a.js'></script><link href=/_astro/b.css rel=stylesheet>`);
    expect(found.scripts).toEqual(['/_astro/a.js']);
    expect(found.stylesheets).toEqual(['/_astro/b.css']);
  });
});

describe('findImports', () => {
  it('finds minified static imports, side-effect imports and re-exports', () => {
    const code =
      'import{j as e}from"./jsx-runtime.D1.js";import*as r from"./index.E2.js";import"./estilos.F3.js";' +
      'import t,{u as n}from"../otros/react.G4.js";export{a as b}from"./x.H5.js";export*from"/_astro/y.I6.js";';
    expect(findImports(code)).toEqual({
      static: ['./jsx-runtime.D1.js', './index.E2.js', './estilos.F3.js', '../otros/react.G4.js', './x.H5.js', '/_astro/y.I6.js'],
      dynamic: [],
    });
  });

  it('finds dynamic imports apart, each once', () => {
    const code = 'const m=()=>import("./Editor.J7.js");const n=()=>import( \'./Editor.J7.js\' );const h=import(`./hls.K8.js`);';
    expect(findImports(code)).toEqual({ static: [], dynamic: ['./Editor.J7.js', './hls.K8.js'] });
  });

  it('ignores bare specifiers, computed imports, non-JS files and words that only contain "import"', () => {
    const code = 'import{x}from"react";import(e.getAttribute("component-url"));const reimport="./no.js";import"./estilo.css";';
    expect(findImports(code)).toEqual({ static: [], dynamic: [] });
  });
});

describe('resolveReference', () => {
  it('resolves relative imports against the importing file', () => {
    expect(resolveReference('./b.js', '/_astro/a.js')).toBe('/_astro/b.js');
    expect(resolveReference('../lib/c.js?v=1', '/_astro/chunks/a.js')).toBe('/_astro/lib/c.js');
  });

  it('keeps absolute paths and same-origin URLs, drops other origins, bare names and data URLs', () => {
    expect(resolveReference('/_astro/x.css', '/capsulas/')).toBe('/_astro/x.css');
    expect(resolveReference('http://page.invalid/_astro/y.js', '/')).toBe('/_astro/y.js');
    expect(resolveReference('https://cdn.example.com/z.js', '/')).toBeNull();
    expect(resolveReference('react', '/')).toBeNull();
    expect(resolveReference('data:text/css,a{}', '/')).toBeNull();
  });
});

describe('walkModuleGraph', () => {
  const files: Record<string, string> = {
    '/_astro/Formulario.js': 'import{j}from"./jsx.js";import"./comun.js";const E=()=>import("./Editor.js");',
    '/_astro/client.js': 'import{r}from"./react.js";',
    '/_astro/jsx.js': 'import{r}from"./react.js";',
    '/_astro/react.js': 'export const r=1;',
    '/_astro/comun.js': 'import("./react.js");',
    '/_astro/Editor.js': 'import{r}from"./react.js";import{m}from"./markdown.js";import("./prism.js");',
    '/_astro/markdown.js': 'import{r}from"./react.js";',
    '/_astro/prism.js': '',
  };
  const load = async (p: string) => files[p] ?? null;

  it('counts every statically imported file once and the dynamic-only ones apart', async () => {
    const graph = await walkModuleGraph({ eager: ['/_astro/Formulario.js', '/_astro/client.js'] }, load);
    expect(graph.eager.sort()).toEqual([
      '/_astro/Formulario.js',
      '/_astro/client.js',
      '/_astro/comun.js',
      '/_astro/jsx.js',
      '/_astro/react.js',
    ]);
    expect(graph.lazy.sort()).toEqual(['/_astro/Editor.js', '/_astro/markdown.js', '/_astro/prism.js']);
    expect(graph.missing).toEqual([]);
  });

  it('reports files that cannot be loaded', async () => {
    const graph = await walkModuleGraph({ eager: ['/_astro/no-existe.js'], lazy: ['/_astro/prism.js'] }, load);
    expect(graph).toEqual({ eager: [], lazy: ['/_astro/prism.js'], missing: ['/_astro/no-existe.js'] });
  });
});

describe('findCssImports', () => {
  it('finds @import in its url() and string forms, not in comments', () => {
    expect(
      findCssImports('/* @import "viejo.css"; */@import url("./pico.css");@import \'tema.css\' screen;@import url(fuentes.css);'),
    ).toEqual(['./pico.css', 'tema.css', 'fuentes.css']);
  });
});

describe('pageRoute', () => {
  it('maps index files to their folder and other files to their name, with a trailing slash', () => {
    expect(pageRoute('index.astro')).toEqual({ file: 'index.astro', route: '/', dynamic: false, errorPage: false });
    expect(pageRoute('ingresar.astro')?.route).toBe('/ingresar/');
    expect(pageRoute('activar-cuenta/index.astro')?.route).toBe('/activar-cuenta/');
    expect(pageRoute('cambiar-contraseña/index.astro')?.route).toBe('/cambiar-contraseña/');
  });

  it('marks dynamic routes and error pages', () => {
    expect(pageRoute('capsulas/[id].astro')).toMatchObject({ route: '/capsulas/[id]/', dynamic: true });
    expect(pageRoute('foro/categorias/[idCategoria]/conversacion/[id]/index.astro')).toMatchObject({
      route: '/foro/categorias/[idCategoria]/conversacion/[id]/',
      dynamic: true,
    });
    expect(pageRoute('404.astro')).toMatchObject({ route: '/404/', errorPage: true });
  });

  it('skips endpoints, API catch-alls and files Astro ignores', () => {
    expect(pageRoute('api/[...path].ts')).toBeNull();
    expect(pageRoute('healthz.ts')).toBeNull();
    expect(pageRoute('_componentes/Tarjeta.astro')).toBeNull();
  });

  it('accepts Windows separators', () => {
    expect(pageRoute('perfil\\index.astro')?.route).toBe('/perfil/');
  });
});

describe('encodeRoute', () => {
  it('percent-encodes Spanish characters and keeps the slashes', () => {
    expect(encodeRoute('/cambiar-contraseña/')).toBe('/cambiar-contrase%C3%B1a/');
    expect(encodeRoute('/biblioteca-docente/')).toBe('/biblioteca-docente/');
  });
});

describe('budgetVerdict', () => {
  const within = { html: 14 * 1024, css: 16 * 1024, js: 5 * 1024, lazy: 500 * 1024, islands: false };

  it('passes a page exactly at its budgets, whatever its lazy chunks weigh', () => {
    expect(budgetVerdict(within)).toEqual({ ok: true, jsBudget: BUDGETS.jsWithoutIslands, over: [] });
  });

  it('holds a page without islands to 5 kB of JS', () => {
    expect(budgetVerdict({ ...within, js: 5 * 1024 + 1 })).toEqual({
      ok: false,
      jsBudget: 5120,
      over: [{ what: 'JS', size: 5121, budget: 5120 }],
    });
  });

  it('gives a page with islands 90 kB of JS', () => {
    expect(budgetVerdict({ ...within, js: 90 * 1024, islands: true })).toMatchObject({ ok: true, jsBudget: 92160 });
    expect(budgetVerdict({ ...within, js: 90 * 1024 + 1, islands: true }).ok).toBe(false);
  });

  it('lists every budget a page goes over', () => {
    expect(budgetVerdict({ ...within, html: 20000, css: 17000 }).over.map((o) => o.what)).toEqual(['HTML', 'CSS']);
  });
});

describe('the capsule player budgets', () => {
  it('finds the player by its data-reproductor box', () => {
    expect(hasPlayer('<section class="reproductor" data-reproductor aria-label="x">')).toBe(true);
    expect(hasPlayer('<section data-reproductor>')).toBe(true);
    expect(hasPlayer('<p>data-reproductor</p><div data-reproductor-error hidden>')).toBe(false);
  });

  it('holds the player to 150 kB and everything else to 90 kB of brotli', () => {
    expect(PLAYER_BUDGETS).toEqual({ player: 150 * 1024, rest: 90 * 1024 });
    expect(playerExcess({ player: 150 * 1024, rest: 90 * 1024 })).toEqual([]);
    expect(playerExcess({ player: 150 * 1024 + 1, rest: 91 * 1024 })).toEqual([
      { what: 'player JS (br)', size: 150 * 1024 + 1, budget: 150 * 1024 },
      { what: 'other JS (br)', size: 91 * 1024, budget: 90 * 1024 },
    ]);
  });
});

describe('statusProblem', () => {
  it('accepts the expected status', () => {
    expect(statusProblem(200, 200)).toBeNull();
    expect(statusProblem(404, 404)).toBeNull();
  });

  it('explains a redirect to the sign-in page as a session that was not accepted', () => {
    expect(statusProblem(302, 200, '/ingresar/?siguiente=%2Fcapsulas%2F')).toBe(
      'redirected to /ingresar/?siguiente=%2Fcapsulas%2F: the admin session was not accepted',
    );
  });

  it('reports other redirects and statuses', () => {
    expect(statusProblem(302, 200, '/')).toBe('redirected to /');
    expect(statusProblem(500, 200)).toBe('answered 500, expected 200');
  });
});

describe('kb', () => {
  it('shows kilobytes of 1024 bytes with one decimal', () => {
    expect(kb(14 * 1024)).toBe('14.0');
    expect(kb(1536)).toBe('1.5');
  });
});
