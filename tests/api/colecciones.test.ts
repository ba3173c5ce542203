/** Saved items and collections (issue 35): /api/guardados/ and /api/colecciones/, in process. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capsulas, coleccionItems, materiales, subtitulos } from '../../src/lib/server/db/schema.server.ts';
import { ITEMS_MAX } from '../../src/lib/validation/colecciones.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import {
  insertarCapsula,
  insertarCategoria,
  insertarConversacion,
  insertarManual,
  insertarMaterial,
  llamadas,
  type Sesion,
} from '../support/contenido.ts';
import { leerZip } from '../support/zip.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let admin: Sesion;
const ids = { capsula: 0, material: 0, manual: 0, conversacion: 0, procesando: 0, oculto: 0, inactiva: 0 };
const { get, post, json } = llamadas(() => t);
const put = (quien: Sesion, path: string, cuerpo: unknown) => t.call('PUT', path, { token: quien.token, json: cuerpo });
const del = (quien: Sesion, path: string) => t.call('DELETE', path, { token: quien.token });
const detalle = async (res: Response) => ((await res.json()) as { detail: string }).detail;

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  admin = await t.session({ admin: true });
  ids.capsula = await insertarCapsula(t, admin, 'Fracciones en la recta');
  ids.material = await insertarMaterial(t, luis, 'Guía de fracciones');
  ids.manual = await insertarManual(t, admin, 'Manual de matemática');
  const categoria = await insertarCategoria(t);
  ids.conversacion = await insertarConversacion(t, categoria, luis, '¿Cómo enseñan fracciones?');
  ids.procesando = await insertarCapsula(t, admin, 'Aún procesando', { estado: 'procesando' });
  ids.oculto = await insertarMaterial(t, luis, 'Material oculto', { oculto: true });
  const inactiva = await insertarCategoria(t, { nombre: 'Cerrada', activa: false });
  ids.inactiva = await insertarConversacion(t, inactiva, luis, 'En una categoría inactiva');
});
afterAll(() => t.close());

describe('guardados', () => {
  it('saves each kind (201), again without change, and lists them newest first with their pages and thumbnails', async () => {
    for (const tipo of ['capsula', 'material', 'manual', 'conversacion'] as const) {
      t.clock.now = new Date(t.clock.now.getTime() + 1000);
      const res = await post(ana, '/api/guardados/', { tipo, id: ids[tipo] });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ tipo, id: ids[tipo] });
    }
    expect((await post(ana, '/api/guardados/', { tipo: 'capsula', id: ids.capsula })).status).toBe(201);
    const { results } = await json<{ results: { tipo: string; url: string; miniatura: string }[] }>(ana, '/api/guardados/');
    expect(results.map((r) => r.tipo)).toEqual(['conversacion', 'manual', 'material', 'capsula']);
    expect(results[3]).toMatchObject({
      url: `/capsulas/${ids.capsula}`,
      miniatura: `/miniaturas/capsulas/${ids.capsula}/`,
      titulo: 'Fracciones en la recta',
    });
    expect(results[0]?.url).toMatch(/^\/foro\/categorias\/\d+\/conversacion\/\d+$/);
    const soloManuales = await json<{ results: unknown[] }>(ana, '/api/guardados/?tipo=manual');
    expect(soloManuales.results).toHaveLength(1);
    // Another person's list is theirs.
    expect((await json<{ results: unknown[] }>(luis, '/api/guardados/')).results).toEqual([]);
  });

  it('refuses what the person may not see, in Spanish, and saves nothing', async () => {
    for (const [tipo, id] of [
      ['capsula', ids.procesando],
      ['material', ids.oculto],
      ['conversacion', ids.inactiva],
      ['manual', 999_999],
    ] as const) {
      const res = await post(ana, '/api/guardados/', { tipo, id });
      expect(res.status).toBe(400);
      expect(await detalle(res)).toBe('Ese contenido no existe o no está disponible para ti');
    }
    expect((await post(ana, '/api/guardados/', { tipo: 'video', id: 1 })).status).toBe(400);
    expect((await post(ana, '/api/guardados/', { tipo: 'capsula', id: 'x' })).status).toBe(400);
    expect((await json<{ results: unknown[] }>(ana, '/api/guardados/')).results).toHaveLength(4);
  });

  it('drops an item hidden or deleted since, and shows it again when restored', async () => {
    const id = await insertarMaterial(t, luis, 'Se ocultará');
    await post(ana, '/api/guardados/', { tipo: 'material', id });
    await t.db.update(materiales).set({ oculto: true }).where(eq(materiales.id, id));
    const titulos = async () => (await json<{ results: { titulo: string }[] }>(ana, '/api/guardados/')).results.map((r) => r.titulo);
    expect(await titulos()).not.toContain('Se ocultará');
    // Its author still sees it, and could save it.
    expect((await post(luis, '/api/guardados/', { tipo: 'material', id })).status).toBe(201);
    await t.db.update(materiales).set({ oculto: false }).where(eq(materiales.id, id));
    expect(await titulos()).toContain('Se ocultará');
    await t.db.delete(materiales).where(eq(materiales.id, id));
    expect(await titulos()).not.toContain('Se ocultará');
  });

  it('forgets with DELETE (204, twice without change) and needs a session', async () => {
    expect((await del(ana, `/api/guardados/manual/${ids.manual}/`)).status).toBe(204);
    expect((await del(ana, `/api/guardados/manual/${ids.manual}/`)).status).toBe(204);
    expect((await json<{ results: { tipo: string }[] }>(ana, '/api/guardados/')).results.map((r) => r.tipo)).not.toContain('manual');
    expect((await del(ana, '/api/guardados/video/1/')).status).toBe(400);
    expect((await t.call('GET', '/api/guardados/')).status).toBe(401);
    expect((await t.call('POST', '/api/guardados/', { json: { tipo: 'capsula', id: ids.capsula } })).status).toBe(401);
  });
});

interface Coleccion {
  id: number;
  version: number;
  compartida: boolean;
  propia: boolean;
  nombre: string;
  items: { id: number; tipo: string; id_item: number; nota: string; contenido: { titulo: string } | null }[];
}

async function nueva(quien: Sesion, cuerpo: object = { nombre: 'Unidad 2 - 7° básico - Fracciones' }): Promise<Coleccion> {
  const res = await post(quien, '/api/colecciones/', cuerpo);
  expect(res.status).toBe(201);
  return res.json();
}
const agregar = (quien: Sesion, c: number, cuerpo: object) => post(quien, `/api/colecciones/${c}/items/`, cuerpo);

describe('colecciones', () => {
  it('creates (201 with its id), lists one’s own, and adds items in order with notes', async () => {
    const c = await nueva(ana, { nombre: 'Unidad 2', descripcion: 'Fracciones', compartida: false });
    expect(c).toMatchObject({ id: expect.any(Number), nombre: 'Unidad 2', compartida: false, propia: true, version: 0, items: [] });
    expect((await agregar(ana, c.id, { tipo: 'capsula', id: ids.capsula, nota: 'Ver primero' })).status).toBe(201);
    const res = await agregar(ana, c.id, { tipo: 'conversacion', id: ids.conversacion });
    expect(res.status).toBe(201);
    const despues: Coleccion = await res.json();
    expect(despues.items.map((i) => [i.tipo, i.nota])).toEqual([
      ['capsula', 'Ver primero'],
      ['conversacion', ''],
    ]);
    expect(despues.version).toBe(2);
    const { results } = await json<{ results: { id: number; n_items: number }[] }>(ana, '/api/colecciones/');
    expect(results.find((r) => r.id === c.id)?.n_items).toBe(2);
    expect((await json<{ results: { id: number }[] }>(luis, '/api/colecciones/')).results.map((r) => r.id)).not.toContain(c.id);
  });

  it('refuses bad input and changes nothing: an item one may not see, twice the same, a long note, no name', async () => {
    const c = await nueva(ana);
    for (const cuerpo of [
      { tipo: 'material', id: ids.oculto },
      { tipo: 'capsula', id: ids.procesando },
      { tipo: 'manual', id: 999_999 },
    ]) {
      const res = await agregar(ana, c.id, cuerpo);
      expect(res.status).toBe(400);
      expect(await detalle(res)).toBe('Ese contenido no existe o no está disponible para ti');
    }
    const larga = await agregar(ana, c.id, { tipo: 'manual', id: ids.manual, nota: 'x'.repeat(10_000) });
    expect(larga.status).toBe(400);
    expect(JSON.stringify(await larga.json())).toContain('La nota puede tener hasta 1000 caracteres');
    expect((await agregar(ana, c.id, { tipo: 'manual', id: ids.manual })).status).toBe(201);
    const doble = await agregar(ana, c.id, { tipo: 'manual', id: ids.manual });
    expect(doble.status).toBe(400);
    expect(await detalle(doble)).toBe('Ese contenido ya está en esta colección');
    expect((await post(ana, '/api/colecciones/', { nombre: '  ' })).status).toBe(400);
    expect((await post(ana, '/api/colecciones/', { nombre: 'x'.repeat(121) })).status).toBe(400);
    const ahora = await json<Coleccion>(ana, `/api/colecciones/${c.id}/`);
    expect(ahora.items).toHaveLength(1);
    expect(ahora.version).toBe(1);
  });

  it(`holds at most ${ITEMS_MAX} items: the next one, or an edit listing 2,000, is refused`, async () => {
    const c = await nueva(ana);
    const extra = await Promise.all(Array.from({ length: ITEMS_MAX }, (_, i) => insertarManual(t, admin, `Manual ${i}`)));
    await t.db
      .insert(coleccionItems)
      .values(extra.map((id, posicion) => ({ id_coleccion: c.id, tipo: 'manual' as const, id_item: id, posicion })));
    const res = await agregar(ana, c.id, { tipo: 'capsula', id: ids.capsula });
    expect(res.status).toBe(400);
    expect(await detalle(res)).toBe(`Una colección puede tener hasta ${ITEMS_MAX} elementos`);
    const enorme = await put(ana, `/api/colecciones/${c.id}/`, {
      nombre: 'x',
      version: 0,
      items: Array.from({ length: 2000 }, (_, i) => ({ id: i + 1 })),
    });
    expect(enorme.status).toBe(400);
    expect(JSON.stringify(await enorme.json())).toContain(`Una colección puede tener hasta ${ITEMS_MAX} elementos`);
    expect((await json<Coleccion>(ana, `/api/colecciones/${c.id}/`)).items).toHaveLength(ITEMS_MAX);
    await del(ana, `/api/colecciones/${c.id}/`);
  });

  it('edits name, sharing, order, notes and removal in one PUT; a stale version is a 409 and changes nothing', async () => {
    const c = await nueva(ana);
    await agregar(ana, c.id, { tipo: 'capsula', id: ids.capsula });
    await agregar(ana, c.id, { tipo: 'material', id: ids.material });
    const r = await agregar(ana, c.id, { tipo: 'manual', id: ids.manual });
    const leida: Coleccion = await r.json();
    const [a, b, m] = leida.items;
    if (!a || !b || !m) throw new Error('three items expected');
    const res = await put(ana, `/api/colecciones/${c.id}/`, {
      nombre: 'Fracciones (revisada)',
      descripcion: 'Para 7°',
      compartida: true,
      version: leida.version,
      items: [
        { id: m.id, nota: 'Capítulo 3' },
        { id: a.id, nota: 'Ver en clase' },
      ],
    });
    expect(res.status).toBe(200);
    const editada: Coleccion = await res.json();
    expect(editada).toMatchObject({ nombre: 'Fracciones (revisada)', compartida: true, version: leida.version + 1 });
    expect(editada.items.map((i) => [i.tipo, i.nota])).toEqual([
      ['manual', 'Capítulo 3'],
      ['capsula', 'Ver en clase'],
    ]);
    // A second editor who read the old version: refused whole, in Spanish.
    const tarde = await put(ana, `/api/colecciones/${c.id}/`, { nombre: 'Pisada', version: leida.version });
    expect(tarde.status).toBe(409);
    expect(await detalle(tarde)).toMatch(/^Esta colección cambió mientras la editabas/);
    expect((await json<Coleccion>(ana, `/api/colecciones/${c.id}/`)).nombre).toBe('Fracciones (revisada)');
    // An item of another collection, or listed twice.
    const otra = await nueva(ana);
    const ajeno: Coleccion = await (await agregar(ana, otra.id, { tipo: 'capsula', id: ids.capsula })).json();
    const v = editada.version;
    expect((await put(ana, `/api/colecciones/${c.id}/`, { nombre: 'x', version: v, items: [{ id: ajeno.items[0]?.id }] })).status).toBe(
      400,
    );
    expect((await put(ana, `/api/colecciones/${c.id}/`, { nombre: 'x', version: v, items: [{ id: m.id }, { id: m.id }] })).status).toBe(
      400,
    );
    expect((await json<Coleccion>(ana, `/api/colecciones/${c.id}/`)).version).toBe(v);
    // Removing one item by its own route.
    const quitada = await del(ana, `/api/colecciones/${c.id}/items/${m.id}/`);
    expect(quitada.status).toBe(200);
    expect(((await quitada.json()) as Coleccion).items.map((i) => i.tipo)).toEqual(['capsula']);
  });

  it('is its owner’s: others get 404 for a private one and may not change a shared one', async () => {
    const privada = await nueva(ana);
    const compartida = await nueva(ana, { nombre: 'Compartida', compartida: true });
    expect((await get(luis, `/api/colecciones/${privada.id}/`)).status).toBe(404);
    expect((await post(luis, `/api/colecciones/${privada.id}/copiar/`, {})).status).toBe(404);
    expect((await get(luis, `/api/colecciones/${compartida.id}/`)).status).toBe(200);
    expect((await put(luis, `/api/colecciones/${compartida.id}/`, { nombre: 'Mía', version: 0 })).status).toBe(404);
    expect((await agregar(luis, compartida.id, { tipo: 'capsula', id: ids.capsula })).status).toBe(404);
    expect((await del(luis, `/api/colecciones/${compartida.id}/`)).status).toBe(404);
    expect((await get(ana, '/api/colecciones/0/')).status).toBe(400);
    expect((await t.call('GET', `/api/colecciones/${compartida.id}/`)).status).toBe(401);
    expect((await del(ana, `/api/colecciones/${privada.id}/`)).status).toBe(204);
    expect((await get(ana, `/api/colecciones/${privada.id}/`)).status).toBe(404);
  });

  it('hides an item no longer available from others and marks it for the owner; a copy takes what the colleague sees', async () => {
    const oculta = await insertarCapsula(t, admin, 'Será ocultada');
    const c = await nueva(ana, { nombre: 'Para copiar', compartida: true });
    await agregar(ana, c.id, { tipo: 'capsula', id: oculta, nota: 'Primero' });
    await agregar(ana, c.id, { tipo: 'material', id: ids.material, nota: 'Después' });
    await t.db.update(capsulas).set({ oculto: true }).where(eq(capsulas.id, oculta));
    const delDueno = await json<Coleccion>(ana, `/api/colecciones/${c.id}/`);
    expect(delDueno.items.map((i) => i.contenido?.titulo ?? null)).toEqual([null, 'Guía de fracciones']);
    const deOtro = await json<Coleccion>(luis, `/api/colecciones/${c.id}/`);
    expect(deOtro.propia).toBe(false);
    expect(deOtro.items.map((i) => i.nota)).toEqual(['Después']);
    const res = await post(luis, `/api/colecciones/${c.id}/copiar/`, {});
    expect(res.status).toBe(201);
    const copia: Coleccion = await res.json();
    expect(copia).toMatchObject({ nombre: 'Copia de Para copiar', compartida: false, propia: true });
    expect(copia.items.map((i) => [i.tipo, i.nota])).toEqual([['material', 'Después']]);
    // The copy is Luis's own: Ana's later edits do not touch it.
    await del(ana, `/api/colecciones/${c.id}/`);
    expect((await json<Coleccion>(luis, `/api/colecciones/${copia.id}/`)).items).toHaveLength(1);
  });
});

describe('mochila', () => {
  it('is the collection as a ZIP: files, the light MP4 and captions, conversations and an index with notes, OAs and licences; only what the reader sees', async () => {
    const capsula = await insertarCapsula(t, admin, 'Cápsula liviana', { tamano_liviana: 5 });
    await t.storage.write(`capsulas/${capsula}/liviana.mp4`, Buffer.from('video'));
    await t.db
      .insert(subtitulos)
      .values({ id_capsula: capsula, idioma: 'es', vtt: 'WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n', lineas: [], texto: 'Hola' });
    const material = await insertarMaterial(t, luis, 'Guía con archivo', { archivo: 'bdocente/m/original.pdf', licencia: 'CC-BY-4.0' });
    await t.storage.write('bdocente/m/original.pdf', Buffer.from('%PDF-1.4 guía'));
    const oculto = await insertarMaterial(t, admin, 'No se lleva', { archivo: 'bdocente/m/original.pdf' });
    const c = await nueva(ana, { nombre: 'Para el laboratorio', compartida: true });
    await agregar(ana, c.id, { tipo: 'capsula', id: capsula, nota: 'Ver en clase' });
    await agregar(ana, c.id, { tipo: 'material', id: material, nota: 'Imprimir' });
    await agregar(ana, c.id, { tipo: 'material', id: oculto });
    await agregar(ana, c.id, { tipo: 'conversacion', id: ids.conversacion });
    await t.db.update(materiales).set({ oculto: true }).where(eq(materiales.id, oculto));

    const res = await get(luis, `/api/colecciones/${c.id}/mochila/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const archivos = await leerZip(Buffer.from(await res.arrayBuffer()));
    expect([...archivos.keys()].sort()).toEqual([
      'capsulas/01-capsula-liviana.es.vtt',
      'capsulas/01-capsula-liviana.mp4',
      'conversaciones/03-como-ensenan-fracciones.html',
      'index.html',
      'materiales/02-guia-con-archivo.pdf',
    ]);
    expect(archivos.get('capsulas/01-capsula-liviana.mp4')?.toString()).toBe('video');
    const indice = archivos.get('index.html')?.toString() ?? '';
    for (const texto of [
      'Para el laboratorio',
      'Cápsula liviana',
      'Ver en clase',
      'Imprimir',
      'Guía con archivo',
      'CC BY 4.0',
      'href="materiales/02-guia-con-archivo.pdf"',
    ]) {
      expect(indice).toContain(texto);
    }
    expect(indice).not.toContain('No se lleva');
    expect(indice).not.toMatch(/<script|src=|https?:\/\/(?!creativecommons)/i);
    // The collection's page states its size from the database alone, the items the plan carries.
    const { colecciones } = t.api.services;
    const pedido = await colecciones.pedirMochila({ id: luis.id, groups: [] }, 'coleccion', c.id, { encargar: false });
    const plan = await colecciones.planMochila(pedido.leida);
    expect(pedido.directa).toBe(true);
    expect(pedido.leida.resumen.elementos).toBe(plan.entradas.length);
    expect(plan.entradas).toHaveLength(3);
    expect(pedido.leida.resumen.bytes).toBeGreaterThan(0);
    expect(pedido.leida.resumen.firma).toBe(plan.firma);
  });

  it('is its owner’s or a shared collection’s, with a session', async () => {
    const privada = await nueva(ana);
    expect((await get(luis, `/api/colecciones/${privada.id}/mochila/`)).status).toBe(404);
    expect((await t.call('GET', `/api/colecciones/${privada.id}/mochila/`)).status).toBe(401);
    expect((await get(ana, `/api/colecciones/${privada.id}/mochila/`)).status).toBe(200);
  });
});
