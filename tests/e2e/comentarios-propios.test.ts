/**
 * Own words in Chromium (issue 17): a teacher edits their comment on a manual and sees '(editado)';
 * a colleague replies; the first deletes theirs and sees 'Comentario eliminado' with the reply kept;
 * a comment without replies goes. The same on a forum comment, and the conversation itself is
 * edited ('(editado)') and deleted with confirmation, back to its category.
 */

import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { abrirComo, apiComo, correoNuevo, docenteActivo, hidratada, navegador, url } from './helpers.ts';

let browser: Browser;
const ana = { email: correoNuevo('propios.ana'), password: 'Docente2026' };
const luis = { email: correoNuevo('propios.luis'), password: 'Docente2026' };

beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(ana.email, ana.password);
  await docenteActivo(luis.email, luis.password);
});
afterAll(async () => {
  await browser?.close();
});

async function manualPorApi(): Promise<number> {
  const { api } = await apiComo();
  const { data: areas = [] } = await api.GET('/api/curriculum_escolar/areas/');
  const { data, response } = await api.POST('/api/manuales/', {
    body: { titulo: 'Manual para comentar', descripcion: 'Un manual', id_area: areas[0]?.id ?? 0, archivo: 'manual.pdf' },
    bodySerializer: multipart({ data: pdf(1), name: 'manual.pdf', type: 'application/pdf' }),
  });
  expect(response.status).toBe(201);
  return data?.id ?? 0;
}

async function categoriaPorApi(): Promise<number> {
  const admin = await apiComo();
  const imagen = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#5fb3a1' } })
    .png()
    .toBuffer();
  const { data, response } = await admin.api.POST('/api/foro/categorias/', {
    body: { nombre: `Propias ${Date.now()}`, descripcion: 'Conversaciones', activa: true, archivo: 'imagen.png' },
    bodySerializer: multipart({ data: imagen, name: 'imagen.png', type: 'image/png' }),
  });
  expect(response.status).toBe(201);
  return data?.id ?? 0;
}

