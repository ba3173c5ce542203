/**
 * Forum comments (docs/SPEC.md sections 3 and 5): plain text, replies nested to any depth, read as one
 * tree per conversation. Posting is rate limited per account.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import type { Db } from '../../db/client.server.ts';
import { foroComentarios, foroReaccionesComentario, usuarios } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { type Actor, exigirAutorOAdmin, veOculto } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { notificarComentarioForo, olvidarNotificaciones } from '../notificaciones.server.ts';
import { autorColumns, COMENTARIO_NO_ENCONTRADO, toAutor, visibleA } from '../recursos.server.ts';
import { registrarAccion } from '../registro.server.ts';
import { entero, type ForoComun, porReaccion } from './comun.server.ts';

type ComentarioForo = Esquema<'ComentarioForo'>;

const error400 = (campo: string, detalle: string) => new ErrorDeDominio(400, detalle, { errors: { [campo]: [detalle] } });

type ComentarioRow = typeof foroComentarios.$inferSelect;

const aComentarioForo = (c: ComentarioRow, autor: Parameters<typeof toAutor>[0], g = 0, m = 0): ComentarioForo => ({
  id: c.id,
  contenido: c.contenido,
  fecha_creacion: c.fecha_creacion.toISOString(),
  id_usuario: toAutor(autor),
  n_me_gusta: g,
  n_me_interesa: m,
  respuestas: [],
  editado: c.editado,
  eliminado: c.eliminado,
  oculto: c.oculto,
});

/**
 * The tree as this reader sees it, the rule of comments on content (hiloParaLector) at any depth:
 * a comment hidden by moderation that is not theirs (and they no admin) is gone, or, while it has
 * replies they see, a placeholder with empty text; a deleted placeholder left with no replies they
 * see goes too.
 */
export function arbolParaLector(actor: Actor, nodos: ComentarioForo[]): ComentarioForo[] {
  return nodos.flatMap((n) => {
    const respuestas = arbolParaLector(actor, n.respuestas);
    const ajeno = n.oculto && !veOculto(actor, n.id_usuario.id);
    if (!ajeno && !n.eliminado) return [{ ...n, respuestas }];
    if (respuestas.length === 0) return [];
    return [ajeno ? { ...n, contenido: '', editado: false, n_me_gusta: 0, n_me_interesa: 0, respuestas } : { ...n, respuestas }];
  });
}

