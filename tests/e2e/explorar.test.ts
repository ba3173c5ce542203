/**
 * Issue 34 in a browser: an author makes a material public with CC BY 4.0 in its edit form; a
 * visitor with no session and JavaScript off opens its public page (title, licence, OAs, the link
 * preview's tags, JSON-LD that parses as schema.org's LearningResource) and downloads the file;
 * /explorar/ lists it. The pages' HTML is checked by html-validate (helpers.ts) and axe.
 */
import os from 'node:os';
import path from 'node:path';
import ogs from 'open-graph-scraper';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE } from '../support/browser.ts';
import { signIn } from '../support/client.ts';
import { erroresSchemaOrg } from '../support/schema-org.ts';
import { ADMIN, removeDir, startServer } from '../support/server.ts';
import { abrirComo, hidratada, materialPorApi, navegador, url, violacionesGraves } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const captura = (page: Page, nombre: string) =>
  page.screenshot({ path: path.join(os.tmpdir(), `ed-explorar-${nombre}.png`), fullPage: true });

/** A PDF guide of 7° básico Matemática aligned to MA07 OA 01, uploaded by the admin through the API. */
const guia = async (titulo: string): Promise<number> =>
  (await materialPorApi(titulo, 'Ejercicios con la **recta numérica** para 7° básico.')).id;

describe("the network's default licence", () => {
  it('is an admin setting the upload forms start with', async () => {
    const admin = await abrirComo(browser, ADMIN);
    await admin.goto('/admin/licencias');
    await admin.getByLabel('Licencia por defecto', { exact: true }).selectOption('CC-BY-SA-4.0');
    await admin.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => admin.getByRole('status').textContent()).toBe('Licencia por defecto guardada.');
    await admin.goto('/biblioteca-docente/subir');
    expect(await admin.getByLabel('Licencia', { exact: true }).inputValue()).toBe('CC-BY-SA-4.0');
    expect(await admin.getByRole('radio', { name: 'La red' }).isChecked()).toBe(true);
    // Back to the starting default, for the other tests' uploads.
    await admin.goto('/admin/licencias');
    await admin.getByLabel('Licencia por defecto', { exact: true }).selectOption('reservados');
    await admin.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => admin.getByRole('status').textContent()).toBe('Licencia por defecto guardada.');
  });
});

