/**
 * The home's 'Conversaciones con actividad' (issue 21): the conversations this person may open, by
 * their latest activity, their creation or their latest counted comment.
 *
 * Without grouping every forum comment (issue 36: at 600,000 comments that was the slowest read of
 * the home). The `k` most active visible conversations are among the `k` visible ones created last
 * and those of the latest counted comments: if one of the top `k` were neither, `k` others would be
 * more recent. When the latest RECIENTES comments name fewer than `k` visible conversations and
 * older ones remain, that argument does not hold, and every conversation is grouped.
 *
 * The block is the same for everyone who sees the same conversations: admins, and every teacher
 * with no hidden conversation of their own (a hidden one is its author's and admins' only). It is
 * read once per such group until the forum changes (2 s for another server's writes), not once per
 * person: at 200 teachers opening their home that was four statements each.
 */
import type { SQL } from 'drizzle-orm';
import { and, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { cacheDeLecturas } from '../../db/cache.server.ts';
import type { Db } from '../../db/client.server.ts';
import { foroCategorias, foroComentarios, foroConversaciones } from '../../db/schema.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { categoriasVisibles, comentarioContado, iso } from '../foro/comun.server.ts';
import { visibleA } from '../recursos.server.ts';

const RECIENTES = 500;
/** A teacher who wrote nothing: sees what everyone sees. */
export const NADIE: Actor = { id: 0, groups: [] };

export interface ItemConversacion {
  id: number;
  titulo: string;
  href: string;
  categoria: string;
  comentarios: number;
  /** Its creation or its latest comment, whichever is newer. */
  actividad: string;
}

/** `visibles`: the conversations this person may open (a condition on conversations and their category). */
async function candidatasActividad(db: Db, visibles: SQL | undefined, k: number): Promise<number[] | undefined> {
  const visiblesEntre = (ids?: number[]) =>
    db
      .select({ id: foroConversaciones.id })
      .from(foroConversaciones)
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(and(visibles, ids ? inArray(foroConversaciones.id, ids) : undefined));
  const [nuevas, recientes] = await Promise.all([
    visiblesEntre().orderBy(desc(foroConversaciones.fecha_creacion), desc(foroConversaciones.id)).limit(k),
    db
      .select({ id: foroComentarios.id_conversacion })
      .from(foroComentarios)
      .where(comentarioContado)
      .orderBy(desc(foroComentarios.fecha_creacion), desc(foroComentarios.id))
      .limit(RECIENTES),
  ]);
  const comentadas = [...new Set(recientes.map((r) => r.id))];
  const comentadasVisibles = comentadas.length > 0 ? (await visiblesEntre(comentadas)).map((r) => r.id) : [];
  if (recientes.length === RECIENTES && comentadasVisibles.length < k) return undefined;
  return [...new Set([...nuevas.map((r) => r.id), ...comentadasVisibles])];
}

/** The conversations a person may open: not hidden (or their own), in an active category (admins: all). */
export const conversacionesVisibles = (actor: Actor) => and(categoriasVisibles(actor), visibleA(actor, foroConversaciones));

/**
 * Who has a hidden item of their own in `tabla` (few: the partial indexes of hidden rows), read once
 * until the table changes (2 s for another server's writes): the people whose home blocks are their
 * own rather than their group's.
 */
export function autoresConOcultos(db: Db, now: () => Date, tabla: PgTable & { oculto: PgColumn }, autor: PgColumn) {
  const cache = cacheDeLecturas<Set<number>>(db, { segundos: 2, now, tablas: [tabla], sinContadores: [tabla], max: 1 });
  return () =>
    cache.leer('', async () => {
      const filas = await db.selectDistinct({ id: autor }).from(tabla).where(eq(tabla.oculto, true));
      return new Set(filas.map((f) => Number(f.id)));
    });
}

/**
 * `leerAutoresOcultos`: whoever has a hidden conversation of their own (foro_conversaciones_ocultas_idx),
 * as autoresConOcultos reads them; the home's forum counts share it.
 */
export function createConversacionesActivas(ctx: ServiceContext, filas: number, leerAutoresOcultos: () => Promise<Set<number>>) {
  const { db } = ctx;

  async function leer(actor: Actor): Promise<ItemConversacion[]> {
    const candidatas = await candidatasActividad(db, conversacionesVisibles(actor), filas);
    if (candidatas?.length === 0) return [];
    // Each candidate's latest counted comment (the same for everyone, comentarioContado), one entry
    // of foro_comentarios_actividad_idx; its count is the row's own (decision 0080).
    const ultimo = db
      .select({ fecha: max(foroComentarios.fecha_creacion) })
      .from(foroComentarios)
      .where(and(eq(foroComentarios.id_conversacion, foroConversaciones.id), comentarioContado));
    const actividad = sql`greatest(${foroConversaciones.fecha_creacion}, (${ultimo}))`;
    const leidas = await db
      .select({
        id: foroConversaciones.id,
        titulo: foroConversaciones.titulo,
        id_categoria: foroConversaciones.id_categoria,
        categoria: foroCategorias.nombre,
        comentarios: foroConversaciones.n_comentarios,
        actividad: iso(actividad),
      })
      .from(foroConversaciones)
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(and(conversacionesVisibles(actor), candidatas ? inArray(foroConversaciones.id, candidatas) : undefined))
      .orderBy(desc(actividad), desc(foroConversaciones.id))
      .limit(filas);
    return leidas.map((f) => ({
      id: f.id,
      titulo: f.titulo,
      href: `/foro/categorias/${f.id_categoria}/conversacion/${f.id}`,
      categoria: f.categoria,
      comentarios: f.comentarios,
      actividad: f.actividad ?? '',
    }));
  }

  /** One block per group of people who see the same conversations. */
  const bloques = cacheDeLecturas<ItemConversacion[]>(db, {
    segundos: 2,
    now: ctx.now,
    tablas: [foroCategorias, foroConversaciones, foroComentarios],
    max: 1_000,
  });

  return {
    /** The block of this person: their group's, shared; their own when they have hidden conversations. */
    async leer(actor: Actor): Promise<ItemConversacion[]> {
      if (esAdmin(actor)) return bloques.leer('admin', () => leer(actor));
      if ((await leerAutoresOcultos()).has(actor.id)) return bloques.leer(`autor-${actor.id}`, () => leer(actor));
      // Read as nobody's: a conversation of this person hidden since the check above stays theirs.
      return bloques.leer('todos', () => leer(NADIE));
    },
  };
}
