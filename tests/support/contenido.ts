/**
 * Content the API tests seed straight into the database, so a test about moderation, comments or
 * notifications does not go through an upload first: the catalogue rows a resource needs, a
 * capsule, material or manual by an author, forum categories and conversations. Each insert has
 * neutral defaults, takes the fields a test asserts on as `extra`, and answers the new row's id.
 * Also the signed-in call wrappers several API test files share.
 */
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  areas,
  capsulas,
  foroCategorias,
  foroConversaciones,
  manuales,
  materiales,
  materialesOas,
  metodologias,
  niveles,
  oas,
  tiposMaterial,
  unidades,
} from '../../src/lib/server/db/schema.server.ts';
import type { TestApi } from './api.ts';
import { type Archivo, formData } from './form.ts';
import { type VideoOptions, video } from './video.ts';

/** A signed-in account, as `t.session()` answers it. */
export type Sesion = Awaited<ReturnType<TestApi['session']>>;
/** Whoever writes a row: only the account id matters. */
type Autor = Pick<Sesion, 'id'>;

/** The first row of each catalogue a resource refers to. */
export interface Catalogos {
  area: number;
  nivel: string;
  unidad: number;
  metodologia: number;
  tipo: number;
}

// The catalogues are seeded once per database and never change in a test: read them once.
const leidos = new WeakMap<TestApi, Promise<Catalogos>>();

async function leerCatalogos(t: TestApi): Promise<Catalogos> {
  const [area] = await t.db.select().from(areas).limit(1);
  const [nivel] = await t.db.select().from(niveles).limit(1);
  const [unidad] = await t.db.select().from(unidades).limit(1);
  const [metodologia] = await t.db.select().from(metodologias).limit(1);
  const [tipo] = await t.db.select().from(tiposMaterial).limit(1);
  if (!area || !nivel || !unidad || !metodologia || !tipo) throw new Error('catalogs not seeded');
  return { area: area.id, nivel: nivel.codigo, unidad: unidad.id, metodologia: metodologia.id, tipo: tipo.id };
}

/** The first area, level, unit, methodology and material type; throws if the catalogues are empty. */
export function catalogos(t: TestApi): Promise<Catalogos> {
  let leido = leidos.get(t);
  if (!leido) {
    leido = leerCatalogos(t);
    leidos.set(t, leido);
  }
  return leido;
}

/** The unit of an area (by its code, e.g. 'MA') at a level (e.g. '07'); throws if there is none. */
export async function unidadDe(t: TestApi, codigoArea: string, codigoNivel: string) {
  const [area] = await t.db.select().from(areas).where(eq(areas.codigo, codigoArea));
  const [unidad] = await t.db
    .select()
    .from(unidades)
    .where(and(eq(unidades.id_area, area?.id ?? 0), eq(unidades.codigo_nivel, codigoNivel)));
  if (!unidad) throw new Error(`no unit of ${codigoArea} at level ${codigoNivel}`);
  return unidad;
}

/**
 * The form fields of a valid material upload (POST /api/bdocente/): 7° básico Matemática, its
 * first unit and that unit's first OA, titled 'Guía de fracciones'.
 */
export async function camposDeMaterial(t: TestApi): Promise<Record<string, string | string[]>> {
  const u = await unidadDe(t, 'MA', '07');
  const [oa] = await t.db.select().from(oas).where(eq(oas.unidad, u.id));
  const [tipo] = await t.db.select().from(tiposMaterial);
  return {
    id_area: String(u.id_area),
    id_nivel: '07',
    id_unidad: String(u.id),
    oas: [String(oa?.id)],
    titulo: 'Guía de fracciones',
    descripcion: 'Ejercicios',
    tipo_material_docente: String(tipo?.id),
  };
}

function idDe(filas: { id: number }[]): number {
  const id = filas[0]?.id;
  if (id === undefined) throw new Error('row not inserted');
  return id;
}

/** A ready capsule by `autor`. */
export async function insertarCapsula(t: TestApi, autor: Autor, titulo: string, extra: Partial<typeof capsulas.$inferInsert> = {}) {
  const cat = await catalogos(t);
  const fila = {
    titulo,
    descripcion: 'Guía de trabajo',
    extension: 'mp4',
    archivo: 'capsulas/x/original.mp4',
    estado: 'listo',
    id_area: cat.area,
    codigo_nivel: cat.nivel,
    id_metodologia: cat.metodologia,
    id_usuario: autor.id,
  } satisfies typeof capsulas.$inferInsert;
  return idDe(
    await t.db
      .insert(capsulas)
      .values({ ...fila, ...extra })
      .returning(),
  );
}

