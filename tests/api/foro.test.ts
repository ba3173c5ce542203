/**
 * The forum API (docs/SPEC.md sections 3 to 9): categories with images, conversations,
 * comments nested to any depth, reactions, views, counters, permissions and posting limits.
 * Every response is checked against openapi.yaml by `t.call`.
 */
import { and, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { foroReaccionesComentario, foroReaccionesConversacion, limitesIntentos } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { llamadas, type Sesion } from '../support/contenido.ts';
import { type Archivo, formData } from '../support/form.ts';

let t: TestApi;

let admin: Sesion;
let ana: Sesion;
let luis: Sesion;

/** Signs everyone in again: access tokens last 15 minutes of the (moved) clock. */
async function renovar() {
  for (const s of [admin, ana, luis]) s.token = (await t.login(s.email)).access;
}

const png = (color = '#1d5fa8', width = 800, height = 500) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
const jpeg = (color = '#b3261e') =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

const formulario = (campos: Record<string, string>, archivo?: Archivo) => formData(campos, archivo && { type: 'image/png', ...archivo });

let contador = 0;
const nombreUnico = (base = 'Categoría') => `${base} ${++contador}`;

async function crearCategoria(campos: Partial<Record<'nombre' | 'descripcion' | 'activa', string>> = {}) {
  const res = await t.call('POST', '/api/foro/categorias/', {
    token: admin.token,
    body: formulario(
      { nombre: nombreUnico(), descripcion: 'Espacio para compartir experiencias', activa: 'true', ...campos },
      { data: await png(), name: 'imagen.png' },
    ),
  });
  expect(res.status).toBe(201);
  return res.json();
}

async function crearConversacion(quien: Sesion, idCategoria: number, titulo = 'Evaluación formativa', contenido = 'Compartamos **ideas**') {
  const res = await t.call('POST', '/api/foro/conversacion/nueva/', {
    token: quien.token,
    json: { id_usuario: quien.id, titulo, contenido, id_categoria: idCategoria },
  });
  expect(res.status).toBe(201);
  return res.json();
}

async function comentar(quien: Sesion, conversacion: { id: number; id_categoria: number }, contenido: string, padre: number | null = null) {
  const res = await t.call('POST', '/api/foro/conversacion/comentar/', {
    token: quien.token,
    json: { id_conversacion: conversacion.id, id_categoria: conversacion.id_categoria, contenido, comentario_padre: padre },
  });
  expect(res.status).toBe(201);
  return res.json();
}

const reaccionar = (quien: Sesion, id: number, id_like: number, action: 'like' | 'remove_like' = 'like') =>
  t.call('POST', '/api/foro/conversacion/like/', { token: quien.token, json: { id_conversacion: id, id_like, action } });
const reaccionarComentario = (quien: Sesion, id: number, id_like: number, action: 'like' | 'remove_like' = 'like') =>
  t.call('POST', '/api/foro/comentario/like/', { token: quien.token, json: { id_comentario: id, id_like, action } });

/** A GET that must answer 200: its body. */
const { json: get } = llamadas(() => t);

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Marta' });
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
});
afterAll(() => t.close());
// Posting limits are counted per account; each test starts with a clean slate.
beforeEach(async () => {
  await t.db.delete(limitesIntentos);
});

describe('every forum call needs a session', () => {
  it('answers 401 without a token', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/foro/categorias/'],
      ['GET', '/api/foro/categorias/1/'],
      ['GET', '/api/foro/categorias/1/conversaciones/'],
      ['GET', '/api/foro/conversacion/1/'],
      ['GET', '/api/foro/conversacion/1/respuestas/'],
      ['GET', '/api/foro/conversacion/likes_usuario/?id_conversacion=1'],
      ['GET', '/api/foro/comentario/likes_usuario/?id_comentario=1'],
      ['GET', '/miniaturas/categorias/1/'],
    ];
    for (const [method, path] of calls) expect((await t.call(method, path)).status, path).toBe(401);
    const posts = [
      '/api/foro/conversacion/nueva/',
      '/api/foro/conversacion/like/',
      '/api/foro/conversacion/comentar/',
      '/api/foro/comentario/like/',
    ];
    for (const path of posts) expect((await t.call('POST', path, { json: {} })).status, path).toBe(401);
    expect((await t.call('POST', '/api/foro/categorias/', { body: formulario({}) })).status).toBe(401);
    expect((await t.call('PUT', '/api/foro/categorias/1/', { body: formulario({}) })).status).toBe(401);
  });
});

