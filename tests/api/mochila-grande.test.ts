/**
 * Large mochilas (issue 35, decision 0076): over MOCHILA_DIRECTA_MB (1 MB in the tests) the first
 * GET queues one build in the database's queue and answers 202 with progress, later ones 202 until
 * it is built, then the ZIP from storage; a changed collection is built again; the reader is told
 * by the bell; the clean-up removes old files. And an OA's mochila, small or large.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materiales, materialesOas, mochilas, oas, trabajos } from '../../src/lib/server/db/schema.server.ts';
import { TRABAJO_MOCHILA, TRABAJO_MOCHILAS_VENCIDAS } from '../../src/lib/server/services/colecciones/mochilas-grandes.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { llamadas, publicarMaterial, type Sesion, unidadDe } from '../support/contenido.ts';
import { leerZip } from '../support/zip.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
const { get, post } = llamadas(() => t);
const put = (quien: Sesion, path: string, cuerpo: unknown) => t.call('PUT', path, { token: quien.token, json: cuerpo });
/** 1.5 MB that will not compress: over the tests' 1 MB threshold. */
const grande = randomBytes(1.5 * 1024 * 1024);
const pequeno = Buffer.from('%PDF-1.4 guía corta');
let idOa = 0;
let unidad = 0;
let idGrande = 0;

interface Progreso {
  estado: string;
  progreso: number;
  bytes_hechos: number;
  bytes_total: number;
}

const trabajosMochila = () => t.db.select().from(trabajos).where(eq(trabajos.tipo, TRABAJO_MOCHILA));

async function coleccionCon(quien: Sesion, nombre: string, material: number, compartida = false) {
  const res = await post(quien, '/api/colecciones/', { nombre, descripcion: '', compartida });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: number };
  expect((await post(quien, `/api/colecciones/${id}/items/`, { tipo: 'material', id: material, nota: 'Para el laboratorio' })).status).toBe(
    201,
  );
  return id;
}

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  const u = await unidadDe(t, 'MA', '07');
  unidad = u.id;
  const [oa] = await t.db.select().from(oas).where(eq(oas.unidad, u.id));
  idOa = oa?.id ?? 0;
  await t.storage.write('bdocente/grande/original.pdf', grande);
  await t.storage.write('bdocente/chico/original.pdf', pequeno);
  idGrande = await publicarMaterial(
    t,
    luis,
    'Guía grande',
    { unidad, oas: [] },
    {
      archivo: 'bdocente/grande/original.pdf',
      tamano: grande.length,
    },
  );
});
afterAll(() => t.close());

