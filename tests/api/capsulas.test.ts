import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionMiniatura } from '../../src/lib/format/miniaturas.ts';
import { areas, metodologias, capsulas as tablaCapsulas, trabajos } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { type Archivo, formData } from '../support/form.ts';
import { video } from '../support/video.ts';

let t: TestApi;
let admin: { id: number; token: string };
let docente: { id: number; token: string };
let ids: { area: number; metodologia: number };
const mp4 = await video();

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Rosa' });
  docente = await t.session({ nombre: 'Iván' });
  const [ma] = await t.db.select().from(areas).where(eq(areas.codigo, 'MA'));
  const [abp] = await t.db.select().from(metodologias).where(eq(metodologias.nombre, 'Aprendizaje Basado en Proyectos'));
  ids = { area: ma?.id ?? 0, metodologia: abp?.id ?? 0 };
});
afterAll(() => t.close());

const campos = (extra: Record<string, string> = {}) => ({
  titulo: 'Fracciones con material concreto',
  descripcion: 'Una clase de **4° básico**',
  id_area: String(ids.area),
  id_metodologia: String(ids.metodologia),
  id_nivel: '04',
  ...extra,
});

const formulario = (fields: Record<string, string>, file?: Archivo) => formData(fields, file && { ...file, type: 'video/mp4' });

const subir = (token: string, fields: Record<string, string>, file?: Archivo) =>
  t.call('POST', '/api/capsulas/', { token, body: formulario(fields, file) });

async function publicada(extra: Record<string, string> = {}, data = mp4) {
  const res = await subir(admin.token, campos(extra), { data, name: 'clase.mp4' });
  expect(res.status).toBe(201);
  const capsula = await res.json();
  await t.jobs.drain();
  return capsula as { id: number; titulo: string };
}