export function createComentariosForo(ctx: ServiceContext, { conversacionVisible, limitar }: ForoComun) {
  const { db } = ctx;

  /** A comment its author or an admin may change: 404 if unknown, unseen or a placeholder; else 403. */
  async function propio(actor: Actor, id: number) {
    const [comentario] = await db
      .select()
      .from(foroComentarios)
      .where(and(eq(foroComentarios.id, id), eq(foroComentarios.eliminado, false)));
    if (!comentario) throw new ErrorDeDominio(404, COMENTARIO_NO_ENCONTRADO);
    await conversacionVisible(actor, comentario.id_conversacion);
    exigirAutorOAdmin(actor, comentario.id_usuario);
    return comentario;
  }

  async function tieneRespuestas(tx: Db, id: number): Promise<boolean> {
    const [hija] = await tx
      .select({ id: foroComentarios.id })
      .from(foroComentarios)
      .where(eq(foroComentarios.comentario_padre, id))
      .limit(1);
    return hija !== undefined;
  }

  /** An admin changing someone else's comment is moderation: the audit log records it. */
  async function moderacion(
    tx: Db,
    actor: Actor,
    c: { id: number; id_usuario: number; id_conversacion: number },
    accion: string,
    verbo: string,
  ) {
    if (actor.id === c.id_usuario) return;
    const detalle = `${verbo} un comentario del foro (conversación ${c.id_conversacion})`;
    await registrarAccion(tx, { id: actor.id }, { accion, tipo: 'comentario_foro', id_registro: c.id, detalle });
  }

  return {
    /** The conversation's comments as a tree, each level oldest first. */
    async arbol(actor: Actor, idConversacion: number): Promise<ComentarioForo[]> {
      await conversacionVisible(actor, idConversacion);
      const rc = foroReaccionesComentario.id_like;
      const conteos = db
        .select({ id: foroReaccionesComentario.id_comentario, g: porReaccion(rc, 1).as('conteo_g'), m: porReaccion(rc, 3).as('conteo_m') })
        .from(foroReaccionesComentario)
        .innerJoin(foroComentarios, eq(foroComentarios.id, foroReaccionesComentario.id_comentario))
        .where(eq(foroComentarios.id_conversacion, idConversacion))
        .groupBy(foroReaccionesComentario.id_comentario)
        .as('conteos');
      const filas = await db
        .select({ c: foroComentarios, autor: autorColumns, g: entero(sql`${conteos.g}`), m: entero(sql`${conteos.m}`) })
        .from(foroComentarios)
        .innerJoin(usuarios, eq(usuarios.id, foroComentarios.id_usuario))
        .leftJoin(conteos, eq(conteos.id, foroComentarios.id))
        .where(eq(foroComentarios.id_conversacion, idConversacion))
        .orderBy(asc(foroComentarios.fecha_creacion), asc(foroComentarios.id));
      const nodos = new Map<number, ComentarioForo>();
      for (const f of filas) nodos.set(f.c.id, aComentarioForo(f.c, f.autor, f.g, f.m));
      const raices: ComentarioForo[] = [];
      for (const f of filas) {
        const nodo = nodos.get(f.c.id);
        if (!nodo) continue;
        const padre = f.c.comentario_padre === null ? undefined : nodos.get(f.c.comentario_padre);
        (padre ? padre.respuestas : raices).push(nodo);
      }
      return arbolParaLector(actor, raices);
    },

    async comentar(actor: Actor, input: Esquema<'ComentarioForoEntrada'>): Promise<ComentarioForo> {
      const conversacion = await conversacionVisible(actor, input.id_conversacion);
      if (conversacion.id_categoria !== input.id_categoria)
        throw error400('id_categoria', 'La conversación no pertenece a la categoria indicada');
      const comentarioPadre = input.comentario_padre ?? null;
      if (comentarioPadre !== null) {
        const [padre] = await db
          .select({ id: foroComentarios.id })
          .from(foroComentarios)
          .where(
            and(
              eq(foroComentarios.id, comentarioPadre),
              eq(foroComentarios.id_conversacion, conversacion.id),
              // A 'Comentario eliminado' placeholder takes no new replies, nor does a hidden one but from its author and admins.
              eq(foroComentarios.eliminado, false),
              visibleA(actor, foroComentarios),
            ),
          );
        if (!padre) throw error400('comentario_padre', 'El comentario que responde no existe');
      }
      await limitar('comentario', actor.id);
      const [row] = await db.transaction(async (tx) => {
        const filas = await tx
          .insert(foroComentarios)
          .values({
            id_conversacion: conversacion.id,
            id_usuario: actor.id,
            comentario_padre: comentarioPadre,
            contenido: input.contenido,
            fecha_creacion: ctx.now(),
          })
          .returning();
        await notificarComentarioForo(tx, { idConversacion: conversacion.id, idActor: actor.id, padre: comentarioPadre });
        return filas;
      });
      const [autor] = await db.select(autorColumns).from(usuarios).where(eq(usuarios.id, actor.id));
      if (!row || !autor) throw new Error('forum comment not stored');
      return aComentarioForo(row, autor);
    },

    /** Its author (or an admin) rewrites a comment; it shows '(editado)' from then on. */
    async editar(actor: Actor, id: number, contenido: string): Promise<ComentarioForo> {
      const comentario = await propio(actor, id);
      return db.transaction(async (tx) => {
        const [row] = await tx.update(foroComentarios).set({ contenido, editado: true }).where(eq(foroComentarios.id, id)).returning();
        const [autor] = await tx.select(autorColumns).from(usuarios).where(eq(usuarios.id, comentario.id_usuario));
        if (!row || !autor) throw new Error('forum comment not updated');
        await moderacion(tx, actor, comentario, 'editar_comentario_foro', 'Editó');
        const [conteo] = await tx
          .select({ g: porReaccion(foroReaccionesComentario.id_like, 1), m: porReaccion(foroReaccionesComentario.id_like, 3) })
          .from(foroReaccionesComentario)
          .where(eq(foroReaccionesComentario.id_comentario, id));
        return aComentarioForo(row, autor, conteo?.g, conteo?.m);
      });
    },

    /**
     * Deletes a comment: with replies it stays as a placeholder ('Comentario eliminado', text
     * emptied); without replies it goes, and so does each placeholder above it left without replies.
     */
    async eliminar(actor: Actor, id: number): Promise<void> {
      const comentario = await propio(actor, id);
      await db.transaction(async (tx) => {
        if (await tieneRespuestas(tx, id)) {
          await tx.update(foroComentarios).set({ contenido: '', eliminado: true }).where(eq(foroComentarios.id, id));
        } else {
          await tx.delete(foroComentarios).where(eq(foroComentarios.id, id));
          await olvidarNotificaciones(tx, 'comentario_foro', id);
          let padre = comentario.comentario_padre;
          while (padre !== null) {
            const [p] = await tx.select().from(foroComentarios).where(eq(foroComentarios.id, padre));
            if (!p?.eliminado || (await tieneRespuestas(tx, p.id))) break;
            await tx.delete(foroComentarios).where(eq(foroComentarios.id, p.id));
            await olvidarNotificaciones(tx, 'comentario_foro', p.id);
            padre = p.comentario_padre;
          }
        }
        await moderacion(tx, actor, comentario, 'eliminar_comentario_foro', 'Eliminó');
      });
    },
  };
}
