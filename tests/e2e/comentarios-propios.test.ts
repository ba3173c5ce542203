/**
 * Own words in Chromium (issue 17): a teacher edits their comment on a manual and sees '(editado)';
 * a colleague replies; the first deletes theirs and sees 'Comentario eliminado' with the reply kept;
 * a comment without replies goes. The same on a forum comment, and the conversation itself is
 * edited ('(editado)') and deleted with confirmation, back to its category. Their Editar and Eliminar
 * read at 4.5:1 or more in every state (issue 33). The count under the title follows each new or
 * deleted comment without a reload (issue 33).
 */

import type { Browser, Locator } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/form.ts';
import {
  ANCHOS,
  abrirComo,
  apiComo,
  correoNuevo,
  docenteActivo,
  hidratada,
  manualPorApi,
  navegador,
  url,
  violacionesGraves,
} from './helpers.ts';

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
    const idManual = await manualPorApi('Manual para comentar');
    const page = await abrirComo(browser, ana);
    await page.goto(url(`/manuales/${idManual}`));
    await hidratada(page);
    await page.getByText(/Aún no hay comentarios/).waitFor();
    // The figures under the title count the comments too, and follow a new one at once (issue 33).
    const cifra = page.locator('ul.cifras-contenido #cifra-comentarios');
    expect(await cifra.textContent()).toBe('0 comentarios');
    await page.getByLabel('Escribe un comentario').fill('Primera versión');
    await page.getByRole('button', { name: 'Comentar' }).click();
    const comentario = page.locator('article.comentario', { hasText: 'Primera versión' });
    await comentario.waitFor();
    await expect.poll(() => cifra.textContent()).toBe('1 comentario');

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
    await expect.poll(() => cifra.textContent()).toBe('2 comentarios');
    await solo.getByRole('button', { name: /^Eliminar comentario de / }).click();
    await page.getByRole('dialog', { name: 'Eliminar comentario' }).getByRole('button', { name: 'Eliminar' }).click();
    await expect.poll(() => page.locator('article.comentario', { hasText: 'Sin respuestas' }).count()).toBe(0);
    await expect.poll(() => cifra.textContent()).toBe('1 comentario');
    // Luis sees no Editar or Eliminar on Ana's comments.
    const deLuis = await abrirComo(browser, luis);
    await deLuis.goto(url(`/manuales/${idManual}`));
    await hidratada(deLuis);
    await deLuis.locator('p.comentario-eliminado').waitFor();
    expect(await deLuis.getByRole('button', { name: /^Eliminar comentario de / }).count()).toBe(0);
  });
});

