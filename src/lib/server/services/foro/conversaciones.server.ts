/**
 * Forum conversations (docs/SPEC.md sections 3, 5 and 9): listed inside a category, searched by words
 * and by days in Chile, written in Markdown and stored as sanitized HTML. Posting is rate limited
 * per account.
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import type { ConversacionInput, ListaConversacionesInput } from '../../../validation/foro.ts';
import { numPaginas } from '../../../validation/listas.ts';
import type { Db } from '../../db/client.server.ts';
import { foroComentarios, foroConversaciones, foroReaccionesConversacion, usuarios, visitas } from '../../db/schema.server.ts';
import { coincideTexto } from '../../db/search.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { renderMarkdown } from '../../markdown.server.ts';
import { type Actor, exigirAutorOAdmin } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { olvidarNotificaciones } from '../notificaciones.server.ts';
import { autorColumns, visibleA } from '../recursos.server.ts';
import { registrarAccion } from '../registro.server.ts';
import { avisarNovedad } from '../seguimientos/avisos.server.ts';
import { fotoUrl } from '../usuarios.server.ts';
import { CONVERSACION_NO_ENCONTRADA, type ForoComun, porReaccion } from './comun.server.ts';

type Conversacion = Esquema<'Conversacion'>;
/** The body without `id_usuario`, which the route has already checked is the caller's. */
type ConversacionNueva = Omit<Esquema<'ConversacionNueva'>, 'id_usuario'>;

