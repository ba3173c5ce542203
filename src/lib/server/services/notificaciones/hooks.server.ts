/**
 * The notifications other services write in the transaction of the action that causes them
 * (issue 17): a reply, a comment, a like, a reaction, a moderation decision; and forgetting those
 * of a deleted item. Never to the person who acted, at most one per recipient.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.server.ts';
import {
  capsulas,
  comentarios,
  foroComentarios,
  foroConversaciones,
  manuales,
  materiales,
  notificaciones,
} from '../../db/schema.server.ts';
import type { TipoRecurso } from '../recursos.server.ts';

export type TipoNotificacion = (typeof notificaciones.$inferInsert)['tipo'];
type Nueva = typeof notificaciones.$inferInsert;

const tablas = { capsula: capsulas, material: materiales, manual: manuales } as const;
const rutas: Record<TipoRecurso, string> = { capsula: '/capsulas', material: '/biblioteca-docente', manual: '/manuales' };
const enlaceRecurso = (tipo: TipoRecurso, id: number) => `${rutas[tipo]}/${id}#titulo-comentarios`;
const enlaceConversacion = (idCategoria: number, id: number) => `/foro/categorias/${idCategoria}/conversacion/${id}`;

/** Writes notifications, never to the person who acted, at most one per recipient. */
async function insertar(tx: Db, filas: Nueva[]): Promise<void> {
  const vistas = new Set<number>();
  const validas = filas.filter((f) => {
    if (f.id_usuario === f.id_actor || vistas.has(f.id_usuario)) return false;
    vistas.add(f.id_usuario);
    return true;
  });
  if (validas.length > 0) await tx.insert(notificaciones).values(validas);
}

/** Removes the unread notification of a like or reaction taken back. */
async function retirar(tx: Db, f: { tipo: TipoNotificacion; id_actor: number; recurso_tipo: string; id_recurso: number }) {
  await tx
    .delete(notificaciones)
    .where(
      and(
        eq(notificaciones.tipo, f.tipo),
        eq(notificaciones.id_actor, f.id_actor),
        eq(notificaciones.recurso_tipo, f.recurso_tipo),
        eq(notificaciones.id_recurso, f.id_recurso),
        isNull(notificaciones.leida_en),
      ),
    );
}

/** A comment on a capsule, material or manual: 'respuesta' to the parent's author, 'comentario' to the item's. */
export async function notificarComentarioRecurso(
  tx: Db,
  e: { tipo: TipoRecurso; id: number; idActor: number; padre: number | null },
): Promise<void> {
  const tabla = tablas[e.tipo];
  const [item] = await tx.select({ titulo: tabla.titulo, autor: tabla.id_usuario }).from(tabla).where(eq(tabla.id, e.id));
  if (!item) return;
  const base = { id_actor: e.idActor, recurso_tipo: e.tipo, id_recurso: e.id, titulo: item.titulo, enlace: enlaceRecurso(e.tipo, e.id) };
  const filas: Nueva[] = [];
  if (e.padre !== null) {
    const [padre] = await tx.select({ autor: comentarios.id_usuario }).from(comentarios).where(eq(comentarios.id, e.padre));
    if (padre) filas.push({ ...base, tipo: 'respuesta', id_usuario: padre.autor });
  }
  filas.push({ ...base, tipo: 'comentario', id_usuario: item.autor });
  await insertar(tx, filas);
}

/** A forum comment: 'respuesta' to the parent comment's author, 'comentario' to the conversation's. */
export async function notificarComentarioForo(tx: Db, e: { idConversacion: number; idActor: number; padre: number | null }) {
  const [conv] = await tx
    .select({ titulo: foroConversaciones.titulo, autor: foroConversaciones.id_usuario_creador, categoria: foroConversaciones.id_categoria })
    .from(foroConversaciones)
    .where(eq(foroConversaciones.id, e.idConversacion));
  if (!conv) return;
  const base = {
    id_actor: e.idActor,
    recurso_tipo: 'conversacion',
    id_recurso: e.idConversacion,
    titulo: conv.titulo,
    enlace: enlaceConversacion(conv.categoria, e.idConversacion),
  };
  const filas: Nueva[] = [];
  if (e.padre !== null) {
    const [padre] = await tx.select({ autor: foroComentarios.id_usuario }).from(foroComentarios).where(eq(foroComentarios.id, e.padre));
    if (padre) filas.push({ ...base, tipo: 'respuesta', id_usuario: padre.autor });
  }
  filas.push({ ...base, tipo: 'comentario', id_usuario: conv.autor });
  await insertar(tx, filas);
}

