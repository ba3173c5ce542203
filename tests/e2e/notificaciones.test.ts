/**
 * Notifications in the browser (issue 17): teacher A comments on a manual's page, teacher B
 * replies there in another browser, A
 * sees the bell's count go up when the tab regains focus, follows the link from /notificaciones (which
 * reads it), marks a later one read with the rest, sees the bell still count once the access
 * token is gone (it renews the session), and chooses 'Nunca' for notification mail in the profile.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { abrir, abrirComo, apiComo, correoNuevo, docenteActivo, hidratada, ingresar, navegador, url } from './helpers.ts';

let browser: Browser;
const a = { email: correoNuevo('notif.a'), password: 'Docente2026' };
const b = { email: correoNuevo('notif.b'), password: 'Docente2026' };

beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(a.email, a.password);
  await docenteActivo(b.email, b.password);
});
afterAll(async () => {
  await browser?.close();
});

async function manualPorApi(): Promise<{ id: number; titulo: string }> {
  const { api } = await apiComo();
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const titulo = `Manual para notificar ${Date.now().toString(36)}`;
  const { data, response } = await api.POST('/api/manuales/', {
    body: { titulo, descripcion: 'Un manual.', id_area: areas[0]?.id ?? 0, archivo: 'manual.pdf' },
    bodySerializer: multipart({ data: pdf(1), name: 'manual.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
  return { id: data?.id ?? 0, titulo };
}

describe('notifications', () => {
  it('A sees the bell go up on focus after B replies, follows the link, marks all read and turns mail off', async () => {
    const manual = await manualPorApi();
    const comoB = await apiComo(b);

    // A comments on the manual's page; the bell counts nothing yet.
    const page = await abrir(browser);
    await ingresar(page, a.email, a.password);
    const campana = page.locator('a.campana');
    expect(await campana.getAttribute('aria-label')).toBe('Notificaciones: ninguna sin leer');
    await page.goto(url(`/manuales/${manual.id}`));
    // The comments are an island that wakes when it comes into view.
    await page.getByLabel('Escribe un comentario').scrollIntoViewIfNeeded();
    await page.getByText(/Aún no hay comentarios/).waitFor();
    await hidratada(page);
    await page.getByLabel('Escribe un comentario').fill('¿Sirve para 2° básico?');
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    await page.locator('article.comentario', { hasText: '¿Sirve para 2° básico?' }).waitFor();

    // B replies on the same page, in a browser of their own.
    const deB = await abrirComo(browser, b);
    await deB.goto(url(`/manuales/${manual.id}`));
    await deB.getByLabel('Escribe un comentario').scrollIntoViewIfNeeded();
    await hidratada(deB);
    const suyo = deB.locator('article.comentario', { hasText: '¿Sirve para 2° básico?' });
    await suyo.getByRole('button', { name: 'Responder' }).click();
    await deB.getByLabel(/Responder a/).fill('Sí, con ajustes.');
    await suyo.getByRole('button', { name: 'Comentar', exact: true }).click();
    await deB.getByRole('button', { name: 'Ocultar 1 respuesta' }).waitFor();
    await deB.context().close();
    const { data: hilo } = await comoB.api.GET('/api/manuales/comentarios/{id}/', { params: { path: { id: manual.id } } });
    const comentario = hilo?.comentarios_base.find((c) => c.contenido === '¿Sirve para 2° básico?');
    expect(comentario).toBeDefined();
    /** Another reply of B's to A's comment, through the API. */
    const responderComoB = async (contenido: string) => {
      const { response } = await comoB.api.POST('/api/manuales/comentarios/', {
        body: {
          id_usuario: comoB.id,
          contenido,
          id_recurso: manual.id,
          tipo_recurso: 'id_manual',
          id_respuesta_comentario: comentario?.id ?? 0,
        },
      });
      expect(response.status).toBe(201);
    };

    // The tab regains focus: the count refreshes without a reload.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => campana.getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notificaciones: 1 sin leer');
    expect(await campana.locator('.contador').textContent()).toBe('1');

    await page.getByRole('link', { name: 'Notificaciones: 1 sin leer' }).click();
    await page.waitForURL(url('/notificaciones'));
    const texto = `Docente respondió a tu comentario en «${manual.titulo}»`;
    await page.getByRole('link', { name: texto }).click();
    await page.waitForURL(url(`/manuales/${manual.id}#titulo-comentarios`));
    // Following the entry read it: the bell of the page it led to counts nothing.
    expect(await page.locator('a.campana').getAttribute('aria-label')).toBe('Notificaciones: ninguna sin leer');

    // A second reply, read with 'Marcar todas como leídas'.
    await responderComoB('Y también para 3° básico.');
    await page.goto('/notificaciones');
    await page.getByRole('button', { name: 'Marcar todas como leídas' }).click();
    await page.getByText('No tienes notificaciones sin leer.').waitFor();
    expect(await page.locator('a.campana').getAttribute('aria-label')).toBe('Notificaciones: ninguna sin leer');
    expect(await page.getByRole('link', { name: texto }).count()).toBe(2);
    // Someone else's or an unknown entry leads back to the list.
    await page.goto('/notificaciones/abrir/999999');
    await page.waitForURL(url('/notificaciones'));

    // A page left open past the access token's 15 minutes: the bell renews the session itself.
    await page.context().clearCookies({ name: 'ed_access' });
    await responderComoB('Y para 4° básico, con otra guía.');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => page.locator('a.campana').getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notificaciones: 1 sin leer');
    expect((await page.context().cookies()).some((c) => c.name === 'ed_access')).toBe(true);

    await page.goto('/perfil/editar#correos');
    const seccion = page.getByRole('region', { name: 'Correos de notificaciones' });
    expect(await seccion.getByLabel('Resumen diario').isChecked()).toBe(true);
    await seccion.getByLabel('Nunca').check();
    await seccion.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Preferencia guardada.').waitFor();
    expect(await page.getByRole('region', { name: 'Correos de notificaciones' }).getByLabel('Nunca').isChecked()).toBe(true);
    const comoA = await apiComo(a);
    const { data: preferencias } = await comoA.api.GET('/api/usuarios/{id}/preferencias/', { params: { path: { id: comoA.id } } });
    expect(preferencias).toEqual({ preferencia_correo: 'nunca', ahorro_datos: false, oculto_directorio: false });
  });
});