export function createConversacionesForo(ctx: ServiceContext, { categoriaVisible, conversacionVisible, limitar, visitar }: ForoComun) {
  const { db } = ctx;

  /** A conversation its author or an admin may change: 404 if unknown or unseen, else 403. */
  async function propia(actor: Actor, id: number) {
    await conversacionVisible(actor, id);
    const [row] = await db
      .select({ id: foroConversaciones.id, titulo: foroConversaciones.titulo, id_usuario_creador: foroConversaciones.id_usuario_creador })
      .from(foroConversaciones)
      .where(eq(foroConversaciones.id, id));
    if (!row) throw new ErrorDeDominio(404, CONVERSACION_NO_ENCONTRADA);
    exigirAutorOAdmin(actor, row.id_usuario_creador);
    return row;
  }

  /** An admin changing someone else's conversation is moderation: the audit log records it. */
  async function moderacion(
    tx: Db,
    actor: Actor,
    c: { id: number; titulo: string; id_usuario_creador: number },
    accion: string,
    verbo: string,
  ) {
    if (actor.id === c.id_usuario_creador) return;
    const detalle = `${verbo} la conversación '${c.titulo}'`;
    await registrarAccion(tx, { id: actor.id }, { accion, tipo: 'conversacion', id_registro: c.id, detalle });
  }

  /** The conversations of `ids`, in that order, with their counters. */
  async function componer(ids: number[]): Promise<Conversacion[]> {
    if (ids.length === 0) return [];
    const rc = foroReaccionesConversacion.id_like;
    const [filas, reacciones] = await Promise.all([
      db
        .select({ c: foroConversaciones, autor: autorColumns })
        .from(foroConversaciones)
        .innerJoin(usuarios, eq(usuarios.id, foroConversaciones.id_usuario_creador))
        .where(inArray(foroConversaciones.id, ids)),
      db
        .select({
          id: foroReaccionesConversacion.id_conversacion,
          g: porReaccion(rc, 1),
          i: porReaccion(rc, 2),
          m: porReaccion(rc, 3),
          u: porReaccion(rc, 4),
          a: porReaccion(rc, 5),
        })
        .from(foroReaccionesConversacion)
        .where(inArray(foroReaccionesConversacion.id_conversacion, ids))
        .groupBy(foroReaccionesConversacion.id_conversacion),
    ]);
    const porId = new Map(filas.map((f) => [f.c.id, f]));
    return ids.flatMap((id) => {
      const f = porId.get(id);
      if (!f) return [];
      const r = reacciones.find((x) => x.id === id) ?? { g: 0, i: 0, m: 0, u: 0, a: 0 };
      return [
        {
          id,
          id_categoria: f.c.id_categoria,
          titulo: f.c.titulo,
          contenido: f.c.contenido,
          n_visitas: f.c.n_visitas,
          // Neither placeholders nor hidden comments, the same for everyone: kept by triggers (drizzle/0020).
          n_comentarios: f.c.n_comentarios,
          n_me_gusta: r.g,
          n_gran_idea: r.i,
          n_me_interesa: r.m,
          n_lo_utilizare: r.u,
          n_me_asombra: r.a,
          n_total_reacciones: r.g + r.i + r.m + r.u + r.a,
          fecha_creacion: f.c.fecha_creacion.toISOString(),
          autor: { id: f.autor.id, nombre: `${f.autor.primer_nombre} ${f.autor.apellido_paterno}`.trim(), foto_perfil: fotoUrl(f.autor) },
          id_usuario_creador: f.c.id_usuario_creador,
          editado: f.c.editado,
          oculto: f.c.oculto,
        },
      ];
    });
  }

  return {
    async listar(actor: Actor, idCategoria: number, f: ListaConversacionesInput): Promise<Esquema<'ConversacionLista'>> {
      await categoriaVisible(actor, idCategoria);
      // Dates are days in Chile, inclusive at both ends.
      const dia = sql`(${foroConversaciones.fecha_creacion} at time zone 'America/Santiago')::date`;
      const where = and(
        eq(foroConversaciones.id_categoria, idCategoria),
        visibleA(actor, foroConversaciones),
        coincideTexto([foroConversaciones.titulo, foroConversaciones.contenido], f.palabra_clave),
        f.fecha_desde ? sql`${dia} >= ${f.fecha_desde}::date` : undefined,
        f.fecha_hasta ? sql`${dia} <= ${f.fecha_hasta}::date` : undefined,
      );
      const [[total], pagina] = await Promise.all([
        db.select({ n: count() }).from(foroConversaciones).where(where),
        db
          .select({ id: foroConversaciones.id })
          .from(foroConversaciones)
          .where(where)
          .orderBy(
            ...(f.order === 'n_visitas' ? [desc(foroConversaciones.n_visitas)] : []),
            desc(foroConversaciones.fecha_creacion),
            desc(foroConversaciones.id),
          )
          .limit(f.tamano_pagina)
          .offset((f.pagina - 1) * f.tamano_pagina),
      ]);
      const num_results = total?.n ?? 0;
      return {
        conversaciones: await componer(pagina.map((p) => p.id)),
        num_pages: numPaginas(num_results, f.tamano_pagina),
        num_results,
      };
    },

    async crear(actor: Actor, input: ConversacionNueva): Promise<Conversacion> {
      const categoria = await categoriaVisible(actor, input.id_categoria);
      await limitar('conversacion', actor.id);
      const [row] = await db
        .insert(foroConversaciones)
        .values({
          id_categoria: categoria.id,
          id_usuario_creador: actor.id,
          titulo: input.titulo,
          contenido: renderMarkdown(input.contenido),
          fecha_creacion: ctx.now(),
        })
        .returning({ id: foroConversaciones.id });
      if (!row) throw new Error('conversation not stored');
      ctx.log.info('forum conversation created', { conversacionId: row.id, categoriaId: categoria.id, userId: actor.id });
      await avisarNovedad(ctx, { tipo: 'conversacion', id: row.id });
      const [creada] = await componer([row.id]);
      if (!creada) throw new Error('conversation not stored');
      return creada;
    },

    /** Its author (or an admin) rewrites the title and content; it shows '(editado)' from then on. */
    async editar(actor: Actor, id: number, input: ConversacionInput): Promise<Conversacion> {
      const conversacion = await propia(actor, id);
      await db.transaction(async (tx) => {
        await tx
          .update(foroConversaciones)
          .set({ titulo: input.titulo, contenido: renderMarkdown(input.contenido), editado: true })
          .where(eq(foroConversaciones.id, id));
        await moderacion(tx, actor, conversacion, 'editar_conversacion', 'Editó');
      });
      const [editada] = await componer([id]);
      if (!editada) throw new ErrorDeDominio(404, CONVERSACION_NO_ENCONTRADA);
      return editada;
    },

    /** Deletes a conversation with its comments and reactions (the foreign keys cascade) and its views. */
    async eliminar(actor: Actor, id: number): Promise<void> {
      const conversacion = await propia(actor, id);
      await db.transaction(async (tx) => {
        // Its notifications and those of its comments first: they would lead to a page that is gone.
        const suyos = await tx.select({ id: foroComentarios.id }).from(foroComentarios).where(eq(foroComentarios.id_conversacion, id));
        await olvidarNotificaciones(
          tx,
          'comentario_foro',
          suyos.map((c) => c.id),
        );
        await olvidarNotificaciones(tx, 'conversacion', id);
        await tx.delete(foroConversaciones).where(eq(foroConversaciones.id, id));
        await tx.delete(visitas).where(and(eq(visitas.tipo, 'conversacion'), eq(visitas.id_recurso, id)));
        await moderacion(tx, actor, conversacion, 'eliminar_conversacion', 'Eliminó');
      });
      ctx.log.info('forum conversation deleted', { conversacionId: id, userId: actor.id });
    },

    /** One conversation; with `visitar`, the view is counted (once per person per visit). */
    async obtener(actor: Actor, id: number, opciones: { visitar?: boolean } = {}): Promise<Conversacion> {
      await conversacionVisible(actor, id);
      if (opciones.visitar) await visitar('conversacion', id, actor);
      const [conversacion] = await componer([id]);
      if (!conversacion) throw new ErrorDeDominio(404, CONVERSACION_NO_ENCONTRADA);
      return conversacion;
    },
  };
}
