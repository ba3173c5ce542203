/**
 * Security headers over real HTTP (decision 0022): every HTML page, prerendered or rendered on
 * request, carries a Content-Security-Policy whose scripts are 'self' plus the hashes of the
 * page's inline scripts; the API's JSON is nosniff and never stored; and a script a page did not
 * ship is refused by the browser and reported, which fails the browser suite. On an https public
 * address every answer carries Strict-Transport-Security (issue 32); on http none does.
 */
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { violacionesCsp } from '../support/browser.ts';
import { signIn } from '../support/client.ts';
import { ADMIN, removeDir, startServer } from '../support/server.ts';
import { abrir, ingresar, navegador, url } from './helpers.ts';

/** The policy as directive → sources. */
function politica(respuesta: Response): Map<string, string[]> {
  const valor = respuesta.headers.get('content-security-policy');
  expect(valor, `Content-Security-Policy de ${respuesta.url}`).toBeTruthy();
  const directivas = new Map<string, string[]>();
  for (const parte of (valor ?? '').split(';')) {
    const [nombre, ...fuentes] = parte.trim().split(/\s+/);
    if (nombre) directivas.set(nombre, fuentes);
  }
  return directivas;
}

const hash = (contenido: string) => `'sha256-${createHash('sha256').update(contenido).digest('base64')}'`;

/** The contents of the page's inline elements of a kind that the browser runs or applies. */
function enLinea(html: string, etiqueta: 'script' | 'style'): string[] {
  const patron = new RegExp(`<${etiqueta}(\\s[^>]*)?>([\\s\\S]*?)</${etiqueta}>`, 'g');
  return [...html.matchAll(patron)]
    .filter(([, atributos = '']) => !/\bsrc=/.test(atributos) && !/type="application\/json"/.test(atributos))
    .map(([, , contenido = '']) => contenido);
}