describe('the count under the title (issue 33)', () => {
  it.each(ANCHOS)('follows a new comment at once, %s', async (_, viewport) => {
    const idManual = await manualPorApi('Manual para comentar');
    const page = await abrirComo(browser, luis, viewport);
    await page.goto(url(`/manuales/${idManual}`));
    const cifra = page.locator('ul.cifras-contenido #cifra-comentarios');
    expect(await cifra.textContent()).toBe('0 comentarios');
    // The comments' island wakes when it comes into view (below the fold on a phone).
    await page.getByLabel('Escribe un comentario').scrollIntoViewIfNeeded();
    await hidratada(page);
    await page.getByLabel('Escribe un comentario').fill('¿Sirve para 3° básico?');
    await page.getByRole('button', { name: 'Comentar' }).click();
    await expect.poll(() => cifra.textContent()).toBe('1 comentario');
    // The figures sit above the comments: on a phone they are read after scrolling back up.
    await cifra.scrollIntoViewIfNeeded();
    expect(await cifra.isVisible()).toBe(true);
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

/** WCAG's relative luminance of an sRGB colour given as [r, g, b] in 0–255. */
function luminancia([r, g, b]: number[]): number {
  const canal = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * canal(r ?? 0) + 0.7152 * canal(g ?? 0) + 0.0722 * canal(b ?? 0);
}
const contraste = (a: number[], b: number[]) => {
  const [l1, l2] = [luminancia(a), luminancia(b)].sort((x, y) => y - x);
  return ((l1 ?? 0) + 0.05) / ((l2 ?? 0) + 0.05);
};

/**
 * The button's computed text colour and the background it is drawn on (its own, or through its
 * transparent parts the nearest painted ancestor's, composited over white), once transitions end.
 */
function colores(boton: Locator): Promise<{ texto: number[]; fondo: number[] }> {
  return boton.evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((a) => a.finished));
    const rgba = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const capas: number[][] = [];
    for (let e: Element | null = el; e; e = e.parentElement) {
      const [r = 0, g = 0, b = 0, a = 1] = rgba(getComputedStyle(e).backgroundColor);
      if (a > 0) capas.push([r, g, b, a]);
      if (a >= 1) break;
    }
    let fondo = [255, 255, 255];
    for (const [r = 0, g = 0, b = 0, a = 1] of capas.reverse()) fondo = [r, g, b].map((c, i) => c * a + (fondo[i] ?? 0) * (1 - a));
    const [r = 0, g = 0, b = 0, a = 1] = rgba(getComputedStyle(el).color);
    return { texto: [r, g, b].map((c, i) => c * a + (fondo[i] ?? 0) * (1 - a)), fondo };
  });
}

describe('own actions are readable in every state (issue 33)', () => {
  it.each(ANCHOS)('Editar and Eliminar on a forum comment and a conversation, %s', async (_, viewport) => {
    const idCategoria = await categoriaPorApi();
    const autora = await apiComo(ana);
    const { data: conversacion } = await autora.api.POST('/api/foro/conversacion/nueva/', {
      body: { id_usuario: autora.id, id_categoria: idCategoria, titulo: 'Contraste de acciones', contenido: 'Una conversación' },
    });
    await autora.api.POST('/api/foro/conversacion/comentar/', {
      body: { id_conversacion: conversacion?.id ?? 0, id_categoria: idCategoria, contenido: 'Un comentario propio' },
    });
    const page = await abrirComo(browser, ana, viewport);
    await page.goto(url(`/foro/categorias/${idCategoria}/conversacion/${conversacion?.id ?? 0}`));
    await hidratada(page);
    const comentario = page.locator('article.comentario', { hasText: 'Un comentario propio' });
    const botones = {
      'Editar comentario': comentario.getByRole('button', { name: /^Editar comentario de / }),
      'Eliminar comentario': comentario.getByRole('button', { name: /^Eliminar comentario de / }),
      'Editar conversación': page.getByRole('button', { name: 'Editar conversación Contraste de acciones' }),
      'Eliminar conversación': page.getByRole('button', { name: 'Eliminar conversación Contraste de acciones' }),
    };
    await botones['Eliminar comentario'].waitFor();
    expect(await violacionesGraves(page)).toEqual([]);

    const medidas: string[] = [];
    const medir = async (nombre: string, estado: string, boton: Locator) => {
      const { texto, fondo } = await colores(boton);
      const ratio = contraste(texto, fondo);
      if (ratio < 4.5) medidas.push(`${nombre} (${estado}): ${ratio.toFixed(2)}:1, rgb(${texto}) sobre rgb(${fondo})`);
    };
    for (const [nombre, boton] of Object.entries(botones)) {
      await boton.scrollIntoViewIfNeeded();
      await page.mouse.move(0, 0);
      await medir(nombre, 'normal', boton);
      await boton.hover();
      await medir(nombre, 'hover', boton);
      // Pressed, then released elsewhere so nothing is clicked.
      await page.mouse.down();
      await medir(nombre, 'active', boton);
      await page.mouse.move(0, 0);
      await page.mouse.up();
      await boton.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      expect(await boton.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
      await medir(nombre, 'focus-visible', boton);
      await page.locator('h1').click();
    }
    expect(medidas).toEqual([]);
  });
});