/** A material of the teachers' library by `autor`. */
export async function insertarMaterial(t: TestApi, autor: Autor, titulo: string, extra: Partial<typeof materiales.$inferInsert> = {}) {
  const cat = await catalogos(t);
  const fila = {
    titulo,
    descripcion: 'Guía de trabajo',
    extension: 'pdf',
    archivo: 'bdocente/x/original.pdf',
    id_area: cat.area,
    codigo_nivel: cat.nivel,
    id_unidad: cat.unidad,
    id_tipo_material: cat.tipo,
    id_usuario: autor.id,
  } satisfies typeof materiales.$inferInsert;
  return idDe(
    await t.db
      .insert(materiales)
      .values({ ...fila, ...extra })
      .returning(),
  );
}

/**
 * A material of `autor` recorded in `unidad` (its area and level taken from the unit) and aligned to
 * the OA ids `oas`, as a published upload leaves it; `extra` overrides columns (`oculto`, say).
 */
export async function publicarMaterial(
  t: TestApi,
  autor: Autor,
  titulo: string,
  alineado: { unidad: number; oas: number[] },
  extra: Partial<typeof materiales.$inferInsert> = {},
) {
  const [unidad] = await t.db.select().from(unidades).where(eq(unidades.id, alineado.unidad));
  if (!unidad) throw new Error(`no unit ${alineado.unidad}`);
  const id = await insertarMaterial(t, autor, titulo, {
    id_area: unidad.id_area,
    codigo_nivel: unidad.codigo_nivel,
    id_unidad: unidad.id,
    ...extra,
  });
  if (alineado.oas.length > 0) await t.db.insert(materialesOas).values(alineado.oas.map((id_oa) => ({ id_material: id, id_oa })));
  return id;
}

/** A manual uploaded by `autor` (its `autor` field, the book's author, defaults to 'Ana Pérez'). */
export async function insertarManual(t: TestApi, autor: Autor, titulo: string, extra: Partial<typeof manuales.$inferInsert> = {}) {
  const cat = await catalogos(t);
  const fila = {
    titulo,
    autor: 'Ana Pérez',
    descripcion: 'Guía de trabajo',
    extension: 'pdf',
    archivo: 'manuales/x/original.pdf',
    id_area: cat.area,
    id_usuario: autor.id,
  } satisfies typeof manuales.$inferInsert;
  return idDe(
    await t.db
      .insert(manuales)
      .values({ ...fila, ...extra })
      .returning(),
  );
}

/** A forum category without an image: active 'Convivencia' unless told otherwise. */
export async function insertarCategoria(t: TestApi, campos: Partial<typeof foroCategorias.$inferInsert> = {}) {
  return idDe(
    await t.db
      .insert(foroCategorias)
      .values({ nombre: 'Convivencia', descripcion: 'Espacio', activa: true, archivo: '', ...campos })
      .returning(),
  );
}

/** A forum conversation by `autor` in `categoria`. */
export async function insertarConversacion(
  t: TestApi,
  categoria: number,
  autor: Autor,
  titulo: string,
  extra: Partial<typeof foroConversaciones.$inferInsert> = {},
) {
  return idDe(
    await t.db
      .insert(foroConversaciones)
      .values({ id_categoria: categoria, id_usuario_creador: autor.id, titulo, contenido: 'Compartamos ideas', ...extra })
      .returning(),
  );
}

/**
 * Calls as a signed-in person. `api` is read at call time, since test files create their harness
 * in `beforeAll`: `const { get, post, json } = llamadas(() => t)`.
 */
export function llamadas(api: () => TestApi) {
  const get = (quien: Sesion, path: string) => api().call('GET', path, { token: quien.token });
  return {
    get,
    post: (quien: Sesion, path: string, cuerpo: unknown) => api().call('POST', path, { token: quien.token, json: cuerpo }),
    /** A GET that must answer 200: its body. */
    json: async <T = ReturnType<typeof JSON.parse>>(quien: Sesion, path: string): Promise<T> => {
      const res = await get(quien, path);
      expect(res.status).toBe(200);
      return res.json() as Promise<T>;
    },
  };
}

/** POST /api/capsulas/ of a capsule in the first catalogues with `archivo` (by default a short real video). */
export async function enviarCapsula(t: TestApi, token: string, archivo?: Archivo): Promise<Response> {
  const cat = await catalogos(t);
  archivo ??= { data: await video(), name: 'clase.mp4', type: 'video/mp4' };
  const campos = {
    titulo: 'Fracciones',
    descripcion: 'Una clase',
    id_area: String(cat.area),
    id_metodologia: String(cat.metodologia),
    id_nivel: cat.nivel,
  };
  return t.call('POST', '/api/capsulas/', { token, body: formData(campos, archivo) });
}

/** A capsule uploaded through the API by `token` (an admin's), as the upload form sends it; its id. */
export async function subirCapsula(t: TestApi, token: string, opciones: VideoOptions = {}): Promise<number> {
  const res = await enviarCapsula(t, token, { data: await video(opciones), name: 'clase.mp4', type: 'video/mp4' });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id;
}
