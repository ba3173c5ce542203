/**
 * Reports and moderation in Chromium (issue 17): teacher B comments on a manual; three colleagues
 * report the comment through 'Denunciar' (the third report hides it); it is gone for the others
 * while B still reads it with the notice; an admin restores it from /admin/moderacion with a
 * reason; it shows again, B's notifications say so, and reporting it twice says
 * 'Ya denunciaste este contenido.'. In the forum, a reported comment is deleted from the queue
 * after a confirmation. A hidden item tells its author why (reports awaiting review, or an
 * admin's decision) and carries an 'Oculto' badge in the lists of those who still see it.
 */
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { abrirComo, apiComo, correoNuevo, docenteActivo, hidratada, navegador, url, violacionesGraves } from './helpers.ts';

let browser: Browser;
const autora = { email: correoNuevo('moderacion.b'), password: 'Docente2026' };
const r1 = { email: correoNuevo('moderacion.r1'), password: 'Docente2026' };
const r2 = { email: correoNuevo('moderacion.r2'), password: 'Docente2026' };
const r3 = { email: correoNuevo('moderacion.r3'), password: 'Docente2026' };
const denunciantes = [r1, r2, r3];

beforeAll(async () => {
  browser = await navegador();
  for (const docente of [autora, ...denunciantes]) await docenteActivo(docente.email, docente.password);
});
afterAll(async () => {
  await browser?.close();
});