describe('creating categories (admins only)', () => {
  it("refuses teachers with 403 'No tienes permisos', on create and on edit", async () => {
    const campos = { nombre: 'Intrusa', descripcion: 'x', activa: 'true' };
    const res = await t.call('POST', '/api/foro/categorias/', {
      token: ana.token,
      body: formulario(campos, { data: await png(), name: 'a.png' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toBe('No tienes permisos');
    const cat = await crearCategoria();
    const put = await t.call('PUT', `/api/foro/categorias/${cat.id}/`, { token: ana.token, body: formulario(campos) });
    expect(put.status).toBe(403);
    expect((await put.json()).detail).toBe('No tienes permisos');
  });

  it('stores the category with zero counters and serves its image as WebP or JPEG by cookie', async () => {
    const cat = await crearCategoria({ nombre: 'Didáctica de las Ciencias', descripcion: 'Indagación en el aula', activa: 'false' });
    expect(cat).toMatchObject({
      nombre: 'Didáctica de las Ciencias',
      descripcion: 'Indagación en el aula',
      activa: false,
      fecha_primer_post: null,
      fecha_ultimo_post: null,
      n_conversaciones: 0,
      n_comentarios: 0,
      n_total_reacciones: 0,
      n_visitas: 0,
      n_me_gusta: 0,
      n_gran_idea: 0,
      n_me_interesa: 0,
      n_lo_utilizare: 0,
      n_me_asombra: 0,
    });
    expect(cat.archivo).toMatch(new RegExp(`^/miniaturas/categorias/${cat.id}/\\?v=\\w+$`));
    const cookie = `ed_access=${admin.token}`;
    const webp = await t.call('GET', cat.archivo, { headers: { cookie, accept: 'image/avif,image/webp,*/*' } });
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webp.headers.get('vary')).toBe('Accept');
    const meta = await sharp(Buffer.from(await webp.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 640, 360]);
    const jpg = await t.call('GET', cat.archivo, { headers: { cookie, accept: 'image/*' } });
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect([...new Uint8Array(await jpg.arrayBuffer()).slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('accepts a JPEG as well as a PNG', async () => {
    const res = await t.call('POST', '/api/foro/categorias/', {
      token: admin.token,
      body: formulario(
        { nombre: nombreUnico(), descripcion: 'Con foto', activa: 'true' },
        { data: await jpeg(), name: 'foto.jpg', type: 'image/jpeg' },
      ),
    });
    expect(res.status).toBe(201);
  });

  it('answers the messages of SPEC 5', async () => {
    const imagen = { data: await png(), name: 'i.png' };
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [
        { nombre: '  ', descripcion: '', activa: 'false' },
        { nombre: ['Debe ingresar un nombre'], descripcion: ['Puede ingresar una descripción'] },
      ],
      [{ nombre: 'x'.repeat(151), descripcion: 'ok', activa: 'true' }, { nombre: ['Puede ingresar hasta 150 caracteres'] }],
      [{ nombre: 'Larga', descripcion: 'x'.repeat(1001), activa: 'true' }, { descripcion: ['Puede ingresar hasta 1000 caracteres'] }],
    ];
    for (const [campos, errors] of cases) {
      const res = await t.call('POST', '/api/foro/categorias/', { token: admin.token, body: formulario(campos, imagen) });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual(errors);
    }
    const sinImagen = await t.call('POST', '/api/foro/categorias/', {
      token: admin.token,
      body: formulario({ nombre: 'Sin imagen', descripcion: 'x', activa: 'true' }),
    });
    expect(await sinImagen.json()).toMatchObject({
      detail: 'Debe subir una imagen para la categoria',
      errors: { archivo: ['Debe subir una imagen para la categoria'] },
    });
  });

  it('checks the bytes: a renamed text, a GIF or a broken PNG is refused and nothing is stored', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const roto = Buffer.concat([(await png()).subarray(0, 40), Buffer.alloc(200, 7)]);
    const antes = (await get(admin, '/api/foro/categorias/?get_for_edit=true')).num_results;
    for (const data of ['no soy una imagen', gif, roto]) {
      const res = await t.call('POST', '/api/foro/categorias/', {
        token: admin.token,
        body: formulario({ nombre: nombreUnico('Rechazada'), descripcion: 'x', activa: 'true' }, { data, name: 'imagen.png' }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual({ archivo: ['El archivo no es válido. Debe subir un archivo png o jpg.'] });
    }
    expect((await get(admin, '/api/foro/categorias/?get_for_edit=true')).num_results).toBe(antes);
  });

  it('refuses an image over MAX_IMAGEN_MB with 413, and a name already used with 400', async () => {
    const grande = await t.call('POST', '/api/foro/categorias/', {
      token: admin.token,
      body: formulario({ nombre: 'Grande', descripcion: 'x', activa: 'true' }, { data: Buffer.alloc(3 * 1024 * 1024, 1), name: 'g.png' }),
    });
    expect(grande.status).toBe(413);
    expect((await grande.json()).detail).toBe('El archivo supera el tamaño máximo permitido (2 MB)');
    const cat = await crearCategoria();
    const repetida = await t.call('POST', '/api/foro/categorias/', {
      token: admin.token,
      body: formulario({ nombre: cat.nombre.toUpperCase(), descripcion: 'x', activa: 'true' }, { data: await png(), name: 'r.png' }),
    });
    expect(repetida.status).toBe(400);
    expect((await repetida.json()).errors).toEqual({ nombre: ['Ya existe una categoria con ese nombre'] });
  });
});

describe('editing categories', () => {
  it('changes name, description and state; the image is optional and a new one replaces the old', async () => {
    const cat = await crearCategoria({ activa: 'false' });
    const sinImagen = await t.call('PUT', `/api/foro/categorias/${cat.id}/`, {
      token: admin.token,
      body: formulario({ nombre: 'Convivencia escolar', descripcion: 'Clima de aula', activa: 'true' }),
    });
    expect(sinImagen.status).toBe(204);
    const editada = await get(admin, `/api/foro/categorias/${cat.id}/`);
    expect(editada).toMatchObject({ nombre: 'Convivencia escolar', descripcion: 'Clima de aula', activa: true, archivo: cat.archivo });

    const conImagen = await t.call('PUT', `/api/foro/categorias/${cat.id}/`, {
      token: admin.token,
      body: formulario(
        { nombre: 'Convivencia escolar', activa: 'true' },
        { data: await jpeg('#00ff00'), name: 'n.jpg', type: 'image/jpeg' },
      ),
    });
    expect(conImagen.status).toBe(204);
    const nueva = await get(admin, `/api/foro/categorias/${cat.id}/`);
    expect(nueva.archivo).not.toBe(cat.archivo);
    expect(nueva.descripcion).toBe('Clima de aula');
    const carpeta = await t.storage.size(`foro/categorias/${cat.id}/${new URL(cat.archivo, 'http://x').searchParams.get('v')}.webp`);
    expect(carpeta).toBeNull();
    const img = await t.call('GET', nueva.archivo, { headers: { cookie: `ed_access=${ana.token}`, accept: 'image/jpeg' } });
    const { dominant } = await sharp(Buffer.from(await img.arrayBuffer())).stats();
    expect(dominant.g).toBeGreaterThan(200);
  });

  it('validates like creating: name required and at most 150, description at most 1000, image jpeg or png', async () => {
    const cat = await crearCategoria();
    const put = (campos: Record<string, string>, archivo?: Archivo) =>
      t.call('PUT', `/api/foro/categorias/${cat.id}/`, { token: admin.token, body: formulario(campos, archivo) });
    expect((await (await put({ nombre: '', activa: 'true' })).json()).errors).toEqual({ nombre: ['Debe ingresar un nombre'] });
    expect((await (await put({ nombre: 'x'.repeat(151), activa: 'true' })).json()).errors).toEqual({
      nombre: ['Puede ingresar hasta 150 caracteres'],
    });
    expect((await (await put({ nombre: 'Ok', descripcion: 'x'.repeat(1001), activa: 'true' })).json()).errors).toEqual({
      descripcion: ['Puede ingresar hasta 1000 caracteres'],
    });
    const mala = await put({ nombre: 'Ok', activa: 'true' }, { data: '%PDF-1.4 no', name: 'x.png' });
    expect(mala.status).toBe(400);
    expect((await mala.json()).errors).toEqual({ archivo: ['El archivo no es válido. Debe subir un archivo png o jpg.'] });
    const otra = await crearCategoria();
    expect((await (await put({ nombre: otra.nombre, activa: 'true' })).json()).errors).toEqual({
      nombre: ['Ya existe una categoria con ese nombre'],
    });
    const falta = await t.call('PUT', '/api/foro/categorias/999999/', {
      token: admin.token,
      body: formulario({ nombre: 'X', activa: 'true' }),
    });
    expect(falta.status).toBe(404);
    expect((await falta.json()).detail).toBe('No se encontró categoria');
  });
});

describe('inactive categories', () => {
  it('are hidden from teachers everywhere, and listed for admins in the edit view', async () => {
    const oculta = await crearCategoria({ nombre: 'Borrador oculto', activa: 'false' });
    const conversacion = await crearConversacion(admin, oculta.id);
    const comentario = await comentar(admin, conversacion, 'Nota interna');

    const lista = await get(ana, '/api/foro/categorias/?tamano_pagina=100');
    expect(lista.categorias.map((c: { id: number }) => c.id)).not.toContain(oculta.id);
    expect(lista.todas).not.toContain('Borrador oculto');
    for (const path of [
      `/api/foro/categorias/${oculta.id}/`,
      `/api/foro/categorias/${oculta.id}/conversaciones/`,
      `/api/foro/conversacion/${conversacion.id}/`,
      `/api/foro/conversacion/${conversacion.id}/respuestas/`,
      `/api/foro/conversacion/likes_usuario/?id_conversacion=${conversacion.id}`,
      `/api/foro/comentario/likes_usuario/?id_comentario=${comentario.id}`,
    ]) {
      expect((await t.call('GET', path, { token: ana.token })).status, path).toBe(404);
    }
    expect((await t.call('GET', oculta.archivo, { headers: { cookie: `ed_access=${ana.token}` } })).status).toBe(404);
    expect((await reaccionar(ana, conversacion.id, 1)).status).toBe(404);
    expect((await reaccionarComentario(ana, comentario.id, 1)).status).toBe(404);
    const nueva = await t.call('POST', '/api/foro/conversacion/nueva/', {
      token: ana.token,
      json: { id_usuario: ana.id, titulo: 'Hola', contenido: 'x', id_categoria: oculta.id },
    });
    expect(nueva.status).toBe(404);
    const respuesta = await t.call('POST', '/api/foro/conversacion/comentar/', {
      token: ana.token,
      json: { id_conversacion: conversacion.id, id_categoria: oculta.id, contenido: 'x', comentario_padre: null },
    });
    expect(respuesta.status).toBe(404);

    const forbidden = await t.call('GET', '/api/foro/categorias/?get_for_edit=true', { token: ana.token });
    expect(forbidden.status).toBe(403);
    // The admin's normal view is what teachers see; the edit view lists every category.
    expect((await get(admin, '/api/foro/categorias/?tamano_pagina=100')).todas).not.toContain('Borrador oculto');
    const edicion = await get(admin, '/api/foro/categorias/?get_for_edit=true&tamano_pagina=100');
    expect(edicion.todas).toContain('Borrador oculto');
    expect(edicion.categorias.find((c: { id: number }) => c.id === oculta.id)).toMatchObject({ activa: false, n_conversaciones: 1 });
    expect((await t.call('GET', `/api/foro/categorias/${oculta.id}/`, { token: admin.token })).status).toBe(200);
  });
});

describe('the category list', () => {
  it("searches names ignoring accents; 'todas' holds every visible name whatever the filter and page", async () => {
    const evaluacion = await crearCategoria({ nombre: 'Evaluación para el aprendizaje', descripcion: 'Retroalimentación' });
    await crearCategoria({ nombre: 'Matemática en primer ciclo', descripcion: 'Fracciones' });
    const res = await get(ana, '/api/foro/categorias/?nombre=evaluacion&tamano_pagina=5');
    expect(res.categorias.map((c: { id: number }) => c.id)).toEqual([evaluacion.id]);
    expect(res.num_results).toBe(1);
    expect(res.todas).toEqual(expect.arrayContaining(['Evaluación para el aprendizaje', 'Matemática en primer ciclo']));
    expect([...res.todas].sort((a: string, b: string) => a.localeCompare(b))).toEqual(
      [...res.todas].sort((a: string, b: string) => a.localeCompare(b)),
    );
    const vacia = await get(ana, '/api/foro/categorias/?nombre=zzzzzz');
    expect(vacia).toMatchObject({ categorias: [], num_pages: 1, num_results: 0 });
    expect(vacia.todas.length).toBeGreaterThan(1);
  });

  it('paginates, and falls back to the defaults on mistyped values', async () => {
    const todas = await get(ana, '/api/foro/categorias/?tamano_pagina=100');
    const n = todas.num_results;
    expect(n).toBeGreaterThan(5);
    const p1 = await get(ana, '/api/foro/categorias/?tamano_pagina=5&pagina=1');
    const p2 = await get(ana, '/api/foro/categorias/?tamano_pagina=5&pagina=2');
    expect(p1.num_pages).toBe(Math.ceil(n / 5));
    expect(p1.categorias).toHaveLength(5);
    expect(p2.categorias[0].id).not.toBe(p1.categorias[0].id);
    expect((await get(ana, '/api/foro/categorias/?tamano_pagina=5&pagina=999')).categorias).toEqual([]);
    const defecto = await get(ana, '/api/foro/categorias/?tamano_pagina=7&order=x&pagina=-1');
    expect(defecto.categorias.length).toBe(Math.min(10, n));
  });
});

describe('counters and sorting', () => {
  it('derives every counter from the rows and sorts by each of the SPEC fields', async () => {
    t.clock.now = new Date('2026-06-01T15:00:00Z');
    await renovar();
    const nombres = ['Orden A', 'Orden B', 'Orden C'].map((n) => `${n} ${Date.now()}`);
    const a = await crearCategoria({ nombre: nombres[0] });
    t.clock.now = new Date('2026-06-02T15:00:00Z');
    await renovar();
    const b = await crearCategoria({ nombre: nombres[1] });
    t.clock.now = new Date('2026-06-03T15:00:00Z');
    await renovar();
    const c = await crearCategoria({ nombre: nombres[2] });

    // A: two conversations (oldest first post), three comments, 4 reactions.
    t.clock.now = new Date('2026-06-04T15:00:00Z');
    await renovar();
    const a1 = await crearConversacion(ana, a.id, 'Primera de A');
    t.clock.now = new Date('2026-06-05T15:00:00Z');
    await renovar();
    const a2 = await crearConversacion(luis, a.id, 'Segunda de A');
    const ca = await comentar(luis, a1, 'Uno');
    await comentar(ana, a1, 'Dos', ca.id);
    await comentar(ana, a2, 'Tres');
    await reaccionar(ana, a1.id, 1);
    await reaccionar(luis, a1.id, 1);
    await reaccionar(ana, a1.id, 4);
    await reaccionar(ana, a2.id, 5);
    // Comment reactions are not conversation reactions.
    await reaccionarComentario(ana, ca.id, 3);
    // B: one conversation (latest post), one comment, 5 reactions (one of each).
    t.clock.now = new Date('2026-06-06T15:00:00Z');
    await renovar();
    const b1 = await crearConversacion(ana, b.id, 'Única de B');
    await comentar(luis, b1, 'Cuatro');
    for (const r of [1, 2, 3, 4, 5]) await reaccionar(luis, b1.id, r);
    // C: no posts, but the most visited.
    for (const s of [admin, ana, luis]) await get(s, `/api/foro/categorias/${c.id}/`);
    await get(ana, `/api/foro/categorias/${a.id}/`);

    const detalle = await get(admin, `/api/foro/categorias/${a.id}/`);
    expect(detalle).toMatchObject({
      n_conversaciones: 2,
      n_comentarios: 3,
      n_total_reacciones: 4,
      n_me_gusta: 2,
      n_gran_idea: 0,
      n_me_interesa: 0,
      n_lo_utilizare: 1,
      n_me_asombra: 1,
      n_visitas: 2,
      fecha_primer_post: '2026-06-04T15:00:00.000Z',
      fecha_ultimo_post: '2026-06-05T15:00:00.000Z',
    });
    expect(await get(admin, `/api/foro/categorias/${b.id}/`)).toMatchObject({
      n_conversaciones: 1,
      n_comentarios: 1,
      n_total_reacciones: 5,
      n_me_gusta: 1,
      n_gran_idea: 1,
      n_me_interesa: 1,
      n_lo_utilizare: 1,
      n_me_asombra: 1,
    });

    const orden = async (order: string) => {
      const res = await get(ana, `/api/foro/categorias/?order=${order}&tamano_pagina=100`);
      return res.categorias.map((x: { id: number }) => x.id).filter((id: number) => [a.id, b.id, c.id].includes(id));
    };
    expect(await orden('fecha')).toEqual([c.id, b.id, a.id]);
    expect(await orden('fecha_primer_post')).toEqual([b.id, a.id, c.id]);
    expect(await orden('fecha_ultimo_post')).toEqual([b.id, a.id, c.id]);
    expect(await orden('n_conversaciones')).toEqual([a.id, b.id, c.id]);
    expect(await orden('n_comentarios')).toEqual([a.id, b.id, c.id]);
    expect(await orden('n_total_reacciones')).toEqual([b.id, a.id, c.id]);
    expect(await orden('n_visitas')).toEqual([c.id, a.id, b.id]);

    // Removing a reaction is reflected at once.
    await reaccionar(luis, b1.id, 2, 'remove_like');
    expect(await get(admin, `/api/foro/categorias/${b.id}/`)).toMatchObject({ n_total_reacciones: 4, n_gran_idea: 0 });
    t.clock.now = new Date();
    await renovar();
  });
});

describe('starting a conversation', () => {
  it('answers 201 with the author, zero counters and sanitized HTML from the Markdown', async () => {
    const cat = await crearCategoria();
    const markdown = [
      '# Idea',
      '**negrita** <script>alert(1)</script> [malo](javascript:alert(1)) [bueno](https://mineduc.cl)',
      '![foto](https://example.com/x.png)',
      '<img src=x onerror=alert(1)>',
    ].join('\n\n');
    const conv = await crearConversacion(ana, cat.id, '  Proyecto de aula  ', markdown);
    expect(conv).toMatchObject({
      id_categoria: cat.id,
      titulo: 'Proyecto de aula',
      n_visitas: 0,
      n_comentarios: 0,
      n_total_reacciones: 0,
      autor: { id: ana.id, nombre: 'Ana Pérez', foto_perfil: '' },
      id_usuario_creador: ana.id,
    });
    expect(conv.contenido).toContain('<h1>Idea</h1>');
    expect(conv.contenido).toContain('<strong>negrita</strong>');
    expect(conv.contenido).toContain('&lt;script&gt;');
    expect(conv.contenido).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(conv.contenido).not.toMatch(/<script|<img|<[^>]*onerror|javascript:/);
    expect(conv.contenido).toContain(' malo ');
    expect(conv.contenido).toContain('<a rel="nofollow ugc noopener" href="https://mineduc.cl">bueno</a>');
    expect(conv.contenido).toContain('<a rel="nofollow ugc noopener" href="https://example.com/x.png">foto</a>');
  });

  it('answers the messages of SPEC 5, 403 for another id_usuario and 404 for a missing category', async () => {
    const cat = await crearCategoria();
    const nueva = (json: Record<string, unknown>) =>
      t.call('POST', '/api/foro/conversacion/nueva/', {
        token: ana.token,
        json: { id_usuario: ana.id, titulo: 'Título', contenido: 'Contenido', id_categoria: cat.id, ...json },
      });
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [
        { titulo: '', contenido: ' ' },
        { titulo: ['Debe ingresar un titulo'], contenido: ['Debe ingresar el contenido de la conversación'] },
      ],
      [{ titulo: 'x'.repeat(121) }, { titulo: ['Se permiten hasta 120 caractéres'] }],
      [{ contenido: 'x'.repeat(3001) }, { contenido: ['Se permiten hasta 3000 caractéres'] }],
    ];
    for (const [json, errors] of cases) {
      const res = await nueva(json);
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual(errors);
    }
    expect((await nueva({ titulo: 'x'.repeat(120), contenido: 'x'.repeat(3000) })).status).toBe(201);
    const ajena = await nueva({ id_usuario: luis.id });
    expect(ajena.status).toBe(403);
    expect((await ajena.json()).detail).toBe('No tienes permisos');
    const falta = await nueva({ id_categoria: 999_999 });
    expect(falta.status).toBe(404);
    expect((await falta.json()).detail).toBe('No se encontró categoria');
  });

  it('limits each account to 5 conversations per hour with a clear message', async () => {
    const cat = await crearCategoria();
    for (let i = 1; i <= 5; i++) await crearConversacion(luis, cat.id, `Pregunta ${i}`);
    const sexta = await t.call('POST', '/api/foro/conversacion/nueva/', {
      token: luis.token,
      json: { id_usuario: luis.id, titulo: 'Pregunta 6', contenido: 'x', id_categoria: cat.id },
    });
    expect(sexta.status).toBe(429);
    expect(Number(sexta.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await sexta.json()).detail).toBe(
      'Publicaste demasiadas conversaciones en poco tiempo. Espera 60 minutos antes de publicar otra.',
    );
    // Another person is not affected.
    await crearConversacion(ana, cat.id, 'De otra persona');
    const listado = await get(admin, `/api/foro/categorias/${cat.id}/conversaciones/?tamano_pagina=20`);
    expect(listado.num_results).toBe(6);
    t.clock.now = new Date(Date.now() + 61 * 60_000);
    await renovar();
    await crearConversacion(luis, cat.id, 'Una hora después');
    t.clock.now = new Date();
    await renovar();
  });
});

describe('the conversation list', () => {
  let cat: { id: number };
  const fechas: Record<string, number> = {};

  beforeAll(async () => {
    cat = await crearCategoria();
    // Dates are days in Chile (UTC-3 in March, UTC-4 in July).
    const momentos: [string, string, string][] = [
      ['marzo', '2026-03-02T13:00:00Z', 'Fracciones con material concreto'],
      ['noche', '2026-03-11T01:30:00Z', 'Lectura compartida en voz alta'],
      ['julio', '2026-07-15T16:00:00Z', 'Evaluación de fracciones'],
    ];
    for (const [clave, instante, titulo] of momentos) {
      t.clock.now = new Date(instante);
      await renovar();
      fechas[clave] = (await crearConversacion(ana, cat.id, titulo, `Contenido sobre ${titulo.toLowerCase()}`)).id;
    }
    t.clock.now = new Date();
    await renovar();
    await get(luis, `/api/foro/conversacion/${fechas.marzo}/`);
    await get(ana, `/api/foro/conversacion/${fechas.marzo}/`);
    await get(ana, `/api/foro/conversacion/${fechas.julio}/`);
  });

  const ids = async (query: string) =>
    (await get(ana, `/api/foro/categorias/${cat.id}/conversaciones/${query}`)).conversaciones.map((c: { id: number }) => c.id);

  it("orders by 'fecha' (newest first) or 'n_visitas'", async () => {
    expect(await ids('')).toEqual([fechas.julio, fechas.noche, fechas.marzo]);
    expect(await ids('?order=n_visitas')).toEqual([fechas.marzo, fechas.julio, fechas.noche]);
  });

  it('searches title and content by keyword, ignoring accents', async () => {
    expect(await ids('?palabra_clave=fraccion')).toEqual([fechas.julio, fechas.marzo]);
    expect(await ids('?palabra_clave=evaluacion')).toEqual([fechas.julio]);
    expect(await ids('?palabra_clave=voz%20alta')).toEqual([fechas.noche]);
  });

  it('bounds the dates inclusively, by the day in Chile', async () => {
    expect(await ids('?fecha_desde=2026-03-02&fecha_hasta=2026-03-10')).toEqual([fechas.noche, fechas.marzo]);
    expect(await ids('?fecha_desde=2026-03-11')).toEqual([fechas.julio]);
    expect(await ids('?fecha_hasta=2026-03-01')).toEqual([]);
    expect(await ids('?fecha_desde=2026-07-15&fecha_hasta=2026-07-15&palabra_clave=fracciones')).toEqual([fechas.julio]);
    const pagina = await get(ana, `/api/foro/categorias/${cat.id}/conversaciones/?tamano_pagina=5&pagina=2`);
    expect(pagina).toMatchObject({ conversaciones: [], num_pages: 1, num_results: 3 });
  });

  it('answers the four date messages of SPEC 5', async () => {
    const manana = new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
    const errores = async (query: string) => {
      const res = await t.call('GET', `/api/foro/categorias/${cat.id}/conversaciones/${query}`, { token: ana.token });
      expect(res.status).toBe(400);
      return (await res.json()).errors;
    };
    expect(await errores('?fecha_desde=15-03-2026')).toEqual({ fecha_desde: ['Formato de fecha inválido'] });
    expect(await errores('?fecha_hasta=2026-02-30')).toEqual({ fecha_hasta: ['Formato de fecha inválido'] });
    expect(await errores(`?fecha_desde=${manana}`)).toEqual({ fecha_desde: ['La fecha ingresada no puede ser superior a hoy'] });
    expect(await errores(`?fecha_hasta=${manana}`)).toEqual({ fecha_hasta: ['La fecha ingresada no puede ser superior a hoy'] });
    expect(await errores('?fecha_desde=2026-03-10&fecha_hasta=2026-03-01')).toEqual({
      fecha_desde: ['La fecha de inicio no puede ser superior a la de término'],
      fecha_hasta: ['La fecha de término no puede ser inferior a la de inicio'],
    });
  });

  it('answers 404 for a category that does not exist', async () => {
    const res = await t.call('GET', '/api/foro/categorias/999999/conversaciones/', { token: ana.token });
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe('No se encontró categoria');
  });
});

describe('views', () => {
  it('counts a conversation and a category once per person per visit', async () => {
    const cat = await crearCategoria();
    const conv = await crearConversacion(ana, cat.id);
    for (let i = 0; i < 3; i++) {
      await get(luis, `/api/foro/conversacion/${conv.id}/`);
      await get(luis, `/api/foro/categorias/${cat.id}/`);
    }
    expect((await get(ana, `/api/foro/conversacion/${conv.id}/`)).n_visitas).toBe(2);
    expect((await get(ana, `/api/foro/categorias/${cat.id}/`)).n_visitas).toBe(2);
    // Lists do not count.
    await get(luis, `/api/foro/categorias/${cat.id}/conversaciones/`);
    await get(luis, '/api/foro/categorias/');
    t.clock.now = new Date(Date.now() + 31 * 60_000);
    await renovar();
    expect((await get(luis, `/api/foro/conversacion/${conv.id}/`)).n_visitas).toBe(3);
    expect((await get(luis, `/api/foro/categorias/${cat.id}/`)).n_visitas).toBe(3);
    t.clock.now = new Date();
    await renovar();
  });

  it("answers 404 'No se encontró conversación' for a missing conversation", async () => {
    const res = await t.call('GET', '/api/foro/conversacion/999999/', { token: ana.token });
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe('No se encontró conversación');
  });
});

describe('comments nested to any depth', () => {
  it('answers the tree, each level oldest first, with authors and counts', async () => {
    const cat = await crearCategoria();
    const conv = await crearConversacion(ana, cat.id);
    const uno = await comentar(luis, conv, '  Primera idea  ');
    expect(uno).toMatchObject({
      contenido: 'Primera idea',
      id_usuario: { id: luis.id, primer_nombre: 'Luis', apellido_paterno: 'Pérez', foto_perfil: '' },
      n_me_gusta: 0,
      n_me_interesa: 0,
      respuestas: [],
    });
    const dos = await comentar(ana, conv, 'Segunda idea');
    const r1 = await comentar(ana, conv, 'Respuesta a la primera', uno.id);
    const r2 = await comentar(luis, conv, 'Respuesta a la respuesta', r1.id);
    const r3 = await comentar(ana, conv, 'Tercer nivel', r2.id);
    const r4 = await comentar(luis, conv, 'Cuarto nivel', r3.id);
    const r1b = await comentar(luis, conv, 'Otra respuesta a la primera', uno.id);
    await reaccionarComentario(ana, r3.id, 1);
    await reaccionarComentario(luis, r3.id, 1);
    await reaccionarComentario(luis, r3.id, 3);

    const arbol = await get(ana, `/api/foro/conversacion/${conv.id}/respuestas/`);
    const forma = (nodos: { id: number; respuestas: unknown[] }[]): unknown =>
      nodos.map((n) => [n.id, forma(n.respuestas as { id: number; respuestas: unknown[] }[])]);
    expect(forma(arbol)).toEqual([
      [
        uno.id,
        [
          [r1.id, [[r2.id, [[r3.id, [[r4.id, []]]]]]]],
          [r1b.id, []],
        ],
      ],
      [dos.id, []],
    ]);
    expect(arbol[0].respuestas[0].respuestas[0].respuestas[0]).toMatchObject({ id: r3.id, n_me_gusta: 2, n_me_interesa: 1 });
    expect((await get(ana, `/api/foro/conversacion/${conv.id}/`)).n_comentarios).toBe(7);
  });

  it("validates: 'Debe ingresar un comentario', the conversation's category, a parent of the same conversation", async () => {
    const cat = await crearCategoria();
    const otra = await crearCategoria();
    const conv = await crearConversacion(ana, cat.id);
    const ajena = await crearConversacion(ana, otra.id);
    const deOtra = await comentar(ana, ajena, 'En otra conversación');
    const enviar = (json: Record<string, unknown>) =>
      t.call('POST', '/api/foro/conversacion/comentar/', {
        token: luis.token,
        json: { id_conversacion: conv.id, id_categoria: cat.id, contenido: 'Hola', comentario_padre: null, ...json },
      });
    const vacio = await enviar({ contenido: '   ' });
    expect(vacio.status).toBe(400);
    expect((await vacio.json()).errors).toEqual({ contenido: ['Debe ingresar un comentario'] });
    const categoria = await enviar({ id_categoria: otra.id });
    expect(categoria.status).toBe(400);
    expect((await categoria.json()).errors).toEqual({ id_categoria: ['La conversación no pertenece a la categoria indicada'] });
    const padre = await enviar({ comentario_padre: deOtra.id });
    expect(padre.status).toBe(400);
    expect((await padre.json()).errors).toEqual({ comentario_padre: ['El comentario que responde no existe'] });
    expect((await enviar({ id_conversacion: 999_999 })).status).toBe(404);
    // comentario_padre may be left out for a top-level comment.
    const sinPadre = await t.call('POST', '/api/foro/conversacion/comentar/', {
      token: luis.token,
      json: { id_conversacion: conv.id, id_categoria: cat.id, contenido: 'Sin padre' },
    });
    expect(sinPadre.status).toBe(201);
  });

  it('limits each account to 40 comments per hour', async () => {
    const cat = await crearCategoria();
    const conv = await crearConversacion(ana, cat.id);
    for (let i = 1; i <= 40; i++) await comentar(luis, conv, `Comentario ${i}`);
    const res = await t.call('POST', '/api/foro/conversacion/comentar/', {
      token: luis.token,
      json: { id_conversacion: conv.id, id_categoria: cat.id, contenido: 'Uno más', comentario_padre: null },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await res.json()).detail).toBe(
      'Publicaste demasiados comentarios en poco tiempo. Espera 60 minutos antes de volver a comentar.',
    );
    await comentar(ana, conv, 'Otra persona sí puede');
  });
});

describe('reactions', () => {
  let conv: { id: number; id_categoria: number };
  beforeAll(async () => {
    const cat = await crearCategoria();
    conv = await crearConversacion(ana, cat.id);
  });

  it('toggle per person; the counter comes from the server; likes_usuario lists the own ones', async () => {
    const contador = async (res: Response) => {
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await contador(await reaccionar(luis, conv.id, 2))).toEqual({ id_like: 2, contador: 1 });
    expect(await contador(await reaccionar(luis, conv.id, 2))).toEqual({ id_like: 2, contador: 1 });
    expect(await contador(await reaccionar(ana, conv.id, 2))).toEqual({ id_like: 2, contador: 2 });
    expect(await contador(await reaccionar(luis, conv.id, 5))).toEqual({ id_like: 5, contador: 1 });
    expect(await get(luis, `/api/foro/conversacion/likes_usuario/?id_conversacion=${conv.id}`)).toEqual({ lista_reacciones: [2, 5] });
    expect(await contador(await reaccionar(luis, conv.id, 2, 'remove_like'))).toEqual({ id_like: 2, contador: 1 });
    expect(await contador(await reaccionar(luis, conv.id, 2, 'remove_like'))).toEqual({ id_like: 2, contador: 1 });
    expect(await get(luis, `/api/foro/conversacion/likes_usuario/?id_conversacion=${conv.id}`)).toEqual({ lista_reacciones: [5] });
    expect(await get(ana, `/api/foro/conversacion/${conv.id}/`)).toMatchObject({ n_gran_idea: 1, n_me_asombra: 1, n_total_reacciones: 2 });
  });

  it('refuses unknown reactions, and only Me gusta and Me interesa on comments', async () => {
    for (const json of [
      { id_conversacion: conv.id, id_like: 6, action: 'like' },
      { id_conversacion: conv.id, id_like: 0, action: 'like' },
      { id_conversacion: conv.id, id_like: 1, action: 'toggle' },
    ]) {
      expect((await t.call('POST', '/api/foro/conversacion/like/', { token: ana.token, json })).status).toBe(400);
    }
    expect((await reaccionar(ana, 999_999, 1)).status).toBe(404);
    const comentario = await comentar(ana, conv, 'Un comentario');
    for (const idLike of [2, 4, 5]) expect((await reaccionarComentario(luis, comentario.id, idLike)).status).toBe(400);
    expect(await (await reaccionarComentario(luis, comentario.id, 1)).json()).toEqual({ id_like: 1, contador: 1 });
    expect(await (await reaccionarComentario(luis, comentario.id, 3)).json()).toEqual({ id_like: 3, contador: 1 });
    expect(await (await reaccionarComentario(ana, comentario.id, 3)).json()).toEqual({ id_like: 3, contador: 2 });
    expect(await get(luis, `/api/foro/comentario/likes_usuario/?id_comentario=${comentario.id}`)).toEqual({ lista_reacciones: [1, 3] });
    expect(await (await reaccionarComentario(luis, comentario.id, 1, 'remove_like')).json()).toEqual({ id_like: 1, contador: 0 });
    expect(await get(luis, `/api/foro/comentario/likes_usuario/?id_comentario=${comentario.id}`)).toEqual({ lista_reacciones: [3] });
    expect((await reaccionarComentario(luis, 999_999, 1)).status).toBe(404);
  });

  const filasConversacion = async (idLike: number) =>
    (
      await t.db
        .select({ n: count() })
        .from(foroReaccionesConversacion)
        .where(and(eq(foroReaccionesConversacion.id_conversacion, conv.id), eq(foroReaccionesConversacion.id_like, idLike)))
    )[0]?.n;

  it('two simultaneous toggles of the same reaction never count twice (two quick clicks, two tabs)', async () => {
    const dobles = await Promise.all([reaccionar(luis, conv.id, 3), reaccionar(luis, conv.id, 3)]);
    const cuerpos = await Promise.all(dobles.map((r) => r.json()));
    expect(dobles.map((r) => r.status)).toEqual([200, 200]);
    expect(cuerpos).toEqual([
      { id_like: 3, contador: 1 },
      { id_like: 3, contador: 1 },
    ]);
    expect(await filasConversacion(3)).toBe(1);
    expect((await get(ana, `/api/foro/conversacion/${conv.id}/`)).n_me_interesa).toBe(1);

    // One tab adds while the other removes: the count is whatever the rows say, never negative or doubled.
    const cruzados = await Promise.all([reaccionar(luis, conv.id, 3, 'remove_like'), reaccionar(luis, conv.id, 3, 'like')]);
    const finales = await Promise.all(cruzados.map((r) => r.json()));
    for (const f of finales) expect([0, 1]).toContain(f.contador);
    const filas = await filasConversacion(3);
    expect([0, 1]).toContain(filas);
    expect((await get(ana, `/api/foro/conversacion/${conv.id}/`)).n_me_interesa).toBe(filas);

    // Many people at once: exactly one row each.
    const personas = await Promise.all(Array.from({ length: 6 }, (_, i) => t.session({ nombre: `Docente${i}` })));
    const antes = (await filasConversacion(4)) ?? 0;
    await Promise.all(personas.flatMap((p) => [reaccionar(p, conv.id, 4), reaccionar(p, conv.id, 4)]));
    expect(await filasConversacion(4)).toBe(antes + 6);
    expect((await get(ana, `/api/foro/conversacion/${conv.id}/`)).n_lo_utilizare).toBe(antes + 6);
  });

  it('two simultaneous toggles of a comment reaction leave one row', async () => {
    const comentario = await comentar(ana, conv, 'Para reaccionar a la vez');
    const res = await Promise.all([reaccionarComentario(luis, comentario.id, 1), reaccionarComentario(luis, comentario.id, 1)]);
    expect(await Promise.all(res.map((r) => r.json()))).toEqual([
      { id_like: 1, contador: 1 },
      { id_like: 1, contador: 1 },
    ]);
    const [fila] = await t.db
      .select({ n: count() })
      .from(foroReaccionesComentario)
      .where(eq(foroReaccionesComentario.id_comentario, comentario.id));
    expect(fila?.n).toBe(1);
  });
});
