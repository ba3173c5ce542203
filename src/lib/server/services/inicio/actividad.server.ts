/**
 * The home's 'Conversaciones con actividad' (issue 21) without grouping every forum comment (issue
 * 36: at 600,000 comments that was the slowest read of the home). A conversation's activity is its
 * creation or its latest counted comment, so the `k` most active visible ones are among the `k`
 * visible ones created last and those of the latest counted comments: if one of the top `k` were
 * neither, `k` others would be more recent. When the latest RECIENTES comments name fewer than `k`
 * visible conversations and older ones remain, that argument does not hold, and the caller groups
 * them all (undefined).
 */

import type { SQL } from 'drizzle-orm';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.server.ts';
import { foroCategorias, foroComentarios, foroConversaciones } from '../../db/schema.server.ts';
import { comentarioContado } from '../foro/comun.server.ts';

const RECIENTES = 500;

/** `visibles`: the conversations this person may open (a condition on conversations and their category). */
export async function candidatasActividad(db: Db, visibles: SQL | undefined, k: number): Promise<number[] | undefined> {
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
