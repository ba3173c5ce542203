/**
 * Forum comments (SPEC.md sections 3 and 5): plain text, replies nested to any depth, read as one
 * tree per conversation. Posting is rate limited per account.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import { ApiError } from '../../api/errors.server.ts';
import { foroComentarios, foroReaccionesComentario, usuarios } from '../../db/schema.server.ts';
import type { Actor } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { autorColumns, toAutor } from '../recursos.server.ts';
import { entero, type ForoComun, porReaccion } from './comun.server.ts';

type ComentarioForo = Esquema<'ComentarioForo'>;

const error400 = (campo: string, detalle: string) => new ApiError(400, detalle, { errors: { [campo]: [detalle] } });

export function createComentariosForo(ctx: ServiceContext, { conversacionVisible, limitar }: ForoComun) {
  const { db } = ctx;

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
      for (const f of filas) {
        nodos.set(f.c.id, {
          id: f.c.id,
          contenido: f.c.contenido,
          fecha_creacion: f.c.fecha_creacion.toISOString(),
          id_usuario: toAutor(f.autor),
          n_me_gusta: f.g,
          n_me_interesa: f.m,
          respuestas: [],
        });
      }
      const raices: ComentarioForo[] = [];
      for (const f of filas) {
        const nodo = nodos.get(f.c.id);
        if (!nodo) continue;
        const padre = f.c.comentario_padre === null ? undefined : nodos.get(f.c.comentario_padre);
        (padre ? padre.respuestas : raices).push(nodo);
      }
      return raices;
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
          .where(and(eq(foroComentarios.id, comentarioPadre), eq(foroComentarios.id_conversacion, conversacion.id)));
        if (!padre) throw error400('comentario_padre', 'El comentario que responde no existe');
      }
      await limitar('comentario', actor.id);
      const [row] = await db
        .insert(foroComentarios)
        .values({
          id_conversacion: conversacion.id,
          id_usuario: actor.id,
          comentario_padre: comentarioPadre,
          contenido: input.contenido,
          fecha_creacion: ctx.now(),
        })
        .returning();
      const [autor] = await db.select(autorColumns).from(usuarios).where(eq(usuarios.id, actor.id));
      if (!row || !autor) throw new Error('forum comment not stored');
      return {
        id: row.id,
        contenido: row.contenido,
        fecha_creacion: row.fecha_creacion.toISOString(),
        id_usuario: toAutor(autor),
        n_me_gusta: 0,
        n_me_interesa: 0,
        respuestas: [],
      };
    },
  };
}