/** What every HTML page must say, and its inline scripts and styles covered by the policy's hashes. */
async function esPaginaProtegida(respuesta: Response): Promise<void> {
  expect(respuesta.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = politica(respuesta);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(["'self'"]);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(csp.get('media-src')).toEqual(["'self'", 'blob:']);
  const scripts = csp.get('script-src') ?? [];
  expect(scripts[0]).toBe("'self'");
  expect(
    scripts.slice(1).every((s) => /^'sha256-[\w+/=]+'$/.test(s)),
    scripts.join(' '),
  ).toBe(true);
  // No other script directive that could widen script-src.
  expect([...csp.keys()].filter((d) => d.startsWith('script-src'))).toEqual(['script-src']);
  expect(csp.get('style-src')?.join(' ')).not.toContain('unsafe');
  // Style attributes only (decision 0022); inline <style> elements only on the capsule player's page.
  expect(csp.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
  expect(csp.has('style-src-elem')).toBe(false);

  expect(respuesta.headers.get('x-content-type-options')).toBe('nosniff');
  expect(respuesta.headers.get('referrer-policy')).toBe('same-origin');
  expect(respuesta.headers.get('x-frame-options')).toBe('DENY');
  expect(respuesta.headers.get('permissions-policy')).toContain('camera=()');
  expect(respuesta.headers.get('permissions-policy')).toContain('microphone=()');
  expect(respuesta.headers.get('permissions-policy')).toContain('geolocation=()');

  const html = await respuesta.text();
  expect(html).not.toContain('http-equiv="content-security-policy"');
  const scriptsEnLinea = enLinea(html, 'script');
  expect(scriptsEnLinea.length).toBeGreaterThan(0);
  for (const contenido of scriptsEnLinea) expect(scripts, contenido.slice(0, 80)).toContain(hash(contenido));
  for (const contenido of enLinea(html, 'style')) expect(csp.get('style-src'), contenido.slice(0, 80)).toContain(hash(contenido));
}

describe('headers of HTML pages', () => {
  it('a prerendered page, also when served for an emailed token and as a 304', async () => {
    // /ingresar/ is rendered on request since it lists the providers (issue 32); its reset page is not.
    const ingresar = await fetch(url('/ingresar/reestablecer-contraseña/'), { headers: { 'accept-encoding': 'br' } });
    expect(ingresar.status).toBe(200);
    await esPaginaProtegida(ingresar);

    const activar = await fetch(url('/activar-cuenta/un-token-cualquiera'));
    expect(activar.status).toBe(200);
    await esPaginaProtegida(activar);

    const etag = ingresar.headers.get('etag') ?? '';
    const otraVez = await fetch(url('/ingresar/reestablecer-contraseña/'), { headers: { 'if-none-match': etag } });
    expect(otraVez.status).toBe(304);
    expect(otraVez.headers.get('content-security-policy')).toBe(ingresar.headers.get('content-security-policy'));
  });

  it('a page rendered on request, the 404 page and the redirect to sign-in', async () => {
    const { cookie } = await signIn(inject('baseUrl'), ADMIN);
    const inicio = await fetch(url('/'), { headers: { cookie } });
    expect(inicio.status).toBe(200);
    await esPaginaProtegida(inicio);

    const noExiste = await fetch(url('/no-existe-esta-pagina'));
    expect(noExiste.status).toBe(404);
    await esPaginaProtegida(noExiste);

    const sinSesion = await fetch(url('/ayuda'), { redirect: 'manual' });
    expect(sinSesion.status).toBe(302);
    expect(politica(sinSesion).get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('headers of API responses', () => {
  it('JSON answers and errors are nosniff and never stored', async () => {
    const { access } = await signIn(inject('baseUrl'), ADMIN);
    for (const [ruta, estado, authorization] of [
      ['/api/curriculum_escolar/areas/', 200, `Bearer ${access}`],
      ['/api/capsulas/', 401, ''],
      ['/api/no-existe/', 404, ''],
    ] as const) {
      const respuesta = await fetch(url(ruta), { headers: authorization ? { authorization } : {} });
      expect(respuesta.status, ruta).toBe(estado);
      expect(respuesta.headers.get('content-type'), ruta).toMatch(/^application\/json/);
      expect(respuesta.headers.get('x-content-type-options'), ruta).toBe('nosniff');
      expect(respuesta.headers.get('cache-control'), ruta).toContain('no-store');
    }
  });
});

describe('Strict-Transport-Security (issue 32)', () => {
  /** A page, a built file, an API answer, an API error and a redirect: every kind the server sends. */
  const RUTAS = ['/ingresar/', '/favicon.svg', '/healthz', '/api/capsulas/', '/ayuda'];

  it('is sent with every answer when the public address is https', async () => {
    const servidor = await startServer({ env: { PUBLIC_URL: 'https://docentes.example.cl' } });
    try {
      for (const ruta of RUTAS) {
        const respuesta = await fetch(`${servidor.url}${ruta}`, { redirect: 'manual' });
        expect(respuesta.status, ruta).toBeLessThan(500);
        expect(respuesta.headers.get('strict-transport-security'), ruta).toBe('max-age=31536000; includeSubDomains');
      }
    } finally {
      await servidor.stop();
      removeDir(servidor.dataDir);
    }
  });

  it('is never sent on a plain http address (a school server on its LAN), which it would lock out', async () => {
    for (const ruta of RUTAS) {
      const respuesta = await fetch(url(ruta), { redirect: 'manual' });
      expect(respuesta.headers.get('strict-transport-security'), ruta).toBeNull();
    }
  });
});

describe('in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await navegador();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('reports no violation on any section page an admin opens, islands and all', async () => {
    const page = await abrir(browser);
    await ingresar(page);
    for (const ruta of [
      '/',
      '/capsulas/',
      '/capsulas/subir',
      '/manuales/',
      '/manuales/subir',
      '/biblioteca-docente/',
      '/biblioteca-docente/subir',
      '/comunidad/',
      '/foro/',
      '/foro/categorias/crear',
      '/perfil/',
      '/perfil/editar',
      '/ayuda',
    ]) {
      await page.goto(ruta);
      await page.waitForLoadState('networkidle');
      // Below the fold too, for islands hydrated when visible.
      await page.mouse.wheel(0, 10_000);
      await page.waitForLoadState('networkidle');
      expect(violacionesCsp(), ruta).toEqual([]);
    }
  });

  it('refuses a script the page did not ship, and the suite sees the violation', async () => {
    const page = await abrir(browser);
    await page.goto('/ingresar/');
    await page.waitForLoadState('load');
    expect(violacionesCsp()).toEqual([]);

    const ejecutado = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.inyectado = true;';
      document.body.append(script);
      const imagen = document.createElement('img');
      imagen.setAttribute('onerror', 'window.inyectado = true;');
      // Listeners run in the order they were added: the attribute's handler, had it been allowed,
      // has run by the time this one hears the error.
      const fallo = new Promise((resolve) => imagen.addEventListener('error', resolve));
      imagen.src = 'data:,';
      document.body.append(imagen);
      await fallo;
      return Reflect.get(window, 'inyectado') === true;
    });
    expect(ejecutado).toBe(false);
    // The afterEach of helpers.ts would fail the test with these; read (and so clear) them here.
    const vistas: string[] = [];
    const reportadas = () => {
      vistas.push(...violacionesCsp());
      return vistas.filter((v) => /script-src-(elem|attr) bloqueó inline/.test(v)).length;
    };
    await expect.poll(reportadas).toBe(2);
  });
});
