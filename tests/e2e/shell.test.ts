/**
 * The protected area: the server-side guard, silent renewal, home, top bar, side menu, footer,
 * 404, sign-out everywhere and the service-worker cleanup (docs/SPEC.md sections 2, 4 and 9).
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOS, abrir, completarIngreso, correoNuevo, docenteActivo, ingresar, navegador, url } from './helpers.ts';

const PIE =
  'Plataforma desarrollada por la Facultad de Educación de la universidad y financiada por el Gobierno Regional, al servicio de los equipos docentes como herramienta de apoyo a la innovación metodológica y al trabajo en red.';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const ancho = (page: Page, selector: string) => page.locator(selector).evaluate((e) => e.getBoundingClientRect().width);

describe('guard', () => {
  it('sends a visitor without a session to /ingresar/, remembering where they were going', async () => {
    const page = await abrir(browser);
    const respuesta = await fetch(url('/ayuda'), { redirect: 'manual' });
    expect(respuesta.status).toBe(302);
    expect(respuesta.headers.get('location')).toBe('/ingresar/?siguiente=%2Fayuda');
    await page.goto('/');
    expect(page.url()).toBe(url('/ingresar/'));
    await page.goto('/ayuda');
    expect(page.url()).toBe(url('/ingresar/?siguiente=%2Fayuda'));
    await completarIngreso(page);
    expect(page.url()).toBe(url('/ayuda'));
  });

  it('renews an expired access token silently on a page request', async () => {
    const page = await abrir(browser);
    await ingresar(page);
    const antes = (await page.context().cookies()).find((c) => c.name === 'ed_refresh')?.value;
    await page.context().clearCookies({ name: 'ed_access' });
    await page.goto('/ayuda');
    expect(page.url()).toBe(url('/ayuda'));
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'ed_access')?.value).toBeTruthy();
    expect(cookies.find((c) => c.name === 'ed_refresh')?.value).not.toBe(antes);
  });
});

describe.each(ANCHOS)('home and shell (%s)', (nombreAncho, viewport) => {
  it("shows 'Bienvenido a' + the product, the subtitle and the six cards", async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Bienvenido a Entre Docentes');
    expect(await page.getByText('Selecciona una sección para comenzar').isVisible()).toBe(true);
    const tarjetas = page.locator('main .tarjeta');
    expect(await tarjetas.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '/capsulas/',
      '/manuales/',
      '/biblioteca-docente/',
      '/comunidad/',
      '/foro/',
      '/ayuda',
    ]);
    expect(await page.locator('.pie p').first().textContent()).toBe(PIE);
    // The privacy notice is one click away from every page (issue 31).
    expect(await page.locator('.pie').getByRole('link', { name: 'Aviso de privacidad' }).getAttribute('href')).toBe('/privacidad');
    expect(await page.title()).toBe('Inicio · Entre Docentes');
  });

  it('ships no React on the home page and stays within 5 kB of script (gzip)', async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    const scripts: Promise<Buffer>[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.body());
    });
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('astro-island').count()).toBe(0);
    const enLinea = await page.locator('script:not([src]):not([type="application/json"])').allTextContents();
    const bytes = [...(await Promise.all(scripts)), ...enLinea.map((t) => Buffer.from(t))].reduce(
      (n, b) => n + gzipSync(b, { level: 9 }).length,
      0,
    );
    expect(bytes).toBeLessThan(5 * 1024);
  });

  it('has a 48px top bar with the menu toggle, the logo, the default icon and name, Ayuda and Cerrar Sesión', async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    const barra = page.locator('header.barra');
    expect((await barra.boundingBox())?.height).toBe(48);
    expect(await page.getByRole('button', { name: 'Menú' }).getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('link', { name: 'Entre Docentes, inicio' }).getAttribute('href')).toBe('/');
    const perfil = barra.locator('a.perfil');
    expect(await perfil.getAttribute('href')).toBe('/perfil/editar');
    expect(await perfil.locator('.nombre').textContent()).toBe('Administración Red');
    expect(await perfil.locator('svg.avatar').count()).toBe(1);
    expect(await barra.getByRole('link', { name: 'Ayuda' }).getAttribute('href')).toBe('/ayuda');
    expect(await barra.getByRole('button', { name: 'Cerrar Sesión' }).isVisible()).toBe(true);
  });

  it("has the seven menu items (and an admin's 'Administración'), the current one highlighted, 270px open, collapsing on selection", async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    const menu = page.locator('#menu-lateral');
    expect(await menu.getAttribute('aria-label')).toBe('Menú principal');
    const items = menu.locator('a');
    expect(await items.evaluateAll((as) => as.map((a) => [a.textContent?.trim(), a.getAttribute('href')]))).toEqual([
      ['Inicio', '/'],
      ['Cápsulas Docentes', '/capsulas/'],
      ['Manuales Pedagógicos', '/manuales/'],
      ['Biblioteca Docente', '/biblioteca-docente/'],
      ['Comunidad Docente', '/comunidad/'],
      ['Foro', '/foro/'],
      ['Perfil', '/perfil/editar'],
      ['Administración', '/admin/usuarios'],
    ]);
    expect(await menu.locator('[aria-current="page"]').textContent()).toBe('Inicio');
    // Collapsed: a rail of icons on wide screens, nothing at 480px or narrower.
    expect(await ancho(page, '#menu-lateral')).toBe(nombreAncho === 'móvil' ? 0 : 64);
    const alternar = page.getByRole('button', { name: 'Menú' });
    await alternar.click();
    expect(await alternar.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => ancho(page, '#menu-lateral')).toBe(270);
    expect(await menu.getByRole('link', { name: 'Foro' }).isVisible()).toBe(true);
    // Selecting an item collapses the menu (the navigation itself is held back here).
    await page.evaluate(() => document.getElementById('menu-lateral')?.addEventListener('click', (e) => e.preventDefault()));
    await menu.getByRole('link', { name: 'Foro' }).click();
    expect(await alternar.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => ancho(page, '#menu-lateral')).toBe(nombreAncho === 'móvil' ? 0 : 64);
  });

  it('opens and closes the menu by keyboard', async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    const alternar = page.getByRole('button', { name: 'Menú' });
    await alternar.focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Inicio');
    await page.keyboard.press('Escape');
    expect(await alternar.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Menú');
  });

  it('shows a Spanish 404 page, inside the shell when signed in', async () => {
    const page = await abrir(browser, viewport);
    const respuesta = await page.goto('/no-existe/');
    expect(respuesta?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Página no encontrada');
    expect(await page.locator('header.barra').count()).toBe(0);
    await ingresar(page);
    const conSesion = await page.goto('/capsulas/una/ruta-que-no-existe/');
    expect(conSesion?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Página no encontrada');
    expect(await page.locator('header.barra').count()).toBe(1);
    expect(await page.locator('#menu-lateral [aria-current="page"]').textContent()).toBe('Cápsulas Docentes');
  });
});

describe('side menu on a mobile screen (under 768px, wider than 480px)', () => {
  it('keeps a rail of icons and opens over the content', async () => {
    const page = await abrir(browser, { width: 700, height: 800 });
    await ingresar(page);
    expect(await ancho(page, '#menu-lateral')).toBe(52);
    const margen = () => page.locator('.cuerpo').evaluate((e) => getComputedStyle(e).marginLeft);
    expect(await margen()).toBe('52px');
    await page.getByRole('button', { name: 'Menú' }).click();
    await expect.poll(() => ancho(page, '#menu-lateral')).toBe(270);
    expect(await margen()).toBe('52px');
    expect(await page.locator('.velo').isVisible()).toBe(true);
    await page.locator('.velo').click({ position: { x: 600, y: 400 } });
    expect(await page.getByRole('button', { name: 'Menú' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('pushes the content aside on a desktop screen', async () => {
    const page = await abrir(browser);
    await ingresar(page);
    await page.getByRole('button', { name: 'Menú' }).click();
    await expect.poll(() => page.locator('.cuerpo').evaluate((e) => getComputedStyle(e).marginLeft)).toBe('270px');
  });
});

describe('sign-out', () => {
  it('Cerrar Sesión ends the session and goes to /ingresar/, also in the other open tabs', async () => {
    const page = await abrir(browser);
    await ingresar(page);
    const otra = await page.context().newPage();
    await otra.goto('/ayuda');
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await page.waitForURL(url('/ingresar/'));
    await otra.waitForURL(url('/ingresar/?siguiente=%2Fayuda'));
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('ed_'))).toEqual([]);
    await page.goto('/');
    expect(page.url()).toBe(url('/ingresar/'));
  });

  it('shows the name and surname of a teacher who signs in', async () => {
    const email = correoNuevo('nombre');
    await docenteActivo(email, 'ClaveSegura1');
    const page = await abrir(browser);
    await ingresar(page, email, 'ClaveSegura1');
    expect(await page.locator('header.barra a.perfil .nombre').textContent()).toBe('Docente Prueba');
  });
});

describe('service workers', () => {
  it('unregisters any stored service worker on load, on public and protected pages', async () => {
    const page = await abrir(browser);
    await page.addInitScript(() => {
      Reflect.set(window, 'quitados', 0);
      const falso = { unregister: async () => Reflect.set(window, 'quitados', Reflect.get(window, 'quitados') + 1) };
      Object.defineProperty(navigator.serviceWorker, 'getRegistrations', { value: async () => [falso, falso] });
    });
    await page.goto('/ingresar/');
    await expect.poll(() => page.evaluate(() => Reflect.get(window, 'quitados'))).toBe(2);
    await ingresar(page);
    await expect.poll(() => page.evaluate(() => Reflect.get(window, 'quitados'))).toBe(2);
  });
});