describe('own comments on a manual', () => {
  it("edits ('(editado)'), deletes a comment with a reply (placeholder) and one without (it goes)", async () => {
    const idManual = await manualPorApi();
    const page = await abrirComo(browser, ana);
    await page.goto(url(`/manuales/${idManual}`));
    await hidratada(page);
    await page.getByText(/Aún no hay comentarios/).waitFor();
    await page.getByLabel('Escribe un comentario').fill('Primera versión');
    await page.getByRole('button', { name: 'Comentar' }).click();
    const comentario = page.locator('article.comentario', { hasText: 'Primera versión' });
    await comentario.waitFor();

    // Editar turns the comment into its box, in place.
    await comentario.getByRole('button', { name: /^Editar comentario de / }).click();
    const caja = page.getByRole('textbox', { name: /^Editar comentario de / });
    expect(await caja.inputValue()).toBe('Primera versión');
    await caja.fill('Segunda versión');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => caja.count()).toBe(0);
    const editado = page.locator('article.comentario', { hasText: 'Segunda versión' });
    await editado.waitFor();
    expect(await editado.textContent()).toContain('(editado)');

    // A colleague replies.
    const colega = await apiComo(luis);
    const { data: lista } = await colega.api.GET('/api/manuales/comentarios/{id}/', { params: { path: { id: idManual } } });
    const idComentario = lista?.comentarios_base[0]?.id ?? 0;
    const { response } = await colega.api.POST('/api/manuales/comentarios/', {
      body: {
        id_usuario: colega.id,
        contenido: 'Respuesta de Luis',
        id_recurso: idManual,
        tipo_recurso: 'id_manual',
        id_respuesta_comentario: idComentario,
      },
    });
    expect(response.status).toBe(201);
    await page.reload();
    await hidratada(page);
    const conRespuesta = page.locator('article.comentario', { hasText: 'Segunda versión' });
    await conRespuesta.waitFor();

    // Eliminar asks first; the comment stays as 'Comentario eliminado' over its reply.
    await conRespuesta.getByRole('button', { name: /^Eliminar comentario de / }).click();
    const dialogo = page.getByRole('dialog', { name: 'Eliminar comentario' });
    await dialogo.waitFor();
    await dialogo.getByRole('button', { name: 'Eliminar' }).click();
    await page.locator('p.comentario-eliminado', { hasText: 'Comentario eliminado' }).waitFor();
    await expect.poll(() => page.locator('article.comentario', { hasText: 'Segunda versión' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Ver 1 respuesta' }).click();
    await page.locator('article.comentario', { hasText: 'Respuesta de Luis' }).waitFor();
    expect(await page.locator('.conteo-comentarios').textContent()).toContain('1');

    // A comment without replies goes altogether.
    await page.getByLabel('Escribe un comentario').fill('Sin respuestas');
    await page.getByRole('button', { name: 'Comentar' }).click();
    const solo = page.locator('article.comentario', { hasText: 'Sin respuestas' });
    await solo.waitFor();
    await solo.getByRole('button', { name: /^Eliminar comentario de / }).click();
    await page.getByRole('dialog', { name: 'Eliminar comentario' }).getByRole('button', { name: 'Eliminar' }).click();
    await expect.poll(() => page.locator('article.comentario', { hasText: 'Sin respuestas' }).count()).toBe(0);
    // Luis sees no Editar or Eliminar on Ana's comments.
    const deLuis = await abrirComo(browser, luis);
    await deLuis.goto(url(`/manuales/${idManual}`));
    await hidratada(deLuis);
    await deLuis.locator('p.comentario-eliminado').waitFor();
    expect(await deLuis.getByRole('button', { name: /^Eliminar comentario de / }).count()).toBe(0);
  });
});

describe('own words in the forum', () => {
  it('edits and deletes a forum comment, then edits and deletes the conversation', async () => {
    const idCategoria = await categoriaPorApi();
    const autora = await apiComo(ana);
    const { data: conversacion } = await autora.api.POST('/api/foro/conversacion/nueva/', {
      body: { id_usuario: autora.id, id_categoria: idCategoria, titulo: 'Rúbricas en primero básico', contenido: 'Compartamos **ideas**' },
    });
    const pagina = `/foro/categorias/${idCategoria}/conversacion/${conversacion?.id ?? 0}`;
    const page = await abrirComo(browser, ana);
    await page.goto(url(pagina));
    await hidratada(page);

    await page.getByLabel('Añadir comentario').fill('Uso una escala de colores');
    await page.getByRole('button', { name: 'Comentar' }).click();
    const comentario = page.locator('article.comentario', { hasText: 'Uso una escala de colores' });
    await comentario.waitFor();
    await comentario.getByRole('button', { name: /^Editar comentario de / }).click();
    await page.getByRole('textbox', { name: /^Editar comentario de / }).fill('Uso una escala de tres colores');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: /^Editar comentario de / }).count()).toBe(0);
    const editado = page.locator('article.comentario', { hasText: 'Uso una escala de tres colores' });
    await editado.waitFor();
    expect(await editado.textContent()).toContain('(editado)');
    // The server renders '(editado)' too.
    await page.reload();
    await hidratada(page);
    expect(await page.locator('article.comentario', { hasText: 'tres colores' }).textContent()).toContain('(editado)');

    await page
      .locator('article.comentario', { hasText: 'tres colores' })
      .getByRole('button', { name: /^Eliminar comentario de / })
      .click();
    await page.getByRole('dialog', { name: 'Eliminar comentario' }).getByRole('button', { name: 'Eliminar' }).click();
    await expect.poll(() => page.locator('article.comentario').count()).toBe(0);
    expect(await page.locator('#titulo-comentarios').textContent()).toBe('0 comentarios');

    // The conversation: edit the title and content, then delete it and land on the category.
    await page.getByRole('button', { name: 'Editar conversación Rúbricas en primero básico' }).click();
    const edicion = page.getByRole('dialog', { name: 'Editar conversación' });
    expect(await edicion.getByLabel('Título').inputValue()).toBe('Rúbricas en primero básico');
    await edicion.getByLabel('Título').fill('Rúbricas en segundo básico');
    await edicion.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Rúbricas en segundo básico');
    expect(await page.locator('.autor-bloque').textContent()).toContain('(editado)');
    await hidratada(page);
    await page.getByRole('button', { name: 'Eliminar conversación Rúbricas en segundo básico' }).click();
    await page.getByRole('dialog', { name: 'Eliminar conversación' }).getByRole('button', { name: 'Eliminar' }).click();
    await page.waitForURL((u) => u.pathname.replace(/\/$/, '') === `/foro/categorias/${idCategoria}`);
    expect(await page.getByText('Rúbricas en segundo básico').count()).toBe(0);
  });
});
