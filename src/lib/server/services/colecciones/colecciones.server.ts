/**
 * Collections (issue 35): a person's named, ordered lists of items with a note each, private or
 * shared with the network by link (and then shown on their profile), copied by a colleague into
 * their own. Every change bumps the collection's `version`; an edit made from an older version is
 * refused with a 409, so two people (or two tabs) never overwrite each other silently.
 */
import { and, asc, count, desc, eq, inArray, max, notInArray, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import { truncar } from '../../../format/index.ts';
import {
  COLECCIONES_MAX,
  type ColeccionEntrada,
  type EdicionColeccionEntrada,
  ITEMS_MAX,
  NOMBRE_COLECCION_MAX,
} from '../../../validation/colecciones.ts';
import type { Db } from '../../db/client.server.ts';
import { colecciones, coleccionItems, usuarios } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import type { Items, RefItem } from './items.server.ts';

export const NO_ENCONTRADA = 'No se encontró la colección';
const CONFLICTO = 'Esta colección cambió mientras la editabas (quizás en otra pestaña). Vuelve a cargarla y repite tus cambios.';
const LLENA = `Una colección puede tener hasta ${ITEMS_MAX} elementos`;
const DEMASIADAS = `Puedes tener hasta ${COLECCIONES_MAX} colecciones`;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A collection in its owner's list or on a profile. */
export type ResumenColeccion = Esquema<'ResumenColeccion'>;
export type Coleccion = Esquema<'Coleccion'>;

const resumenColumnas = {
  id: colecciones.id,
  nombre: colecciones.nombre,
  descripcion: colecciones.descripcion,
  compartida: colecciones.compartida,
  version: colecciones.version,
  fecha_actualizacion: colecciones.fecha_actualizacion,
  // Spelled out: in a one-table select Drizzle leaves columns unqualified, and `id` would be the item's.
  n_items: sql<number>`(select count(*)::int from coleccion_items ci where ci.id_coleccion = "colecciones"."id")`,
};
const aResumen = (f: { fecha_actualizacion: Date } & Omit<ResumenColeccion, 'fecha_actualizacion'>): ResumenColeccion => ({
  ...f,
  fecha_actualizacion: f.fecha_actualizacion.toISOString(),
});

export function createColecciones(db: Db, items: Items, now: () => Date) {
  /** The collection row, locked for the change, if this person owns it; else 404 (theirs or not, it is not there to edit). */
  async function propiaParaCambiar(tx: Tx, actor: Actor, id: number) {
    const [fila] = await tx.select().from(colecciones).where(eq(colecciones.id, id)).for('update');
    if (!fila || fila.id_usuario !== actor.id) throw new ErrorDeDominio(404, NO_ENCONTRADA);
    return fila;
  }

  /**
   * Marks a change (after the caller checked the version it read): a new version and date, in the
   * same update as the collection's own fields when an edit changes them.
   */
  const cambiada = (
    tx: Tx,
    id: number,
    campos: Partial<Pick<typeof colecciones.$inferInsert, 'nombre' | 'descripcion' | 'compartida'>> = {},
  ) =>
    tx
      .update(colecciones)
      .set({ ...campos, version: sql`${colecciones.version} + 1`, fecha_actualizacion: now() })
      .where(eq(colecciones.id, id));

  async function nItems(tx: Tx | Db, id: number): Promise<number> {
    const [fila] = await tx.select({ n: count() }).from(coleccionItems).where(eq(coleccionItems.id_coleccion, id));
    return fila?.n ?? 0;
  }

  async function nuevaColeccion(
    tx: Tx,
    actor: Actor,
    campos: { nombre: string; descripcion: string; compartida: boolean; id_origen?: number },
  ) {
    const [propias] = await tx.select({ n: count() }).from(colecciones).where(eq(colecciones.id_usuario, actor.id));
    if ((propias?.n ?? 0) >= COLECCIONES_MAX) throw new ErrorDeDominio(400, DEMASIADAS);
    const [fila] = await tx
      .insert(colecciones)
      .values({ ...campos, id_usuario: actor.id, fecha_creacion: now(), fecha_actualizacion: now() })
      .returning({ id: colecciones.id });
    if (!fila) throw new Error('insert returned nothing');
    return fila.id;
  }

  async function obtener(actor: Actor, id: number): Promise<Coleccion> {
    const [fila] = await db
      .select({
        ...resumenColumnas,
        id_usuario: colecciones.id_usuario,
        primer_nombre: usuarios.primer_nombre,
        apellido_paterno: usuarios.apellido_paterno,
      })
      .from(colecciones)
      .innerJoin(usuarios, eq(usuarios.id, colecciones.id_usuario))
      .where(eq(colecciones.id, id));
    const propia = fila?.id_usuario === actor.id;
    if (!fila || !(propia || fila.compartida || esAdmin(actor))) throw new ErrorDeDominio(404, NO_ENCONTRADA);
    const filas = await db
      .select({
        id: coleccionItems.id,
        tipo: coleccionItems.tipo,
        id_item: coleccionItems.id_item,
        nota: coleccionItems.nota,
        posicion: coleccionItems.posicion,
      })
      .from(coleccionItems)
      .where(eq(coleccionItems.id_coleccion, id))
      .orderBy(asc(coleccionItems.posicion), asc(coleccionItems.id));
    const vistos = await items.visibles(
      actor,
      filas.map((f) => ({ tipo: f.tipo, id: f.id_item })),
    );
    const lista = filas
      .map((f) => ({ ...f, contenido: vistos.get(items.clave({ tipo: f.tipo, id: f.id_item })) ?? null }))
      // Others never learn that something they may not see is there.
      .filter((f) => propia || f.contenido !== null);
    const { id_usuario, primer_nombre, apellido_paterno, ...resumen } = fila;
    return {
      ...aResumen({ ...resumen, n_items: lista.length }),
      propia,
      autor: { id: id_usuario, nombre: `${primer_nombre} ${apellido_paterno}`.trim() },
      items: lista,
    };
  }

  return {
    obtener,

    async crear(actor: Actor, input: Required<ColeccionEntrada>): Promise<Coleccion> {
      const id = await db.transaction((tx) => nuevaColeccion(tx, actor, input));
      return obtener(actor, id);
    },

    /** This person's collections, the latest changed first. */
    async mias(actor: Actor): Promise<ResumenColeccion[]> {
      const filas = await db
        .select(resumenColumnas)
        .from(colecciones)
        .where(eq(colecciones.id_usuario, actor.id))
        .orderBy(desc(colecciones.fecha_actualizacion), desc(colecciones.id));
      return filas.map(aResumen);
    },

    /** A person's shared collections, for their profile. */
    async compartidasDe(idUsuario: number): Promise<ResumenColeccion[]> {
      const filas = await db
        .select(resumenColumnas)
        .from(colecciones)
        .where(and(eq(colecciones.id_usuario, idUsuario), eq(colecciones.compartida, true)))
        .orderBy(desc(colecciones.fecha_actualizacion), desc(colecciones.id));
      return filas.map(aResumen);
    },

    /**
     * Changes the name, description and sharing and, when `items` is given, the items: their order
     * is the list's, each with its note, and an item left out is removed. Refused whole (409) when
     * the collection changed since `version` was read; an item id not in it is a 400.
     */
    async editar(actor: Actor, id: number, input: EdicionColeccionEntrada & Required<ColeccionEntrada>): Promise<Coleccion> {
      await db.transaction(async (tx) => {
        const fila = await propiaParaCambiar(tx, actor, id);
        if (fila.version !== input.version) throw new ErrorDeDominio(409, CONFLICTO);
        if (input.items) {
          const ids = input.items.map((i) => Number(i.id));
          if (new Set(ids).size !== ids.length) throw new ErrorDeDominio(400, 'Un elemento aparece dos veces en la lista');
          const existentes = await tx
            .select({ id: coleccionItems.id })
            .from(coleccionItems)
            .where(and(eq(coleccionItems.id_coleccion, id), inArray(coleccionItems.id, ids)));
          if (existentes.length !== ids.length) throw new ErrorDeDominio(400, 'Un elemento de la lista no es de esta colección');
          // Drizzle reads an empty list as false (inArray) and true (notInArray): no items left removes them all.
          await tx.delete(coleccionItems).where(and(eq(coleccionItems.id_coleccion, id), notInArray(coleccionItems.id, ids)));
          // Every item's place and note in one statement, not one round trip each (up to ITEMS_MAX).
          if (ids.length > 0) {
            const filas = input.items.map((item, posicion) => sql`(${Number(item.id)}::int, ${posicion}::int, ${item.nota ?? ''}::text)`);
            await tx.execute(
              sql`update ${coleccionItems} set posicion = v.posicion, nota = v.nota from (values ${sql.join(filas, sql`, `)}) as v(id, posicion, nota) where ${coleccionItems.id} = v.id`,
            );
          }
        }
        await cambiada(tx, id, { nombre: input.nombre, descripcion: input.descripcion, compartida: input.compartida });
      });
      return obtener(actor, id);
    },

    async eliminar(actor: Actor, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        await propiaParaCambiar(tx, actor, id);
        await tx.delete(colecciones).where(eq(colecciones.id, id));
      });
    },

    /** Adds an item this person may see at the end, with its note. */
    async agregar(actor: Actor, id: number, ref: RefItem, nota: string): Promise<Coleccion> {
      await items.exigir(actor, ref);
      await db.transaction(async (tx) => {
        await propiaParaCambiar(tx, actor, id);
        if ((await nItems(tx, id)) >= ITEMS_MAX) throw new ErrorDeDominio(400, LLENA);
        const [ultimo] = await tx
          .select({ p: max(coleccionItems.posicion) })
          .from(coleccionItems)
          .where(eq(coleccionItems.id_coleccion, id));
        const [nueva] = await tx
          .insert(coleccionItems)
          .values({ id_coleccion: id, tipo: ref.tipo, id_item: ref.id, nota, posicion: (ultimo?.p ?? -1) + 1, fecha_creacion: now() })
          .onConflictDoNothing()
          .returning({ id: coleccionItems.id });
        if (!nueva) throw new ErrorDeDominio(400, 'Ese contenido ya está en esta colección');
        await cambiada(tx, id);
      });
      return obtener(actor, id);
    },

    /** Removes one item (by its id in the collection); one already gone is no change. */
    async quitar(actor: Actor, id: number, item: number): Promise<Coleccion> {
      await db.transaction(async (tx) => {
        await propiaParaCambiar(tx, actor, id);
        const borrados = await tx
          .delete(coleccionItems)
          .where(and(eq(coleccionItems.id_coleccion, id), eq(coleccionItems.id, item)))
          .returning({ id: coleccionItems.id });
        if (borrados.length > 0) await cambiada(tx, id);
      });
      return obtener(actor, id);
    },

    /** A copy into this person's own collections (private), with the items they may see, in order. */
    async copiar(actor: Actor, id: number): Promise<Coleccion> {
      const original = await obtener(actor, id);
      const visibles = original.items.filter((i) => i.contenido !== null);
      const nuevoId = await db.transaction(async (tx) => {
        const nuevo = await nuevaColeccion(tx, actor, {
          nombre: truncar(`Copia de ${original.nombre}`, NOMBRE_COLECCION_MAX),
          descripcion: original.descripcion,
          compartida: false,
          id_origen: original.id,
        });
        if (visibles.length > 0) {
          await tx.insert(coleccionItems).values(
            visibles.map((i, posicion) => ({
              id_coleccion: nuevo,
              tipo: i.tipo,
              id_item: i.id_item,
              nota: i.nota,
              posicion,
              fecha_creacion: now(),
            })),
          );
        }
        return nuevo;
      });
      return obtener(actor, nuevoId);
    },
  };
}