describe('a public material', () => {
  it('is made public with CC BY 4.0 by its author, then read and downloaded by anyone without script', async () => {
    const titulo = `Guía abierta de enteros ${Date.now().toString(36)}`;
    const id = await guia(titulo);

    // A visitor cannot see it while it is the network's only.
    const antes = await browser.newContext({ javaScriptEnabled: false, baseURL: url('/') });
    const intento = await antes.request.get(url(`/explorar/materiales/${id}`), { maxRedirects: 0 });
    expect(intento.status()).toBe(404);
    expect((await antes.request.get(url(`/api/bdocente/${id}/descargar/`))).status()).toBe(401);
    await antes.close();

    const autor = await abrirComo(browser, ADMIN);
    await autor.goto(`/biblioteca-docente/editar/${id}`);
    await hidratada(autor);
    await autor.getByLabel('Licencia', { exact: true }).selectOption('CC-BY-4.0');
    await autor.getByRole('radio', { name: 'Cualquier persona' }).check();
    await autor.getByRole('button', { name: 'Guardar' }).click();
    await autor.waitForURL(url(`/biblioteca-docente/${id}`));
    expect(await autor.locator('.licencia-contenido a[rel="license"]').textContent()).toBe('CC BY 4.0');
    const publica = await autor.getByRole('link', { name: 'Ver la página pública' }).getAttribute('href');
    expect(publica).toMatch(new RegExp(`^/explorar/materiales/${id}/guia-abierta-de-enteros-`));

    for (const [nombre, viewport] of [
      ['escritorio', DESKTOP],
      ['movil', MOBILE],
    ] as const) {
      const contexto = await browser.newContext({ javaScriptEnabled: false, viewport, baseURL: url('/') });
      const page = await contexto.newPage();
      const respuesta = await page.goto(publica ?? '');
      expect(respuesta?.status()).toBe(200);
      expect(respuesta?.headers()['cache-control']).toBe('public, max-age=300');
      expect(respuesta?.headers()['x-robots-tag']).toBeUndefined();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(titulo);
      expect(await page.locator('a[rel="license"]').getAttribute('href')).toBe('https://creativecommons.org/licenses/by/4.0/');
      // The licence is one more term of the author, level and area list (issue 33).
      expect(await page.locator('.ficha-publica dl > dt').allTextContents()).toContain('Licencia');
      expect(await page.locator('.ficha-publica dl > dd a[rel="license"]').count()).toBe(1);
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(url(publica ?? ''));
      expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toBe(url(`/miniaturas/bdocente/${id}/`));
      expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary_large_image');
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(ld).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'LearningResource',
        name: titulo,
        license: 'https://creativecommons.org/licenses/by/4.0/',
        inLanguage: 'es-CL',
        educationalLevel: '7° básico',
      });
      expect(ld.educationalAlignment).toContainEqual(
        expect.objectContaining({
          '@type': 'AlignmentObject',
          educationalFramework: 'Bases Curriculares (Mineduc, Chile)',
          targetName: 'MA07 OA 01',
        }),
      );
      expect(await page.getByRole('link', { name: /Ingresa a/ }).getAttribute('href')).toBe(
        `/ingresar/?siguiente=%2Fbiblioteca-docente%2F${id}`,
      );
      await captura(page, nombre);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      if (nombre === 'escritorio') {
        // What a link preview reads (open-graph-scraper, on the HTML as sent), and the JSON-LD
        // as sent, type-checked against schema.org's types.
        const { result: og } = await ogs({ html: (await respuesta?.text()) ?? '' });
        expect(og).toMatchObject({
          ogTitle: titulo,
          ogType: 'article',
          ogSiteName: 'Entre Docentes',
          ogLocale: 'es_CL',
          ogUrl: url(publica ?? ''),
          twitterCard: 'summary_large_image',
          twitterTitle: titulo,
        });
        expect(og.ogDescription).toContain('Ejercicios con la recta numérica');
        expect(og.ogImage?.[0]?.url).toBe(url(`/miniaturas/bdocente/${id}/`));
        expect(erroresSchemaOrg([[ld, 'S.LearningResource']])).toEqual([[]]);

        // A CDN or a browser that has the page already gets a 304: the item page, the list,
        // robots.txt and the sitemap.
        for (const ruta of [publica ?? '', '/explorar/', '/robots.txt', '/sitemap.xml']) {
          const primera = await contexto.request.get(url(ruta));
          const etag = primera.headers().etag ?? '';
          expect(etag, ruta).toMatch(/^W\/"[\w-]+"$/);
          const otra = await contexto.request.get(url(ruta), { headers: { 'if-none-match': etag } });
          expect(otra.status(), ruta).toBe(304);
          expect(otra.headers()['cache-control']).toBe('public, max-age=300');
          expect(otra.headers().etag).toBe(etag);
        }

        const [descarga] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /^Descargar/ }).click()]);
        expect(descarga.suggestedFilename()).toBe(`${titulo}.pdf`);
        const lista = await contexto.newPage();
        await lista.goto('/explorar/?nivel=07');
        expect(await lista.getByRole('link', { name: titulo }).getAttribute('href')).toBe(publica);
        await captura(lista, 'lista');
        const oa = await contexto.newPage();
        await oa.goto('/explorar/oa/MA07%20OA%2001');
        expect(await oa.getByRole('link', { name: titulo }).count()).toBe(1);
      }
      await contexto.close();
    }
    // axe on the public page, with script (the checker runs in the page).
    const conScript = await browser.newContext({ baseURL: url('/') });
    const page = await conScript.newPage();
    await page.goto(publica ?? '');
    expect(await violacionesGraves(page)).toEqual([]);
    await page.goto('/explorar/');
    expect(await violacionesGraves(page)).toEqual([]);

    // Back to the network: its page and file answer 404 and 401 at once.
    await autor.goto(`/biblioteca-docente/editar/${id}`);
    await hidratada(autor);
    await autor.getByRole('radio', { name: 'La red' }).check();
    await autor.getByRole('button', { name: 'Guardar' }).click();
    await autor.waitForURL(url(`/biblioteca-docente/${id}`));
    expect((await conScript.request.get(url(publica ?? ''))).status()).toBe(404);
    expect((await conScript.request.get(url(`/api/bdocente/${id}/descargar/`))).status()).toBe(401);
    const mapa = await (await conScript.request.get(url('/sitemap.xml'))).text();
    expect(mapa).not.toContain(`/explorar/materiales/${id}/`);
    await conScript.close();
  });
});

describe('a crawler', () => {
  it('is refused past PUBLICO_POR_MINUTO requests a minute with no session; a signed-in teacher at the same address never', async () => {
    const servidor = await startServer({ env: { PUBLICO_POR_MINUTO: '4' } });
    try {
      const { cookie } = await signIn(servidor.url, ADMIN);
      const pedir = (ruta: string, headers: Record<string, string> = {}) => fetch(servidor.url + ruta, { headers, redirect: 'manual' });
      for (const ruta of ['/explorar/', '/robots.txt', '/sitemap.xml', '/explorar/?nivel=07'])
        expect((await pedir(ruta)).status, ruta).toBe(200);

      const rechazo = await pedir('/explorar/');
      expect(rechazo.status).toBe(429);
      expect(Number(rechazo.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(rechazo.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(rechazo.headers.get('cache-control')).toBe('no-store');
      const texto = await rechazo.text();
      expect(texto).toContain('<h1>Demasiadas visitas seguidas</h1>');
      expect(texto).toContain('Recibimos demasiadas visitas seguidas desde tu conexión.');
      // The public files count too; an unknown item answers no differently.
      expect((await pedir('/api/bdocente/1/descargar/')).status).toBe(429);

      // A teacher with a session reads the same pages, as many times as they like.
      for (let i = 0; i < 6; i += 1) {
        const conSesion = await pedir('/explorar/', { cookie });
        expect(conSesion.status).toBe(200);
        expect(conSesion.headers.get('cache-control')).toBe('private, no-cache');
      }
    } finally {
      await servidor.stop();
      removeDir(servidor.dataDir);
    }
  }, 120_000);
});
