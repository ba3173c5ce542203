/** axe-core on every screen, at desktop width and at 375px: no serious or critical violation. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../support/server.ts';
import { ANCHOS, abrir, abrirComo, navegador, responder, violacionesGraves } from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const verificarToken = (u: URL) => /^\/api\/usuarios\/(activar-cuenta\/$|cambiar-contrasena\/[^/]+$)/.test(u.pathname);

interface Pantalla {
  nombre: string;
  ruta: string;
  sesion?: boolean;
  /** Waits for the state to check, or brings the page to it. */
  preparar?: (page: Page) => Promise<void>;
}

const listo = (texto: string) => async (page: Page) => {
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(texto);
};

const PANTALLAS: Pantalla[] = [
  { nombre: 'ingresar', ruta: '/ingresar/' },
  {
    nombre: 'ingresar con errores',
    ruta: '/ingresar/',
    preparar: async (page) => {
      await expect.poll(() => page.getByRole('button', { name: 'Ingresar' }).isEnabled()).toBe(true);
      await page.getByRole('button', { name: 'Ingresar' }).click();
      await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(2);
    },
  },
  { nombre: 'reestablecer', ruta: '/reestablecer-contraseña/' },
  { nombre: 'ingresar/reestablecer', ruta: '/ingresar/reestablecer-contraseña/' },
  { nombre: 'activar (token inválido)', ruta: '/activar-cuenta/no-sirve', preparar: listo('Token inválido o expirado') },
  {
    nombre: 'activar (formulario)',
    ruta: '/activar-cuenta/token-de-prueba',
    preparar: async (page) => {
      await page.route(verificarToken, responder(200, { email: 'nueva@colegio.cl' }));
      await page.reload();
      await listo('Bienvenido a Entre Docentes')(page);
    },
  },
  {
    nombre: 'registrar (formulario)',
    ruta: '/registrar/?token=token-de-prueba',
    preparar: async (page) => {
      await page.route(verificarToken, responder(200, { email: 'nueva@colegio.cl' }));
      await page.reload();
      await listo('Bienvenido a Entre Docentes')(page);
    },
  },
  { nombre: 'cambiar (token inválido)', ruta: '/cambiar-contraseña/no-sirve', preparar: listo('Token inválido o expirado') },
  {
    nombre: 'cambiar (formulario)',
    ruta: '/cambiar-contraseña/token-de-prueba',
    preparar: async (page) => {
      await page.route(verificarToken, responder(200, { email: 'ana@colegio.cl' }));
      await page.reload();
      await listo('Crea una nueva contraseña')(page);
    },
  },
  { nombre: '404', ruta: '/no-existe/' },
  { nombre: 'inicio', ruta: '/', sesion: true },
  {
    nombre: 'inicio con el menú abierto',
    ruta: '/',
    sesion: true,
    preparar: async (page) => {
      await page.getByRole('button', { name: 'Menú' }).click();
      // Checked once the menu has slid open: getAnimations() sees the transitions the click started.
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
            .map((a) => a.finished),
        ),
      );
    },
  },
  { nombre: 'ayuda', ruta: '/ayuda', sesion: true },
  {
    nombre: 'ayuda con error',
    ruta: '/ayuda',
    sesion: true,
    preparar: async (page) => {
      await expect.poll(() => page.getByRole('button', { name: 'Enviar' }).isEnabled()).toBe(true);
      await page.getByLabel('Mensaje').fill('Hola');
      await page.route('**/enviar-email-ayuda/', responder(500, { detail: 'Error' }));
      await page.getByRole('button', { name: 'Enviar' }).click();
      await expect.poll(() => page.locator('.notificaciones [role="alert"]').count()).toBe(1);
    },
  },
  { nombre: '404 con sesión', ruta: '/capsulas/', sesion: true },
];

describe.each(ANCHOS)('accessibility (%s)', (_ancho, viewport) => {
  it.each(PANTALLAS.map((p) => [p.nombre, p] as const))('%s has no serious or critical violation', async (_nombre, pantalla) => {
    const page = pantalla.sesion ? await abrirComo(browser, ADMIN, viewport) : await abrir(browser, viewport);
    await page.goto(pantalla.ruta);
    await page.waitForLoadState('networkidle');
    await pantalla.preparar?.(page);
    expect(await violacionesGraves(page)).toEqual([]);
  });
});