describe('uploading (admins only) and the video pipeline', () => {
  it('refuses teachers with 403', async () => {
    expect((await subir(docente.token, campos(), { data: mp4, name: 'clase.mp4' })).status).toBe(403);
  });

  it("keeps a new capsule 'procesando' out of the list, in its author's panel, until the HLS job ends", async () => {
    const res = await subir(admin.token, campos({ titulo: 'Cápsula en proceso' }), {
      data: await video({ width: 640, height: 360 }),
      name: 'clase.mp4',
    });
    expect(res.status).toBe(201);
    const capsula = await res.json();
    expect(capsula).toMatchObject({
      estado: 'procesando',
      extension: 'mp4',
      id_usuario: { id: admin.id, primer_nombre: 'Rosa' },
      id_nivel: { codigo: '04' },
      mensaje_error: null,
    });
    expect(capsula.duracion).toBeCloseTo(2, 0);

    const lista = await (await t.call('GET', '/api/capsulas/', { token: docente.token })).json();
    expect(lista.capsula.map((c: { id: number }) => c.id)).not.toContain(capsula.id);
    const panel = await (await t.call('GET', '/api/capsulas/procesando', { token: admin.token })).json();
    expect(panel.capsulas.map((c: { id: number }) => c.id)).toContain(capsula.id);
    expect((await t.call('GET', `/api/capsulas/${capsula.id}/`, { token: docente.token })).status).toBe(404);
    expect((await t.call('GET', `/streaming/${capsula.id}/manifest.m3u8`, { token: admin.token })).status).toBe(404);

    expect(await t.jobs.drain()).toBe(1);

    const lista2 = await (await t.call('GET', '/api/capsulas/', { token: docente.token })).json();
    expect(lista2.capsula.map((c: { id: number }) => c.id)).toContain(capsula.id);
    const master = await t.call('GET', `/streaming/${capsula.id}/manifest.m3u8`, { headers: { cookie: `ed_access=${docente.token}` } });
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const text = await master.text();
    // The low rung comes first, then 360p; no rung above the source's 360 px.
    expect(text.indexOf('234p.m3u8')).toBeGreaterThan(0);
    expect(text.indexOf('234p.m3u8')).toBeLessThan(text.indexOf('360p.m3u8'));
    expect(text).not.toContain('720p');
    expect(text).toContain('RESOLUTION=416x234');
    const rung = await (await t.call('GET', `/streaming/${capsula.id}/234p.m3u8`, { token: docente.token })).text();
    expect(rung).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    const segment = await t.call('GET', `/streaming/${capsula.id}/234p_000.ts`, { token: docente.token });
    expect(segment.headers.get('content-type')).toBe('video/mp2t');
    expect(new Uint8Array(await segment.arrayBuffer())[0]).toBe(0x47);
    expect((await t.call('GET', `/streaming/${capsula.id}/..%2F..%2Fsecretos.ts`, { token: docente.token })).status).toBe(404);
    const thumb = await t.call('GET', `/miniaturas/capsulas/${capsula.id}/`, { token: docente.token });
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    // The job also made the cards' variants of the poster.
    for (const [ancho, alto] of [
      [320, 180],
      [640, 360],
    ] as const) {
      const url = `/miniaturas/capsulas/${capsula.id}/?ancho=${ancho}&v=${versionMiniatura(capsula.fecha_creacion)}`;
      const variante = await t.call('GET', url, { headers: { cookie: `ed_access=${docente.token}` } });
      expect(variante.headers.get('content-type')).toBe('image/webp');
      expect(variante.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await variante.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([ancho, alto]);
    }
    expect((await t.call('GET', `/miniaturas/capsulas/${capsula.id}/?ancho=1280`, { token: docente.token })).status).toBe(404);
    expect((await (await t.call('GET', '/api/capsulas/procesando', { token: admin.token })).json()).capsulas).toEqual([]);
  });

  it('tells the author why a video could not be processed, after the last retry', async () => {
    const res = await subir(admin.token, campos({ titulo: 'Video dañado' }), { data: mp4, name: 'clase.mp4' });
    const { id } = await res.json();
    // The original is damaged after the upload was accepted.
    await t.storage.write(`capsulas/${id}/original.mp4`, Buffer.from('dañado'));
    for (let i = 0; i < 3; i++) {
      await t.db.update(trabajos).set({ ejecutar_desde: new Date(0) });
      await t.jobs.drain();
    }
    const panel = await (await t.call('GET', '/api/capsulas/procesando', { token: admin.token })).json();
    expect(panel.capsulas.find((c: { id: number }) => c.id === id)).toMatchObject({
      estado: 'error',
      mensaje_error: 'No se pudo procesar el video. Súbalo nuevamente o en otro formato (.mp4 recomendado).',
    });
    expect((await t.call('GET', `/api/capsulas/procesando?usuario_id=${admin.id}`, { token: docente.token })).status).toBe(403);
  });

  it('accepts avi, mpeg and mov by their bytes and refuses anything else with SPEC’s message', async () => {
    for (const format of ['avi', 'mpeg', 'mov'] as const) {
      const res = await subir(admin.token, campos(), { data: await video({ format, audio: false }), name: `clase.${format}` });
      expect(res.status, format).toBe(201);
      expect((await res.json()).extension).toBe(format);
    }
    for (const data of ['esto no es un video', Buffer.concat([mp4.subarray(0, 64), Buffer.alloc(512)])]) {
      const res = await subir(admin.token, campos(), { data, name: 'clase.mp4' });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual({ archivo: ['El video no es válido. Debe subir un archivo .mp4, .avi, .mpeg o .mov'] });
    }
    const none = await subir(admin.token, campos());
    expect((await none.json()).errors).toEqual({ archivo: ['Debe subir un video'] });
    await t.db.delete(trabajos);
  });

  it('answers every form message of SPEC 5', async () => {
    const res = await subir(
      admin.token,
      { titulo: '', descripcion: '', id_area: '-1', id_metodologia: '0', id_nivel: '-1' },
      { data: mp4, name: 'x.mp4' },
    );
    expect((await res.json()).errors).toEqual({
      titulo: ['Debe ingresar un título'],
      descripcion: ['Debe ingresar una descripción'],
      id_area: ['Debe seleccionar una area'],
      id_metodologia: ['Debe seleccionar una metodologia'],
      id_nivel: ['Debe seleccionar un nivel'],
    });
    const largos = await subir(admin.token, campos({ titulo: 'x'.repeat(101), descripcion: 'x'.repeat(1001) }), {
      data: mp4,
      name: 'x.mp4',
    });
    expect((await largos.json()).errors).toEqual({
      titulo: ['Puede ingresar hasta 100 caracteres'],
      descripcion: ['Puede ingresar hasta 1000 caracteres'],
    });
    const inexistentes = await subir(admin.token, campos({ id_area: '99999', id_nivel: 'ZZ' }), { data: mp4, name: 'x.mp4' });
    expect((await inexistentes.json()).errors).toEqual({ id_area: ['Debe seleccionar una area'], id_nivel: ['Debe seleccionar un nivel'] });
  });
});

describe('watching, searching, liking, commenting', () => {
  it('lists by text, area, methodology and level, ordered and paginated', async () => {
    const a = await publicada({ titulo: 'Geometría con origami' });
    const b = await publicada({ titulo: 'Ecuaciones en la vida diaria', id_nivel: '08' });
    await t.call('GET', `/api/capsulas/${a.id}/`, { token: docente.token });
    const get = async (q: string) =>
      (await (await t.call('GET', `/api/capsulas/?${q}`, { token: docente.token })).json()).capsula.map((c: { id: number }) => c.id);
    expect(await get('titulo=geometria')).toEqual([a.id]);
    expect(await get('nivel=08')).toEqual([b.id]);
    expect(await get(`area=${ids.area}&metodologia=${ids.metodologia}&nivel=-1&titulo=ecuacion`)).toEqual([b.id]);
    expect((await get('order=n_visitas'))[0]).toBe(a.id);
    const page = await (await t.call('GET', '/api/capsulas/?tamano_pagina=5&pagina=1', { token: docente.token })).json();
    expect(page.num_pages).toBe(Math.ceil(page.num_results / 5));
  });

  it('counts views once per visit and answers 404 "No se encontró capsula"', async () => {
    const c = await publicada();
    await t.call('GET', `/api/capsulas/${c.id}/`, { token: docente.token });
    const again = await (await t.call('GET', `/api/capsulas/${c.id}/`, { token: docente.token })).json();
    expect(again.n_visitas).toBe(1);
    const missing = await t.call('GET', '/api/capsulas/999999/', { token: docente.token });
    expect(await missing.json()).toMatchObject({ detail: 'No se encontró capsula' });
  });

  it('likes and comments with replies, in the user’s own name', async () => {
    const c = await publicada();
    const like = await t.call('POST', '/api/capsulas/like/', {
      token: docente.token,
      json: { id_usuario: docente.id, id_capsula: c.id, add: true },
    });
    expect((await like.json()).likes).toEqual([{ id: docente.id }]);
    expect(
      (await t.call('POST', '/api/capsulas/like/', { token: docente.token, json: { id_usuario: admin.id, id_capsula: c.id, add: true } }))
        .status,
    ).toBe(403);
    const base = await t.call('POST', '/api/capsulas/comentarios/', {
      token: docente.token,
      json: { id_usuario: docente.id, id_capsula: c.id, contenido: '¡Excelente!' },
    });
    expect(base.status).toBe(201);
    const { id: parent } = await base.json();
    const reply = await t.call('POST', '/api/capsulas/comentarios/', {
      token: admin.token,
      json: { id_usuario: admin.id, id_capsula: c.id, contenido: 'Gracias', id_respuesta_comentario: parent },
    });
    expect(await reply.json()).toMatchObject({ id_capsula: c.id, id_respuesta_comentario: parent });
    const lista = await (await t.call('GET', `/api/capsulas/comentarios/${c.id}/`, { token: docente.token })).json();
    expect([lista.comentarios_base.length, lista.comentarios_hijos.length]).toEqual([1, 1]);
    const empty = await t.call('POST', '/api/capsulas/comentarios/', {
      token: docente.token,
      json: { id_usuario: docente.id, id_capsula: c.id, contenido: '' },
    });
    expect((await empty.json()).errors).toEqual({ contenido: ['Debe ingresar un comentario'] });
  });

  it('downloads the original with its title and Range', async () => {
    const c = await publicada({ titulo: 'Clase: ¿qué es una fracción?' });
    const res = await t.call('GET', `/api/capsulas/${c.id}/descargar/`, { token: docente.token });
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Clase: _que es una fraccion?.mp4"; filename*=UTF-8''Clase%3A%20%C2%BFqu%C3%A9%20es%20una%20fracci%C3%B3n%3F.mp4`,
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(mp4)).toBe(true);
    const part = await t.call('GET', `/api/capsulas/${c.id}/descargar/`, { token: docente.token, headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('ftypisom');
  });
});

describe('editing and deleting', () => {
  it('edits (author or admin), never replacing the file; others get 403', async () => {
    const c = await publicada();
    const form = { ...campos({ titulo: 'Título editado', id_nivel: '07' }), id: String(c.id) };
    expect((await t.call('PUT', '/api/capsulas/', { token: docente.token, body: formulario(form) })).status).toBe(403);
    expect((await t.call('PUT', '/api/capsulas/', { token: admin.token, body: formulario(form) })).status).toBe(204);
    const after = await (await t.call('GET', `/api/capsulas/${c.id}/`, { token: admin.token })).json();
    expect(after).toMatchObject({ titulo: 'Título editado', id_nivel: { codigo: '07' } });
  });

  it('deletes the capsule with comments, likes, files and renditions', async () => {
    const c = await publicada();
    await t.call('POST', '/api/capsulas/comentarios/', {
      token: docente.token,
      json: { id_usuario: docente.id, id_capsula: c.id, contenido: 'Hola' },
    });
    expect((await t.call('DELETE', `/api/capsulas/${c.id}/`, { token: docente.token })).status).toBe(403);
    expect((await t.call('DELETE', `/api/capsulas/${c.id}/`, { token: admin.token })).status).toBe(204);
    expect(await t.db.select().from(tablaCapsulas).where(eq(tablaCapsulas.id, c.id))).toEqual([]);
    expect(await t.storage.size(`capsulas/${c.id}/original.mp4`)).toBeNull();
    expect(await t.storage.size(`capsulas/${c.id}/hls/manifest.m3u8`)).toBeNull();
  });
});