describe('a large collection mochila', () => {
  let id = 0;
  let primera = '';

  it('answers 202 with its progress, queues one build however many ask at once, then the ZIP from storage', async () => {
    id = await coleccionCon(ana, 'Unidad 2 - Fracciones', idGrande);
    const [a, b] = await Promise.all([get(ana, `/api/colecciones/${id}/mochila/`), get(ana, `/api/colecciones/${id}/mochila/`)]);
    for (const res of [a, b]) {
      expect(res.status).toBe(202);
      expect(res.headers.get('retry-after')).toBe('5');
      const cuerpo = (await res.json()) as Progreso;
      expect(cuerpo).toMatchObject({ estado: 'pendiente', progreso: 0, bytes_hechos: 0 });
      // From the sizes recorded at upload (the summary asks no storage and writes no index).
      expect(cuerpo.bytes_total).toBe(grande.length);
    }
    expect(await trabajosMochila()).toHaveLength(1);
    expect(await t.db.select().from(mochilas)).toHaveLength(1);

    // Half written, as the job records it while it streams.
    const [fila] = await t.db.select().from(mochilas);
    await t.db
      .update(mochilas)
      .set({ bytes_hechos: Math.floor((fila?.bytes_total ?? 0) / 2) })
      .where(eq(mochilas.id, fila?.id ?? 0));
    // A poll reads the database only: no stored file's size is asked, no index is written.
    const size = t.storage.size.bind(t.storage);
    let preguntas = 0;
    t.storage.size = (clave) => {
      preguntas += 1;
      return size(clave);
    };
    let mitad: Progreso;
    try {
      mitad = (await (await get(ana, `/api/colecciones/${id}/mochila/`)).json()) as Progreso;
    } finally {
      t.storage.size = size;
    }
    expect(preguntas).toBe(0);
    expect(mitad.progreso).toBe(50);
    expect(await trabajosMochila()).toHaveLength(1);

    expect(await t.jobs.drain()).toBeGreaterThanOrEqual(1);
    const [lista] = await t.db.select().from(mochilas);
    expect(lista).toMatchObject({ estado: 'lista' });
    primera = lista?.clave ?? '';
    expect(await t.storage.size(primera)).toBe(lista?.bytes);

    const res = await get(ana, `/api/colecciones/${id}/mochila/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('Mochila - Unidad 2 - Fracciones.zip');
    const archivos = await leerZip(Buffer.from(await res.arrayBuffer()));
    expect(archivos.get('materiales/01-guia-grande.pdf')?.equals(grande)).toBe(true);
    const indice = archivos.get('index.html')?.toString() ?? '';
    expect(indice).toContain('Para el laboratorio');
    expect(indice).toContain('href="materiales/01-guia-grande.pdf"');
    expect(indice).not.toMatch(/<script/i);
    // No second build for the same contents.
    expect((await trabajosMochila()).filter((j) => j.estado === 'pendiente')).toHaveLength(0);

    // The bell says it is ready, and leads to the collection.
    const { notificaciones } = (await (await get(ana, '/api/notificaciones/')).json()) as {
      notificaciones: { tipo: string; texto: string; enlace: string }[];
    };
    expect(notificaciones).toContainEqual(
      expect.objectContaining({
        tipo: 'mochila_lista',
        texto: 'Tu mochila «Unidad 2 - Fracciones» está lista',
        enlace: `/colecciones/${id}`,
      }),
    );
  });

  it('is built again once the collection changes, and the old file goes', async () => {
    const coleccion = (await (await get(ana, `/api/colecciones/${id}/`)).json()) as { version: number; items: { id: number }[] };
    const editada = await put(ana, `/api/colecciones/${id}/`, {
      nombre: 'Unidad 2 - Fracciones',
      descripcion: 'Con otra nota',
      compartida: false,
      version: coleccion.version,
      items: coleccion.items.map((i) => ({ id: i.id, nota: 'Imprimir antes' })),
    });
    expect(editada.status).toBe(200);
    const res = await get(ana, `/api/colecciones/${id}/mochila/`);
    expect(res.status).toBe(202);
    await t.jobs.drain();
    const despues = await get(ana, `/api/colecciones/${id}/mochila/`);
    expect(despues.status).toBe(200);
    const indice = (await leerZip(Buffer.from(await despues.arrayBuffer()))).get('index.html')?.toString() ?? '';
    expect(indice).toContain('Imprimir antes');
    expect(indice).not.toContain('Para el laboratorio');
    const filas = await t.db.select().from(mochilas);
    expect(filas).toHaveLength(1);
    expect(filas[0]?.clave).not.toBe(primera);
    expect(await t.storage.size(primera)).toBeNull();
  });

  it('is its owner’s or a shared collection’s: someone else’s private one is a 404 and queues nothing', async () => {
    const antes = (await trabajosMochila()).length;
    expect((await get(luis, `/api/colecciones/${id}/mochila/`)).status).toBe(404);
    expect((await t.call('GET', `/api/colecciones/${id}/mochila/`)).status).toBe(401);
    expect(await trabajosMochila()).toHaveLength(antes);
    expect(await t.db.select().from(mochilas).where(eq(mochilas.id_usuario, luis.id))).toHaveLength(0);
    // Shared, it is built for its reader as they see it.
    const compartida = await coleccionCon(ana, 'Compartida', idGrande, true);
    expect((await get(luis, `/api/colecciones/${compartida}/mochila/`)).status).toBe(202);
    await t.jobs.drain();
    expect((await get(luis, `/api/colecciones/${compartida}/mochila/`)).status).toBe(200);
  });

  it('stops being built when what it holds changes before the job runs; the next request asks for what there is now', async () => {
    const otra = await coleccionCon(ana, 'Cambia pronto', idGrande);
    expect((await get(ana, `/api/colecciones/${otra}/mochila/`)).status).toBe(202);
    await t.db.update(materiales).set({ titulo: 'Guía grande (2.ª edición)' }).where(eq(materiales.id, idGrande));
    await t.jobs.drain();
    expect(
      await t.db
        .select()
        .from(mochilas)
        .where(and(eq(mochilas.origen, 'coleccion'), eq(mochilas.id_origen, otra))),
    ).toHaveLength(0);
    expect((await get(ana, `/api/colecciones/${otra}/mochila/`)).status).toBe(202);
    await t.jobs.drain();
    const res = await get(ana, `/api/colecciones/${otra}/mochila/`);
    expect(res.status).toBe(200);
    const nombres = [...(await leerZip(Buffer.from(await res.arrayBuffer()))).keys()];
    expect(nombres.some((n) => /^materiales\/01-guia-grande-2.*\.pdf$/.test(n))).toBe(true);
  });

  it('goes with its collection: deleting a shared one removes every reader’s built file at once', async () => {
    const compartida = await coleccionCon(ana, 'Se borra', idGrande, true);
    for (const quien of [ana, luis]) expect((await get(quien, `/api/colecciones/${compartida}/mochila/`)).status).toBe(202);
    await t.jobs.drain();
    const deEsta = () =>
      t.db
        .select()
        .from(mochilas)
        .where(and(eq(mochilas.origen, 'coleccion'), eq(mochilas.id_origen, compartida)));
    const construidas = await deEsta();
    expect(construidas.map((f) => f.estado)).toEqual(['lista', 'lista']);
    expect((await t.call('DELETE', `/api/colecciones/${compartida}/`, { token: ana.token })).status).toBe(204);
    expect(await deEsta()).toEqual([]);
    for (const f of construidas) expect(await t.storage.size(f.clave)).toBeNull();
  });

  it('is removed with its file once its days have passed (the hourly clean-up)', async () => {
    const filas = await t.db.select().from(mochilas);
    expect(filas.length).toBeGreaterThan(0);
    const antes = t.clock.now;
    t.clock.now = new Date(antes.getTime() + 8 * 24 * 60 * 60 * 1000);
    try {
      await t.jobs.enqueue(TRABAJO_MOCHILAS_VENCIDAS, {});
      await t.jobs.drain();
    } finally {
      t.clock.now = antes;
    }
    expect(await t.db.select().from(mochilas)).toHaveLength(0);
    for (const f of filas) expect(await t.storage.size(f.clave)).toBeNull();
  });
});

describe('an OA’s mochila', () => {
  it('carries the OA’s materials the reader may see, with the same index; 404 for an unknown OA', async () => {
    // Another OA of the unit than the large test's below.
    const delaUnidad = await t.db.select().from(oas).where(eq(oas.unidad, unidad));
    const oa = delaUnidad.find((o) => o.id !== idOa);
    expect(oa).toBeDefined();
    const idOaChico = oa?.id ?? 0;
    await publicarMaterial(
      t,
      luis,
      'Guía corta',
      { unidad, oas: [idOaChico] },
      { archivo: 'bdocente/chico/original.pdf', tamano: pequeno.length, licencia: 'CC-BY-4.0' },
    );
    await publicarMaterial(
      t,
      luis,
      'Guía oculta',
      { unidad, oas: [idOaChico] },
      { archivo: 'bdocente/chico/original.pdf', tamano: pequeno.length, oculto: true },
    );
    const res = await get(ana, `/api/oas/${idOaChico}/mochila/`);
    expect(res.status).toBe(200);
    const archivos = await leerZip(Buffer.from(await res.arrayBuffer()));
    expect([...archivos.keys()].sort()).toEqual(['index.html', 'materiales/01-guia-corta.pdf']);
    const indice = archivos.get('index.html')?.toString() ?? '';
    expect(indice).toContain(`Materiales de ${oa?.codigo}`);
    expect(indice).toContain('CC BY 4.0');
    expect(indice).not.toContain('Guía oculta');
    expect((await get(ana, '/api/oas/999999/mochila/')).status).toBe(404);
    expect((await t.call('GET', `/api/oas/${idOaChico}/mochila/`)).status).toBe(401);
  });

  it('is built by the job when large: 202, then the ZIP', async () => {
    await t.db.insert(materialesOas).values({ id_material: idGrande, id_oa: idOa });
    const res = await get(ana, `/api/oas/${idOa}/mochila/`);
    expect(res.status).toBe(202);
    await t.jobs.drain();
    const listo = await get(ana, `/api/oas/${idOa}/mochila/`);
    expect(listo.status).toBe(200);
    const archivos = await leerZip(Buffer.from(await listo.arrayBuffer()));
    expect([...archivos.values()].some((d) => d.equals(grande))).toBe(true);
  });
});
