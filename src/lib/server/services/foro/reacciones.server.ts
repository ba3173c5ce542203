/**
 * Reactions on conversations (the five of docs/SPEC.md section 3) and on comments (Me gusta and Me
 * interesa only): one row per person, reaction and target, so a double click or two tabs never
 * count twice, and 'like' twice leaves one row.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import type { Db } from '../../db/client.server.ts';
import {
  foroCategorias,
  foroComentarios,
  foroConversaciones,
  foroReaccionesComentario,
  foroReaccionesConversacion,
} from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import type { Actor } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { notificarReaccion } from '../notificaciones.server.ts';
import { visibleA } from '../recursos.server.ts';
import {
  type Accion,
  categoriasVisibles,
  esReaccion,
  esReaccionComentario,
  type ForoComun,
  type ReaccionComentarioId,
  type ReaccionId,
} from './comun.server.ts';

const COMENTARIO_NO_ENCONTRADO = 'No se encontró comentario';

type ReaccionResultado = Esquema<'ReaccionResultado'>;

export function createReaccionesForo(ctx: ServiceContext, { conversacionVisible }: ForoComun) {
  const { db } = ctx;

  async function comentarioVisible(actor: Actor, id: number) {
    const [row] = await db
      .select({ id: foroComentarios.id })
      .from(foroComentarios)
      .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroComentarios.id_conversacion))
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(
        and(eq(foroComentarios.id, id), categoriasVisibles(actor), visibleA(actor, foroConversaciones), visibleA(actor, foroComentarios)),
      );
    if (!row) throw new ErrorDeDominio(404, COMENTARIO_NO_ENCONTRADO);
  }

  /** Each kind of target: its reactions table, the column that names the target, who sees it. */
  const objetivos = {
    conversacion: {
      tabla: foroReaccionesConversacion,
      columna: foroReaccionesConversacion.id_conversacion,
      visible: conversacionVisible,
      insertar: (id: number, id_usuario: number, id_like: number, tx: Db = db) =>
        tx.insert(foroReaccionesConversacion).values({ id_conversacion: id, id_usuario, id_like }).onConflictDoNothing(),
    },
    comentario: {
      tabla: foroReaccionesComentario,
      columna: foroReaccionesComentario.id_comentario,
      visible: comentarioVisible,
      insertar: (id: number, id_usuario: number, id_like: number, tx: Db = db) =>
        tx.insert(foroReaccionesComentario).values({ id_comentario: id, id_usuario, id_like }).onConflictDoNothing(),
    },
  };
  type Objetivo = (typeof objetivos)[keyof typeof objetivos];

  /** The actor's reaction ids on one target (the database's checks allow no others). */
  async function delUsuario({ tabla, columna, visible }: Objetivo, actor: Actor, id: number): Promise<number[]> {
    await visible(actor, id);
    const filas = await db
      .select({ id_like: tabla.id_like })
      .from(tabla)
      .where(and(eq(columna, id), eq(tabla.id_usuario, actor.id)))
      .orderBy(asc(tabla.id_like));
    return filas.map((f) => f.id_like);
  }

  /** Idempotent: 'like' twice leaves one row. `contador` is that reaction's count afterwards. */
  async function reaccionar(objetivo: Objetivo, actor: Actor, id: number, idLike: ReaccionId, accion: Accion): Promise<ReaccionResultado> {
    const { tabla, columna } = objetivo;
    await objetivo.visible(actor, id);
    await db.transaction(async (tx) => {
      if (accion === 'like') await objetivo.insertar(id, actor.id, idLike, tx);
      else await tx.delete(tabla).where(and(eq(columna, id), eq(tabla.id_usuario, actor.id), eq(tabla.id_like, idLike)));
      // Issue 17: the target's author hears of it; `quedan` are the actor's reactions left there.
      const [mias] = await tx
        .select({ n: count() })
        .from(tabla)
        .where(and(eq(columna, id), eq(tabla.id_usuario, actor.id)));
      const tipo = objetivo === objetivos.conversacion ? 'conversacion' : 'comentario';
      await notificarReaccion(tx, { objetivo: tipo, id, idActor: actor.id, add: accion === 'like', quedan: mias?.n ?? 0 });
    });
    const [total] = await db
      .select({ n: count() })
      .from(tabla)
      .where(and(eq(columna, id), eq(tabla.id_like, idLike)));
    return { id_like: idLike, contador: total?.n ?? 0 };
  }

  const conversacion = {
    reaccionesUsuario: async (actor: Actor, id: number): Promise<ReaccionId[]> =>
      (await delUsuario(objetivos.conversacion, actor, id)).filter(esReaccion),
    reaccionar: (actor: Actor, id: number, idLike: ReaccionId, accion: Accion) =>
      reaccionar(objetivos.conversacion, actor, id, idLike, accion),
  };

  const comentario = {
    reaccionesUsuario: async (actor: Actor, id: number): Promise<ReaccionComentarioId[]> =>
      (await delUsuario(objetivos.comentario, actor, id)).filter(esReaccionComentario),

    /** The actor's reactions on every comment of a conversation (for the page, in one query). */
    async reaccionesUsuarioEnConversacion(actor: Actor, idConversacion: number): Promise<Record<number, ReaccionComentarioId[]>> {
      await conversacionVisible(actor, idConversacion);
      const t = foroReaccionesComentario;
      const filas = await db
        .select({ id: t.id_comentario, id_like: t.id_like })
        .from(t)
        .innerJoin(foroComentarios, eq(foroComentarios.id, t.id_comentario))
        .where(and(eq(foroComentarios.id_conversacion, idConversacion), eq(t.id_usuario, actor.id)))
        .orderBy(asc(t.id_comentario), asc(t.id_like));
      const mias: Record<number, ReaccionComentarioId[]> = {};
      for (const { id, id_like } of filas) if (esReaccionComentario(id_like)) mias[id] = [...(mias[id] ?? []), id_like];
      return mias;
    },

    reaccionar: (actor: Actor, id: number, idLike: ReaccionComentarioId, accion: Accion) =>
      reaccionar(objetivos.comentario, actor, id, idLike, accion),
  };

  return { conversacion, comentario };
}
