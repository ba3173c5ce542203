/**
 * The forum in Chromium (docs/SPEC.md sections 2, 4, 5, 8): an admin creates and edits a
 * category with an image and switches between Visualizar and Editar; a teacher starts a
 * conversation, reacts, comments, replies in depth and filters by dates with every date message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/form.ts';
import {
  ANCHOS,
  abrir,
  apiComo,
  avisos,
  correoNuevo,
  docenteActivo,
  ingresar,
  mensajeDe,
  navegador,
  responder,
  retener,
  url,
  violacionesGraves,
} from './helpers.ts';

let browser: Browser;
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-foro-e2e-'));
const archivo = (nombre: string) => path.join(carpeta, nombre);
const CLAVE_DOCENTE = 'Docente2026';
let docente: string;

/** Creates a category through the API, as the admin's form would. */
async function categoriaPorApi(nombre: string, activa = true): Promise<number> {
  const admin = await apiComo();
  const imagen = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#5fb3a1' } })
    .png()
    .toBuffer();
  const { data, response } = await admin.api.POST('/api/foro/categorias/', {
    body: { nombre, descripcion: `Conversaciones sobre ${nombre.toLowerCase()}`, activa, archivo: 'imagen.png' },
    bodySerializer: multipart({ data: imagen, name: 'imagen.png', type: 'image/png' }),
  });
  expect(response.status).toBe(201);
  return data?.id ?? 0;
}

const hoy = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
const diasDesdeHoy = (dias: number) => {
  const fecha = new Date(`${hoy()}T12:00:00Z`);
  fecha.setUTCDate(fecha.getUTCDate() + dias);
  return fecha.toISOString().slice(0, 10);
};

beforeAll(async () => {
  browser = await navegador();
  const jpg = await sharp({ create: { width: 1200, height: 700, channels: 3, background: '#1d5fa8' } })
    .jpeg()
    .toBuffer();
  const png = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#f2b705' } })
    .png()
    .toBuffer();
  writeFileSync(archivo('portada.jpg'), jpg);
  writeFileSync(archivo('nueva.png'), png);
  writeFileSync(archivo('no-es-imagen.png'), 'texto plano con nombre de imagen');
  docente = correoNuevo('foro.docente');
  await docenteActivo(docente, CLAVE_DOCENTE);
});
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

/** The date messages come after a pause in typing and the rules' chunk: wait for them, then read. */
async function mensajeFecha(page: Page, etiqueta: 'Desde' | 'Hasta'): Promise<string> {
  await expect.poll(() => page.getByLabel(etiqueta).getAttribute('aria-invalid'), { timeout: 5000 }).toBe('true');
  return mensajeDe(page, etiqueta);
}

/** On a phone a category's search waits behind 'Filtros' (decision 0056): open it, as a person would. */
async function abrirFiltros(page: Page): Promise<void> {
  const filtros = page.locator('details.filtros-movil');
  if ((await filtros.isVisible()) && (await filtros.getAttribute('open')) === null) await filtros.locator('summary').click();
}