async function manualPorApi(): Promise<{ id: number; titulo: string }> {
  const { api } = await apiComo();
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const titulo = `Manual denunciado ${Date.now().toString(36)}`;
  const { data, response } = await api.POST('/api/manuales/', {
    body: { titulo, descripcion: 'Un manual.', id_area: areas[0]?.id ?? 0, archivo: 'manual.pdf' },
    bodySerializer: multipart({ data: pdf(1), name: 'manual.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
  return { id: data?.id ?? 0, titulo };
}

async function conversacionPorApi(): Promise<{ pagina: string; titulo: string; idComentario: number; id: number; idCategoria: number }> {
  const admin = await apiComo();
  const imagen = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#5fb3a1' } })
    .png()
    .toBuffer();
  const { data: categoria } = await admin.api.POST('/api/foro/categorias/', {
    body: { nombre: `Moderación ${Date.now()}`, descripcion: 'Conversaciones', activa: true, archivo: 'imagen.png' },
    bodySerializer: multipart({ data: imagen, name: 'imagen.png', type: 'image/png' }),
  });
  const idCategoria = categoria?.id ?? 0;
  const comoB = await apiComo(autora);
  const titulo = `Tareas para la casa ${Date.now().toString(36)}`;
  const { data: conversacion } = await comoB.api.POST('/api/foro/conversacion/nueva/', {
    body: { id_usuario: comoB.id, id_categoria: idCategoria, titulo, contenido: '¿Cuántas tareas dan?' },
  });
  const base = { id_conversacion: conversacion?.id ?? 0, id_categoria: idCategoria };
  const { data: comentario } = await comoB.api.POST('/api/foro/conversacion/comentar/', {
    body: { ...base, contenido: 'Nunca más de una por semana.' },
  });
  return {
    pagina: `/foro/categorias/${idCategoria}/conversacion/${base.id_conversacion}`,
    titulo,
    idComentario: comentario?.id ?? 0,
    id: base.id_conversacion,
    idCategoria,
  };
}

/** The three colleagues report the item through the API (the third report hides it); the last report's id. */
async function ocultarPorDenuncias(tipo: 'conversacion' | 'manual', id: number): Promise<number> {
  let ultima = 0;
  for (const docente of denunciantes) {
    const { api } = await apiComo(docente);
    const { data, response } = await api.POST('/api/denuncias/', { body: { tipo, id, motivo: 'spam' } });
    expect(response.status).toBe(201);
    ultima = data?.id ?? 0;
  }
  return ultima;
}

/** The manual's page as this person sees it, once its comments have loaded. */
async function paginaDelManual(credenciales: { email: string; password: string }, idManual: number): Promise<Page> {
  const page = await abrirComo(browser, credenciales);
  await page.goto(url(`/manuales/${idManual}`));
  await hidratada(page);
  await page.locator('.conteo-comentarios').waitFor();
  return page;
}

/** Reports B's comment through its dialog; answers what the dialog then says. */
async function denunciarComentario(page: Page, motivo: string, detalle: string) {
  await page
    .getByRole('article', { name: /^Comentario de / })
    .getByRole('button', { name: 'Denunciar' })
    .click();
  const dialogo = page.getByRole('dialog', { name: '¿Por qué denuncias este contenido?' });
  await dialogo.getByLabel(motivo, { exact: true }).check();
  await dialogo.getByLabel('Detalle (opcional)').fill(detalle);
  await dialogo.getByRole('button', { name: 'Enviar denuncia' }).click();
  // The answer: thanks, or the server's sentence.
  // Its title changes with thanks ('Denuncia enviada'): the open dialog, whatever its name.
  const respuesta = page.getByRole('dialog').locator('[role="status"], [role="alert"]');
  await respuesta.waitFor();
  return respuesta.textContent();
}

describe('reports and moderation', () => {
  it('three reports hide a comment; an admin restores it from /admin/moderacion and its author is told', async () => {
    const manual = await manualPorApi();
    const comoB = await apiComo(autora);
    const texto = `Compren mis guías en oferta ${Date.now().toString(36)}`;
    const { response } = await comoB.api.POST('/api/manuales/comentarios/', {
      body: { id_usuario: comoB.id, contenido: texto, id_recurso: manual.id, tipo_recurso: 'id_manual' },
    });
    expect(response.status).toBe(201);

    // The first colleague: the page's own 'Denunciar' opens the same dialog (and Cancelar closes
    // it); a report without a reason says so before anything is sent.
    const primera = await paginaDelManual(r1, manual.id);
    await primera.getByRole('button', { name: 'Denunciar este manual' }).click();
    const delManual = primera.getByRole('dialog', { name: '¿Por qué denuncias este contenido?' });
    await delManual.getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => delManual.count()).toBe(0);
    await primera
      .getByRole('article', { name: /^Comentario de / })
      .getByRole('button', { name: 'Denunciar' })
      .click();
    const vacio = primera.getByRole('dialog', { name: '¿Por qué denuncias este contenido?' });
    await vacio.getByRole('button', { name: 'Enviar denuncia' }).click();
    await vacio.getByText('Elige un motivo').waitFor();
    expect(await violacionesGraves(primera)).toEqual([]);
    await vacio.getByRole('button', { name: 'Cancelar' }).click();

    const motivos = ['Spam o publicidad', 'Ofensivo', 'Spam o publicidad'];
    for (const [i, docente] of denunciantes.entries()) {
      const page = i === 0 ? primera : await paginaDelManual(docente, manual.id);
      expect(await denunciarComentario(page, motivos[i] ?? 'Otro', `Publicidad ${i + 1}`)).toBe(
        'Gracias. Un administrador revisará tu denuncia.',
      );
      await page.getByRole('dialog', { name: 'Denuncia enviada' }).getByRole('button', { name: 'Aceptar' }).click();
    }

    // Hidden: gone for the colleagues (a comment without replies is left out), kept for its author.
    const otra = await paginaDelManual(r1, manual.id);
    await otra.getByText('Aún no hay comentarios. ¡Escribe el primero!').waitFor();
    expect(await otra.getByText(texto).count()).toBe(0);
    const deB = await paginaDelManual(autora, manual.id);
    await deB.getByText(texto).waitFor();
    await deB.getByText('Oculto por moderación: solo tú y los administradores lo ven.').waitFor();
    expect(
      await deB
        .getByRole('article', { name: /^Comentario de / })
        .getByRole('button', { name: 'Denunciar' })
        .count(),
    ).toBe(0);

    // The queue is for admins only.
    await deB.goto(url('/admin/moderacion'));
    await deB.getByRole('heading', { name: 'No tienes permisos' }).waitFor();

    const admin = await abrirComo(browser);
    await admin.goto(url('/admin/moderacion'));
    await hidratada(admin);
    await admin.getByRole('link', { name: 'Moderación' }).and(admin.locator('[aria-current="page"]')).waitFor();
    // The console's menu counts the items awaiting a decision (other tests may have reported some too).
    expect(await admin.locator('.menu-admin .contador-admin').textContent()).toMatch(/^[1-9]\d* por revisar$/);
    const tarjeta = admin.getByRole('article', { name: manual.titulo });
    await tarjeta.getByText('Comentario', { exact: true }).waitFor();
    await tarjeta.getByText('Oculto', { exact: true }).waitFor();
    await tarjeta.getByText('3 denuncias').waitFor();
    await tarjeta.getByText(texto).waitFor();
    expect(
      await tarjeta
        .getByRole('list', { name: /^Denuncias de / })
        .getByRole('listitem')
        .count(),
    ).toBe(3);
    await tarjeta.getByText('Publicidad 2').waitFor();
    expect(await violacionesGraves(admin)).toEqual([]);
    expect(await tarjeta.getByRole('link', { name: 'Ver en su página' }).getAttribute('href')).toContain(`/manuales/${manual.id}`);
    const motivo = 'Es una recomendación de material, no publicidad.';
    await tarjeta.getByLabel('Motivo (se le comunicará a la persona)').fill(motivo);
    await tarjeta.getByRole('button', { name: /^Restaurar/ }).click();
    await tarjeta.getByText('Restaurado.').waitFor();

    // Out of the open list; under 'Resueltas' with the decision.
    await admin.reload();
    expect(await admin.getByRole('article', { name: manual.titulo }).count()).toBe(0);
    await admin.getByRole('link', { name: 'Resueltas' }).click();
    const resuelta = admin.getByRole('article', { name: manual.titulo });
    await resuelta.getByText('Restaurado', { exact: true }).waitFor();
    await resuelta.getByText(`Motivo: ${motivo}`).waitFor();
    // And in the audit log, in words.
    await admin.goto(url('/admin/registro'));
    await admin.getByRole('cell', { name: 'Moderación: restaurar' }).first().waitFor();

    // Visible again for the colleagues.
    const otraVez = await paginaDelManual(r2, manual.id);
    await otraVez.getByText(texto).waitFor();

    // B is told, with the reason.
    await deB.goto(url('/notificaciones'));
    await deB.getByRole('link', { name: `Tu comentario en «${manual.titulo}» fue restaurado. Motivo: ${motivo}` }).waitFor();
    expect(await deB.locator('a.campana').getAttribute('aria-label')).not.toBe('Notificaciones: ninguna sin leer');

    // A second report of the same comment by the same person is refused with the server's sentence.
    const repetida = await paginaDelManual(r1, manual.id);
    expect(await denunciarComentario(repetida, 'Otro', 'Otra vez')).toBe('Ya denunciaste este contenido.');
  });

  it('a forum comment reported once is deleted from /admin/moderacion after a confirmation', async () => {
    const { pagina, titulo } = await conversacionPorApi();
    // B's own conversation and comment have no 'Denunciar'.
    const deB = await abrirComo(browser, autora);
    await deB.goto(url(pagina));
    await hidratada(deB);
    await deB.getByText('Nunca más de una por semana.').waitFor();
    expect(await deB.getByRole('button', { name: /^Denunciar/ }).count()).toBe(0);

    const page = await abrirComo(browser, r2);
    await page.goto(url(pagina));
    await hidratada(page);
    await page.getByRole('button', { name: 'Denunciar esta conversación' }).waitFor();
    const comentario = page.getByRole('article', { name: /^Comentario de / });
    await comentario.getByRole('button', { name: 'Denunciar' }).click();
    const dialogo = page.getByRole('dialog', { name: '¿Por qué denuncias este contenido?' });
    await dialogo.getByLabel('Ofensivo', { exact: true }).check();
    await dialogo.getByRole('button', { name: 'Enviar denuncia' }).click();
    await page.getByRole('dialog', { name: 'Denuncia enviada' }).waitFor();

    const admin = await abrirComo(browser);
    await admin.goto(url('/admin/moderacion'));
    await hidratada(admin);
    const tarjeta = admin.getByRole('article', { name: `Comentario en «${titulo}»` });
    await tarjeta.getByText('1 denuncia', { exact: true }).waitFor();
    await tarjeta.getByRole('button', { name: /^Eliminar/ }).click();
    const confirmar = admin.getByRole('dialog', { name: 'Eliminar contenido denunciado' });
    await confirmar.getByText(`¿Eliminar el comentario en «${titulo}»?`, { exact: false }).waitFor();
    await confirmar.getByRole('button', { name: 'Eliminar' }).click();
    await tarjeta.getByText('Eliminado.').waitFor();

    await page.reload();
    await hidratada(page);
    await page.getByText('0 comentarios').waitFor();
    expect(await page.getByText('Nunca más de una por semana.').count()).toBe(0);
  });

  it("a hidden item tells its author why, by reports or by an admin's decision, with an 'Oculto' badge in lists", async () => {
    const conversacion = await conversacionPorApi();
    const idDenuncia = await ocultarPorDenuncias('conversacion', conversacion.id);
    const porDenuncias =
      'Este contenido está oculto: varias personas lo denunciaron y un administrador lo revisará. Solo tú y los administradores pueden verlo.';
    const porAdmin =
      'Este contenido está oculto: un administrador revisó las denuncias y decidió ocultarlo. Solo tú y los administradores pueden verlo.';

    const deB = await abrirComo(browser, autora);
    await deB.goto(url(conversacion.pagina));
    await deB.getByRole('note').filter({ hasText: porDenuncias }).waitFor();
    // Listed for her with the badge; absent for a colleague.
    await deB.goto(url(`/foro/categorias/${conversacion.idCategoria}`));
    const enLista = deB.getByRole('listitem').filter({ has: deB.getByRole('link', { name: conversacion.titulo }) });
    expect(await enLista.locator('.insignia-oculto').textContent()).toBe('Oculto');
    const otra = await abrirComo(browser, r1);
    await otra.goto(url(`/foro/categorias/${conversacion.idCategoria}`));
    await otra.getByText('No se encontraron conversaciones').waitFor();

    const admin = await abrirComo(browser);
    await admin.goto(url(conversacion.pagina));
    await admin.getByRole('note').filter({ hasText: 'Oculto por denuncias, a la espera de revisión.' }).waitFor();

    // An admin decides to keep it hidden: the notice says so.
    const comoAdmin = await apiComo();
    const { response } = await comoAdmin.api.POST('/api/admin/denuncias/{id}/resolver/', {
      params: { path: { id: idDenuncia } },
      body: { accion: 'ocultar' },
    });
    expect(response.status).toBe(200);
    await deB.goto(url(conversacion.pagina));
    await deB.getByRole('note').filter({ hasText: porAdmin }).waitFor();
    expect(await deB.getByText(porDenuncias).count()).toBe(0);
    await admin.reload();
    await admin.getByRole('note').filter({ hasText: 'Oculto por decisión de un administrador.' }).waitFor();

    // A card of a hidden manual carries the badge for the admins who still list it.
    const manual = await manualPorApi();
    await ocultarPorDenuncias('manual', manual.id);
    await admin.goto(url(`/manuales/?${new URLSearchParams({ titulo: manual.titulo })}`));
    const tarjeta = admin.locator('.tarjeta-contenido').filter({ has: admin.getByRole('link', { name: manual.titulo }) });
    await tarjeta
      .getByRole('listitem')
      .filter({ hasText: /^Oculto$/ })
      .waitFor();
    expect(await violacionesGraves(admin)).toEqual([]);
  });
});