/** A like given (`add`) or taken back on a capsule, material or manual. */
export async function notificarMeGusta(tx: Db, e: { tipo: TipoRecurso; id: number; idActor: number; add: boolean }) {
  if (!e.add) return retirar(tx, { tipo: 'me_gusta', id_actor: e.idActor, recurso_tipo: e.tipo, id_recurso: e.id });
  const tabla = tablas[e.tipo];
  const [item] = await tx.select({ titulo: tabla.titulo, autor: tabla.id_usuario }).from(tabla).where(eq(tabla.id, e.id));
  if (!item) return;
  await insertar(tx, [
    {
      tipo: 'me_gusta',
      id_usuario: item.autor,
      id_actor: e.idActor,
      recurso_tipo: e.tipo,
      id_recurso: e.id,
      titulo: item.titulo,
      enlace: enlaceRecurso(e.tipo, e.id),
    },
  ]);
}

/**
 * A reaction given or taken back on a conversation or forum comment. One notification per person
 * and target however many reactions they give; it goes when their last reaction there goes
 * (`quedan`: how many of theirs remain).
 */
export async function notificarReaccion(
  tx: Db,
  e: { objetivo: 'conversacion' | 'comentario'; id: number; idActor: number; add: boolean; quedan: number },
) {
  const recurso_tipo = e.objetivo === 'conversacion' ? 'conversacion' : 'comentario_foro';
  const clave = { tipo: 'reaccion' as const, id_actor: e.idActor, recurso_tipo, id_recurso: e.id };
  if (!e.add) {
    if (e.quedan === 0) await retirar(tx, clave);
    return;
  }
  const [ya] = await tx
    .select({ id: notificaciones.id })
    .from(notificaciones)
    .where(
      and(
        eq(notificaciones.tipo, 'reaccion'),
        eq(notificaciones.id_actor, e.idActor),
        eq(notificaciones.recurso_tipo, recurso_tipo),
        eq(notificaciones.id_recurso, e.id),
      ),
    );
  if (ya) return; // Already notified for an earlier reaction of theirs.
  const [t] =
    e.objetivo === 'conversacion'
      ? await tx
          .select({
            autor: foroConversaciones.id_usuario_creador,
            titulo: foroConversaciones.titulo,
            conv: foroConversaciones.id,
            cat: foroConversaciones.id_categoria,
          })
          .from(foroConversaciones)
          .where(eq(foroConversaciones.id, e.id))
      : await tx
          .select({
            autor: foroComentarios.id_usuario,
            titulo: foroConversaciones.titulo,
            conv: foroConversaciones.id,
            cat: foroConversaciones.id_categoria,
          })
          .from(foroComentarios)
          .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroComentarios.id_conversacion))
          .where(eq(foroComentarios.id, e.id));
  if (!t) return;
  await insertar(tx, [{ ...clave, id_usuario: t.autor, titulo: t.titulo, enlace: enlaceConversacion(t.cat, t.conv) }]);
}

/**
 * Forgets the notifications about an item that is deleted (pass the deleting transaction), so no
 * entry links to a page that is gone. `recurso_tipo`: 'capsula', 'material', 'manual',
 * 'conversacion' or 'comentario_foro'. Called by the deletions of content, conversations and forum comments.
 */
export async function olvidarNotificaciones(tx: Db, recurso_tipo: string, ids: number | number[]): Promise<void> {
  const lista = Array.isArray(ids) ? ids : [ids];
  if (lista.length === 0) return;
  await tx.delete(notificaciones).where(and(eq(notificaciones.recurso_tipo, recurso_tipo), inArray(notificaciones.id_recurso, lista)));
}

/**
 * A decision of the moderation team (issue 17) told to the people it concerns: the author
 * ('oculto', 'restaurado', 'eliminado') or those who reported it ('denuncia_resuelta'). No actor:
 * nobody is named, and nobody is skipped as the one who acted.
 */
export async function notificarModeracion(
  tx: Db,
  e: {
    tipo: Extract<TipoNotificacion, 'oculto' | 'restaurado' | 'eliminado' | 'denuncia_resuelta'>;
    para: number[];
    recurso_tipo: string;
    id_recurso: number;
    titulo: string;
    enlace: string;
    detalle: string;
  },
): Promise<void> {
  const { para, ...fila } = e;
  await insertar(
    tx,
    para.map((id_usuario) => ({ ...fila, id_usuario, id_actor: null })),
  );
}
