/**
 * A page of a comment thread on a capsule, material or manual (issue 36): a popular item has
 * thousands of comments, so a thread is read a page of top-level comments at a time, each with all
 * its replies, newest first. The page after comment `antes` is the top-level comments older than
 * it (by date, then id): a keyset, so the hundredth page costs what the first does
 * (comentarios_<item>_idx: item, date, id).
 */
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { PaginaHilo } from '../../../validation/comentarios.ts';
import type { Db } from '../../db/client.server.ts';
import { comentarios, usuarios } from '../../db/schema.server.ts';
import { type Actor, veOculto } from '../actor.server.ts';
import type { autorColumns, Comentario } from '../recursos.server.ts';

/**
 * `columna` is the comment's column naming the item (id_capsula, id_material, id_manual); `autor`,
 * recursos.server.ts's autorColumns (handed over, and only its type imported: that file imports
 * this one). The item's comment count is recursos.server.ts's, the one the lists show.
 */
export async function paginaDeHilo(db: Db, columna: PgColumn, autor: typeof autorColumns, id: number, pagina: PaginaHilo) {
  const filas = (donde: SQL | undefined, limite?: number) => {
    const consulta = db
      .select({ c: comentarios, autor })
      .from(comentarios)
      .innerJoin(usuarios, eq(usuarios.id, comentarios.id_usuario))
      .where(and(eq(columna, id), donde))
      .orderBy(desc(comentarios.fecha_creacion), desc(comentarios.id));
    return limite === undefined ? consulta : consulta.limit(limite);
  };
  // A cursor that is not a comment of this item gives an empty page (the row comparison is null).
  const despues =
    pagina.antes === undefined
      ? undefined
      : sql`(${comentarios.fecha_creacion}, ${comentarios.id}) < (select a.fecha_creacion, a.id from ${comentarios} a where a.id = ${pagina.antes} and a.${sql.identifier(columna.name)} = ${id})`;
  const base = await filas(and(isNull(comentarios.id_respuesta_comentario), despues), pagina.limite + 1);
  const primeros = base.slice(0, pagina.limite);
  const padres = primeros.map((f) => f.c.id);
  const hijos = padres.length > 0 ? await filas(inArray(comentarios.id_respuesta_comentario, padres)) : [];
  return { base: primeros, hijos, hay_mas: base.length > pagina.limite };
}

/**
 * A thread as this reader sees it. A comment hidden by moderation that is not theirs (and they no
 * admin) is treated as a deleted one: gone, or, while it has replies they see, a placeholder with
 * empty text (and `oculto`) so the thread keeps its shape; a deleted placeholder whose replies
 * they no longer see goes too.
 */
export function hiloParaLector(actor: Actor, base: Comentario[], hijos: Comentario[]) {
  const ajeno = (c: Comentario) => c.oculto && !veOculto(actor, c.id_usuario.id);
  const comentarios_hijos = hijos.filter((h) => !ajeno(h));
  const conRespuestas = new Set(comentarios_hijos.map((h) => h.id_respuesta_comentario));
  const comentarios_base = base.flatMap((c) => {
    if (!ajeno(c) && !c.eliminado) return [c];
    if (!conRespuestas.has(c.id)) return [];
    return [ajeno(c) ? { ...c, contenido: '', editado: false } : c];
  });
  return { comentarios_base, comentarios_hijos };
}