async function imagenCargada(page: Page, selector: string): Promise<number> {
  const imagen = page.locator(selector).first();
  await expect
    .poll(() => imagen.evaluate((img) => (img instanceof HTMLImageElement && img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  return imagen.evaluate((img) => (img instanceof HTMLImageElement ? img.naturalWidth : 0));
}

describe('admin: categories', () => {
  it('creates a category with an image, edits it, and toggles Visualizar / Editar', async () => {
    const page = await abrir(browser);
    await ingresar(page);
    await page.goto('/foro/');
    await page.getByRole('link', { name: 'Crear categoria' }).click();
    await page.waitForURL(url('/foro/categorias/crear'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Crear categoria');
    expect(await page.getByLabel('Activa').inputValue()).toBe('false');
    await expect.poll(() => page.getByRole('button', { name: 'Guardar' }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Guardar' }).click();
    expect(await mensajeDe(page, 'Nombre')).toBe('Debe ingresar un nombre');
    expect(await mensajeDe(page, 'Descripción')).toBe('Puede ingresar una descripción');
    expect(await mensajeDe(page, 'Imagen')).toBe('Debe subir una imagen para la categoria');
    await page.getByLabel('Imagen').setInputFiles({ name: 'animacion.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect.poll(() => mensajeDe(page, 'Imagen')).toBe('El archivo no es válido. Debe subir un archivo png o jpg.');

    const nombre = `Evaluación formativa ${Date.now()}`;
    await page.getByLabel('Nombre').fill(nombre);
    await page.getByLabel('Descripción').fill('Retroalimentación y evidencias de aprendizaje en el aula.');
    await page.getByLabel('Activa').selectOption('true');
    await page.getByLabel('Imagen').setInputFiles(archivo('portada.jpg'));
    await expect.poll(() => page.locator('#archivo-error').count()).toBe(0);
    expect(await imagenCargada(page, '.vista-imagen')).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url('/foro/?modo=editar'));
    await expect.poll(() => avisos(page, 'status')).toContain(`Categoria ${nombre} creada exitosamente!`);

    const tarjeta = page.locator('article.categoria', { hasText: nombre });
    expect(await tarjeta.locator('.estado').textContent()).toBe('Activo');
    expect(await imagenCargada(page, `article.categoria:has-text("${nombre}") img`)).toBe(640);

    // Edit: new name, inactive, a new image.
    await tarjeta.getByRole('link', { name: `Editar ${nombre}` }).click();
    await page.waitForURL(/\/foro\/categorias\/editar\/\d+$/);
    expect(await page.getByLabel('Nombre').inputValue()).toBe(nombre);
    expect(await page.getByLabel('Activa').inputValue()).toBe('true');
    await expect.poll(() => page.getByRole('button', { name: 'Guardar' }).isEnabled()).toBe(true);
    const editado = `${nombre} (borrador)`;
    await page.getByLabel('Nombre').fill(editado);
    await page.getByLabel('Activa').selectOption('false');
    const antes = await page.locator('.vista-imagen').getAttribute('src');
    await page.getByLabel(/^Imagen/).setInputFiles(archivo('nueva.png'));
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url('/foro/?modo=editar'));
    await expect.poll(() => avisos(page, 'status')).toContain(`Categoria ${editado} editada exitosamente!`);
    const editada = page.locator('article.categoria', { hasText: editado });
    expect(await editada.locator('.estado').textContent()).toBe('No activo');
    expect(await editada.locator('img').getAttribute('src')).not.toBe(antes);

    // Visualizar is what teachers see: the inactive category is not there.
    await page.getByRole('link', { name: 'Visualizar' }).click();
    await page.waitForURL(url('/foro/'));
    expect(await page.getByRole('link', { name: 'Visualizar' }).getAttribute('aria-current')).toBe('page');
    expect(await page.locator('article.categoria', { hasText: editado }).count()).toBe(0);
    expect(await page.locator('.estado').count()).toBe(0);
    await page.getByRole('link', { name: 'Editar', exact: true }).click();
    await page.waitForURL(url('/foro/?modo=editar'));
    expect(await page.locator('article.categoria', { hasText: editado }).count()).toBe(1);
  });

  it("searches with 'Buscador' (autocomplete from every name) and says 'No se encontraron categorias'", async () => {
    const nombre = `Convivencia escolar ${Date.now()}`;
    await categoriaPorApi(nombre);
    const page = await abrir(browser);
    await ingresar(page);
    await page.goto('/foro/');
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe('Novedades');
    const opciones = await page.locator('#categorias-todas option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    expect(opciones).toContain(nombre);
    await page.getByLabel('Buscador').fill('convivencia');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/nombre=convivencia/);
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe('Resultados');
    expect(await page.locator('article.categoria h3').allTextContents()).toContain(nombre);
    // The sort searches at once.
    await page.getByLabel('Ordenar por').selectOption('n_conversaciones');
    await page.waitForURL(/order=n_conversaciones/);
    expect(page.url()).toContain('nombre=convivencia');
    await page.getByLabel('Buscador').fill('zzzz inexistente');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/nombre=zzzz/);
    expect(await page.getByText('No se encontraron categorias').isVisible()).toBe(true);
  });
});

describe.each(ANCHOS)('teacher (%s)', (_ancho, viewport) => {
  const practicas = () => categoriaPorApi(`Prácticas de aula ${viewport.width} ${Date.now()}`);

  it("sees no admin controls and 'No tienes permisos' on the category screens", async () => {
    const idCategoria = await practicas();
    const page = await abrir(browser, viewport);
    await ingresar(page, docente, CLAVE_DOCENTE);
    await page.goto('/foro/');
    expect(await page.getByRole('link', { name: 'Crear categoria' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Visualizar' }).count()).toBe(0);
    for (const ruta of ['/foro/categorias/crear', `/foro/categorias/editar/${idCategoria}`]) {
      const respuesta = await page.goto(ruta);
      expect(respuesta?.status()).toBe(403);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No tienes permisos');
      expect(await page.locator('form').count()).toBe(0);
    }
    const oculta = await categoriaPorApi(`Oculta ${viewport.width} ${Date.now()}`, false);
    expect((await page.goto(`/foro/categorias/${oculta}`))?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No se encontró categoria');
  });

  it('starts a conversation, reacts, comments and replies in depth', async () => {
    const idCategoria = await practicas();
    const page = await abrir(browser, viewport);
    await ingresar(page, docente, CLAVE_DOCENTE);
    await page.goto(`/foro/categorias/${idCategoria}`);
    await page.getByRole('link', { name: 'Nuevo post' }).click();
    await page.waitForURL(url(`/foro/categorias/${idCategoria}/conversaciones/nueva`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Nuevo post');
    const publicar = page.getByRole('button', { name: 'Publicar' });
    await expect.poll(() => publicar.isEnabled()).toBe(true);
    // The Markdown editor arrives lazily, with its toolbar in Spanish.
    await expect.poll(() => page.getByRole('button', { name: 'Negrita (Ctrl + B)' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /imagen/i }).count()).toBe(0);

    await publicar.click();
    expect(await mensajeDe(page, 'Título')).toBe('Debe ingresar un titulo');
    expect(await mensajeDe(page, 'Contenido')).toBe('Debe ingresar el contenido de la conversación');
    await page.getByLabel('Título', { exact: true }).fill('x'.repeat(121));
    await page.getByLabel('Título', { exact: true }).blur();
    await expect.poll(() => mensajeDe(page, 'Título')).toBe('Se permiten hasta 120 caractéres');

    // A failure keeps what was written and says so.
    const titulo = `Tickets de salida ${Date.now()}`;
    await page.getByLabel('Título', { exact: true }).fill(titulo);
    await page.getByLabel('Contenido', { exact: true }).fill('Los uso al **cierre** de cada clase:\n\n- tres preguntas\n- dos minutos');
    await page.route('**/api/foro/conversacion/nueva/', responder(500, { detail: 'Error' }));
    await publicar.click();
    await expect.poll(() => avisos(page, 'alert')).toContain('Hubo un error al crear la conversación. Intenteló más tarde.');
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(titulo);
    await page.unroute('**/api/foro/conversacion/nueva/');

    const soltar = await retener(page, '**/api/foro/conversacion/nueva/');
    await publicar.click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Subiendo nueva conversación' }).count()).toBe(1);
    soltar();
    await page.waitForURL(/\/conversacion\/\d+$/);
    await expect.poll(() => avisos(page, 'status')).toContain('Nueva conversación creada');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(titulo);
    expect(await page.locator('.contenido-rico strong').textContent()).toBe('cierre');
    expect(await page.locator('.contenido-rico li').count()).toBe(2);
    expect(await page.getByRole('link', { name: 'Volver' }).getAttribute('href')).toBe(`/foro/categorias/${idCategoria}`);
    expect(await page.getByRole('link', { name: 'Ver perfil' }).getAttribute('href')).toMatch(/^\/perfil\/\d+$/);

    // Reactions toggle per person, with the server's count.
    const granIdea = page.getByRole('button', { name: /^Gran idea/ });
    await expect.poll(() => granIdea.isEnabled()).toBe(true);
    expect(await page.locator('ul.reacciones button').allTextContents()).toEqual([
      'Me gusta0',
      'Gran idea0',
      'Me interesa0',
      'Lo utilizaré0',
      'Me asombra0',
    ]);
    await granIdea.click();
    await expect.poll(() => granIdea.getAttribute('aria-pressed')).toBe('true');
    expect(await granIdea.locator('.conteo').textContent()).toBe('1');
    await page.reload();
    await expect.poll(() => granIdea.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => granIdea.isEnabled()).toBe(true);
    await granIdea.click();
    await expect.poll(() => granIdea.getAttribute('aria-pressed')).toBe('false');
    expect(await granIdea.locator('.conteo').textContent()).toBe('0');
    await granIdea.click();
    await expect.poll(() => granIdea.locator('.conteo').textContent()).toBe('1');

    // The comment box: Comentar and Borrar appear only with text.
    const caja = page.getByLabel('Añadir comentario');
    await caja.scrollIntoViewIfNeeded();
    expect(await page.getByRole('button', { name: 'Comentar', exact: true }).count()).toBe(0);
    await caja.fill('Borrador que no quiero');
    await expect.poll(() => page.getByRole('button', { name: 'Borrar' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Borrar' }).click();
    expect(await caja.inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Comentar', exact: true }).count()).toBe(0);
    await caja.fill('   ');
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    await expect.poll(() => page.getByText('Debe ingresar un comentario').count()).toBe(1);
    await caja.fill('Yo los uso con una escala de colores.');
    await page.getByRole('button', { name: 'Comentar', exact: true }).click();
    const primero = page.locator('article.comentario', { hasText: 'escala de colores' });
    await expect.poll(() => primero.count()).toBe(1);
    expect(await caja.inputValue()).toBe('');
    expect(await page.locator('#titulo-comentarios').textContent()).toBe('1 comentario');

    // Replies to any depth.
    const respuestas = ['¿Cómo registras las respuestas?', 'En una planilla compartida.', '¿La compartes con apoderados?'];
    let padre = primero;
    for (const texto of respuestas) {
      await padre.getByRole('button', { name: 'Responder' }).click();
      const respuesta = padre.getByLabel(/^Responder a /);
      await respuesta.fill(texto);
      await padre.getByRole('button', { name: 'Comentar', exact: true }).click();
      // Published: the box closes and the reply shows under its parent.
      await expect.poll(() => padre.getByLabel(/^Responder a /).count()).toBe(0);
      padre = page.locator('article.comentario', { hasText: texto });
      await expect.poll(() => padre.count()).toBe(1);
    }
    expect(await page.locator('ol.hilo ol.hilo ol.hilo ol.hilo article.comentario').textContent()).toContain(respuestas[2]);
    expect(await page.locator('#titulo-comentarios').textContent()).toBe('4 comentarios');
    // Replies show and hide.
    const ocultar = primero.getByRole('button', { name: 'Ocultar 1 respuesta' });
    await ocultar.click();
    await expect.poll(() => page.locator('article.comentario', { hasText: respuestas[0] }).isVisible()).toBe(false);
    await primero.getByRole('button', { name: 'Ver 1 respuesta' }).click();
    await expect.poll(() => page.locator('article.comentario', { hasText: respuestas[0] }).isVisible()).toBe(true);
    // Comment reactions: Me gusta and Me interesa only.
    const profundo = page.locator('article.comentario', { hasText: respuestas[2] });
    expect(await profundo.locator('button.reaccion').allTextContents()).toEqual(['Me gusta0', 'Me interesa0']);
    await profundo.getByRole('button', { name: /^Me interesa/ }).click();
    await expect.poll(() => profundo.getByRole('button', { name: /^Me interesa/ }).getAttribute('aria-pressed')).toBe('true');
    expect(
      await profundo
        .getByRole('button', { name: /^Me interesa/ })
        .locator('.conteo')
        .textContent(),
    ).toBe('1');

    // After a reload the thread and the reactions come from the server.
    await page.reload();
    expect(await page.locator('ol.hilo ol.hilo ol.hilo ol.hilo article.comentario').textContent()).toContain(respuestas[2]);
    await expect
      .poll(() =>
        page
          .locator('article.comentario', { hasText: respuestas[2] })
          .getByRole('button', { name: /^Me interesa/ })
          .getAttribute('aria-pressed'),
      )
      .toBe('true');
  });

  it('filters conversations by dates with each date message, and sorts at once', async () => {
    const idCategoria = await practicas();
    const page = await abrir(browser, viewport);
    await ingresar(page, docente, CLAVE_DOCENTE);
    const titulo = `Lectura compartida ${viewport.width} ${Date.now()}`;
    const res = await page.evaluate(
      async ({ idCategoria, titulo }) => {
        const token = document.cookie.match(/ed_access=([^;]+)/)?.[1] ?? '';
        const sesion = JSON.parse(document.getElementById('ed-sesion')?.textContent ?? '{}');
        const r = await fetch('/api/foro/conversacion/nueva/', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ id_usuario: sesion.id, id_categoria: idCategoria, titulo, contenido: 'En voz alta' }),
        });
        return r.status;
      },
      { idCategoria, titulo },
    );
    expect(res).toBe(201);
    await page.goto(`/foro/categorias/${idCategoria}`);
    expect(await page.locator('ul.conversaciones h3').allTextContents()).toContain(titulo);
    await abrirFiltros(page);
    const desde = page.getByLabel('Desde');
    const hasta = page.getByLabel('Hasta');

    // A future date: the message, and no search.
    await desde.fill(diasDesdeHoy(2));
    expect(await mensajeFecha(page, 'Desde')).toBe('La fecha ingresada no puede ser superior a hoy');
    expect(new URL(page.url()).search).toBe('');
    // Start after end: both messages.
    await desde.fill(diasDesdeHoy(-3));
    await hasta.fill(diasDesdeHoy(-10));
    expect(await mensajeFecha(page, 'Hasta')).toBe('La fecha de término no puede ser inferior a la de inicio');
    expect(await mensajeDe(page, 'Desde')).toBe('La fecha de inicio no puede ser superior a la de término');
    expect(new URL(page.url()).search).toBe('');

    // A valid range searches by itself: yesterday and before finds nothing of today.
    await desde.fill(diasDesdeHoy(-10));
    await hasta.fill(diasDesdeHoy(-1));
    await page.waitForURL(/fecha_hasta=/);
    expect(new URL(page.url()).searchParams.get('fecha_desde')).toBe(diasDesdeHoy(-10));
    expect(await page.getByText('No se encontraron conversaciones').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe('Resultados');
    // Up to today finds it (the search folded its form again on a phone, the dates named in 'Filtros').
    await abrirFiltros(page);
    await page.getByLabel('Hasta').fill(hoy());
    await page.waitForURL(new RegExp(`fecha_hasta=${hoy()}`));
    expect(await page.locator('ul.conversaciones h3').allTextContents()).toContain(titulo);

    // A malformed date in the address: the server answers the format message and ignores the dates.
    await page.goto(`/foro/categorias/${idCategoria}?fecha_desde=2026-02-30`);
    expect(await mensajeDe(page, 'Desde')).toBe('Formato de fecha inválido');
    expect(await page.locator('ul.conversaciones h3').allTextContents()).toContain(titulo);
    // Without JavaScript's check, the server gives the same messages.
    await page.goto(`/foro/categorias/${idCategoria}?fecha_desde=${diasDesdeHoy(-1)}&fecha_hasta=${diasDesdeHoy(-5)}`);
    expect(await mensajeDe(page, 'Desde')).toBe('La fecha de inicio no puede ser superior a la de término');
    expect(await mensajeDe(page, 'Hasta')).toBe('La fecha de término no puede ser inferior a la de inicio');

    // The sort searches immediately.
    await page.goto(`/foro/categorias/${idCategoria}`);
    await abrirFiltros(page);
    await page.getByLabel('Ordenar por').selectOption('n_visitas');
    await page.waitForURL(/order=n_visitas/);
    expect(await page.getByLabel('Ordenar por').inputValue()).toBe('n_visitas');
  });
});

describe.each(ANCHOS)('accessibility (%s)', (_ancho, viewport) => {
  it('has no serious or critical axe violation on any forum screen', async () => {
    const idCategoria = await categoriaPorApi(`Accesible ${viewport.width} ${Date.now()}`);
    const admin = await apiComo();
    const { data: conversacion } = await admin.api.POST('/api/foro/conversacion/nueva/', {
      body: {
        id_usuario: admin.id,
        id_categoria: idCategoria,
        titulo: 'Una conversación',
        contenido: 'Con **formato** y [un enlace](https://example.cl).',
      },
    });
    if (!conversacion) throw new Error('the conversation was not created');
    const base = { id_conversacion: conversacion.id, id_categoria: idCategoria };
    const { data: comentario } = await admin.api.POST('/api/foro/conversacion/comentar/', {
      body: { ...base, contenido: 'Un comentario' },
    });
    await admin.api.POST('/api/foro/conversacion/comentar/', {
      body: { ...base, contenido: 'Una respuesta', comentario_padre: comentario?.id },
    });

    const page = await abrir(browser, viewport);
    await ingresar(page);
    const pantallas: [string, (() => Promise<void>)?][] = [
      ['/foro/'],
      ['/foro/?modo=editar'],
      [
        '/foro/categorias/crear',
        async () => {
          await expect.poll(() => page.getByRole('button', { name: 'Guardar' }).isEnabled()).toBe(true);
          await page.getByRole('button', { name: 'Guardar' }).click();
          await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(3);
        },
      ],
      [`/foro/categorias/editar/${idCategoria}`],
      [`/foro/categorias/${idCategoria}?fecha_desde=2099-01-01`],
      [
        `/foro/categorias/${idCategoria}/conversaciones/nueva`,
        async () => {
          await expect.poll(() => page.getByRole('button', { name: 'Negrita (Ctrl + B)' }).count()).toBe(1);
        },
      ],
      [
        `/foro/categorias/${idCategoria}/conversacion/${conversacion.id}`,
        async () => {
          await expect.poll(() => page.getByRole('button', { name: /^Gran idea/ }).isEnabled()).toBe(true);
        },
      ],
    ];
    for (const [ruta, preparar] of pantallas) {
      await page.goto(ruta);
      await preparar?.();
      expect(await violacionesGraves(page), ruta).toEqual([]);
    }
  });
});
