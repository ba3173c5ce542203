/**
 * Comments, likes and views of the three kinds of content (capsules, teacher materials, manuals),
 * with who may see each: one implementation for all, so the sections reuse it and never copy it.
 */
import { and, count, eq, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Esquema } from '../../api/contrato.ts';
import { LIMITE_HILO, type PaginaHilo } from '../../validation/comentarios.ts';
import type { Db } from '../db/client.server.ts';
import { calificada, enAlias, listaJson } from '../db/fragmentos.server.ts';
import { MODERADAS, type Moderable } from '../db/moderadas.server.ts';
import {
  capsulas,
  comentarios,
  foroCategorias,
  foroConversaciones,
  likesCapsulas,
  likesManuales,
  likesMateriales,
  manuales,
  materiales,
  usuarios,
  visitas,
} from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { type Actor, esAdmin, exigirAutorOAdmin } from './actor.server.ts';
import { notificarComentarioRecurso, notificarMeGusta, olvidarNotificaciones } from './notificaciones.server.ts';
import { hiloParaLector, paginaDeHilo } from './recursos/hilo.server.ts';
import { registrarAccion } from './registro.server.ts';
import { fotoUrl } from './usuarios.server.ts';

export type TipoRecurso = 'capsula' | 'material' | 'manual';

/** Where a comment is, in the audit log's words ('… en la cápsula n.º 4'). */
const EN_RECURSO: Record<TipoRecurso, string> = { capsula: 'en la cápsula', material: 'en el material', manual: 'en el manual' };

/**
 * Who reads or writes: the signed-in actor, or only a user id for a person without admin rights
 * (scripts and service tests); no one given reads as a person who wrote nothing.
 */
export type Persona = Actor | number;
const comoActor = (p: Persona | undefined): Actor => (typeof p === 'object' ? p : { id: p ?? 0, groups: [] });

const moderables: readonly { tabla: Moderable; autor: PgColumn }[] = Object.values(MODERADAS);

/**
 * What of a moderated table this person sees, in two parts that never overlap: what everyone
 * sees (`comun`, not hidden) and their own hidden items (`propio`). Undefined for admins, who see
 * everything. A list counts the first once for every reader (db/conteos.server.ts).
 */
export function partesVisibles(actor: Actor, tabla: Moderable): { comun: SQL; propio: SQL } | undefined {
  if (esAdmin(actor)) return undefined;
  const moderable = moderables.find((m) => m.tabla === tabla);
  if (!moderable) throw new Error('not a moderated table');
  return { comun: eq(tabla.oculto, false), propio: and(eq(tabla.oculto, true), eq(moderable.autor, actor.id)) as SQL };
}

/** Who reads a list's kept total (db/conteos.server.ts): the person, or undefined for an admin, who sees every row. */
export const lectorDe = (actor: Actor): number | undefined => (esAdmin(actor) ? undefined : actor.id);

/**
 * An item hidden by moderation (`oculto`) is its author's and admins' only: for everyone else it
 * is not there. The condition for a query's where; undefined (no condition) for admins.
 */
export function visibleA(actor: Actor, tabla: Moderable): SQL | undefined {
  const partes = partesVisibles(actor, tabla);
  return partes && or(partes.comun, partes.propio);
}

/** A capsule not ready yet (processing or failed), or hidden, is its author's and admins' only. */
export const capsulaVisible = (actor: Actor): SQL | undefined =>
  esAdmin(actor) ? undefined : and(or(eq(capsulas.estado, 'listo'), eq(capsulas.id_usuario, actor.id)), visibleA(actor, capsulas));

const recursos = {
  capsula: {
    tabla: capsulas,
    columna: comentarios.id_capsula,
    likes: likesCapsulas,
    noEncontrado: 'No se encontró capsula',
    visible: capsulaVisible,
  },
  material: {
    tabla: materiales,
    columna: comentarios.id_material,
    likes: likesMateriales,
    noEncontrado: 'No se encontró material',
    visible: (actor: Actor) => visibleA(actor, materiales),
  },
  manual: {
    tabla: manuales,
    columna: comentarios.id_manual,
    likes: likesManuales,
    noEncontrado: 'No se encontró manual',
    visible: (actor: Actor) => visibleA(actor, manuales),
  },
} as const;

/** Everything whose views are counted: the three kinds of content, and the forum. */
const visitables = {
  capsula: capsulas,
  material: materiales,
  manual: manuales,
  conversacion: foroConversaciones,
  categoria: foroCategorias,
} as const;
export type TipoVisitable = keyof typeof visitables;

export type Autor = Esquema<'Autor'>;

/** A comment as the three sections share it; each names the item's id in its own way (openapi.yaml). */
export type Comentario = Omit<Esquema<'ComentarioRecurso'>, 'tipo_recurso'>;

/**
 * Who liked an item, oldest first, as a column of the query that reads the item (`id`, its id):
 * a page of items and their likes in one statement (issue 36). Their comment counts are the rows'
 * own `n_comentarios`.
 */
export const likesEnFila = (tipo: TipoRecurso, id: PgColumn) => {
  const { likes } = recursos[tipo];
  const l = enAlias('l');
  return listaJson<Esquema<'LikeRef'>>(
    sql`json_build_object('id', ${l(likes.id_usuario)})`,
    sql`${l(likes.fecha_creacion)}, ${l(likes.id_usuario)}`,
    sql`from ${likes} l where ${l(likes.id_recurso)} = ${calificada(id)}`,
  );
};

/** The columns of `usuarios` an Autor is made of: select these, never the whole row. */
export const autorColumns = {
  id: usuarios.id,
  primer_nombre: usuarios.primer_nombre,
  apellido_paterno: usuarios.apellido_paterno,
  foto_perfil: usuarios.foto_perfil,
};

export const toAutor = (u: { id: number; primer_nombre: string; apellido_paterno: string; foto_perfil: string }): Autor => ({
  id: u.id,
  primer_nombre: u.primer_nombre,
  apellido_paterno: u.apellido_paterno,
  foto_perfil: fotoUrl(u),
});

export const COMENTARIO_NO_ENCONTRADO = 'No se encontró comentario';

type ComentarioRow = typeof comentarios.$inferSelect;
type AutorRow = Parameters<typeof toAutor>[0];

const aComentario = (c: ComentarioRow, autor: AutorRow, idRecurso: number): Comentario => ({
  id: c.id,
  contenido: c.contenido,
  fecha_creacion: c.fecha_creacion.toISOString(),
  id_usuario: toAutor(autor),
  id_respuesta_comentario: c.id_respuesta_comentario,
  id_recurso: idRecurso,
  editado: c.editado,
  eliminado: c.eliminado,
  oculto: c.oculto,
});

/** A visit ends after this long away: a reload within it does not count again. */
const VISITA_MINUTOS = 30;
/** The person's visit row as it was before a view's update (`visitar`). */
const previa = alias(visitas, 'previa');

export function createRecursosService(db: Db, now: () => Date = () => new Date()) {
  /**
   * 404 unless the item exists and this person may see it (the same 404 either way). Answers its
   * comment count as the lists and a thread show it: neither placeholders nor hidden ones, the
   * same for everyone; the row's `n_comentarios`, kept by triggers (drizzle/0020, decision 0080).
   */
  async function existe(tipo: TipoRecurso, id: number, persona: Persona | undefined): Promise<{ n_comentarios: number }> {
    const { tabla, noEncontrado, visible } = recursos[tipo];
    const [row] = await db
      .select({ n_comentarios: tabla.n_comentarios })
      .from(tabla)
      .where(and(eq(tabla.id, id), visible(comoActor(persona))));
    if (!row) throw new ErrorDeDominio(404, noEncontrado);
    return row;
  }

  /**
   * The comment `idComentario` on content of kind `tipo`, for its author or an admin to change:
   * 404 when it does not exist, is on another kind of content or is already a placeholder.
   */
  async function comentarioPropio(tipo: TipoRecurso, idComentario: number, persona: Actor) {
    const { columna } = recursos[tipo];
    const [fila] = await db
      .select({ c: comentarios, idRecurso: columna })
      .from(comentarios)
      .where(and(eq(comentarios.id, idComentario), isNotNull(columna), eq(comentarios.eliminado, false)));
    if (!fila || fila.idRecurso === null) throw new ErrorDeDominio(404, COMENTARIO_NO_ENCONTRADO);
    await existe(tipo, fila.idRecurso, persona);
    exigirAutorOAdmin(persona, fila.c.id_usuario);
    return { comentario: fila.c, idRecurso: fila.idRecurso };
  }

  /** An admin changing someone else's comment is moderation: the audit log records it. */
  async function registrarModeracion(tx: Db, persona: Actor, idAutor: number, accion: string, idComentario: number, detalle: string) {
    if (persona.id === idAutor) return;
    await registrarAccion(tx, { id: persona.id }, { accion, tipo: 'comentario', id_registro: idComentario, detalle });
  }

  return {
    /**
     * A page of the thread as this reader sees it (issue 36): `limite` top-level comments after
     * the comment `antes` (none when it is not on this item), newest first, with all their replies
     * (a new reply shows at the top); `hay_mas` when older ones remain, `n_comentarios` the item's
     * count as the lists show it.
     */
    async comentarios(tipo: TipoRecurso, id: number, lector?: Persona, pagina: PaginaHilo = { limite: LIMITE_HILO }) {
      const { n_comentarios } = await existe(tipo, id, lector);
      const { columna } = recursos[tipo];
      const { base, hijos, hay_mas } = await paginaDeHilo(db, columna, autorColumns, id, pagina);
      const comentario = ({ c, autor }: (typeof base)[number]) => aComentario(c, autor, id);
      return { ...hiloParaLector(comoActor(lector), base.map(comentario), hijos.map(comentario)), hay_mas, n_comentarios };
    },

    async comentar(tipo: TipoRecurso, id: number, autor: Persona, contenido: string, padre: number | null): Promise<Comentario> {
      await existe(tipo, id, autor);
      const idUsuario = comoActor(autor).id;
      const { columna } = recursos[tipo];
      if (padre !== null) {
        const [parent] = await db
          .select()
          .from(comentarios)
          // A 'Comentario eliminado' placeholder takes no new replies: it is gone for everyone; so is a hidden one for all but its author and admins.
          .where(
            and(eq(comentarios.id, padre), eq(columna, id), eq(comentarios.eliminado, false), visibleA(comoActor(autor), comentarios)),
          );
        if (!parent)
          throw new ErrorDeDominio(400, 'El comentario que responde no existe', {
            errors: { id_respuesta_comentario: ['El comentario que responde no existe'] },
          });
        if (parent.id_respuesta_comentario !== null) {
          throw new ErrorDeDominio(400, 'Solo se puede responder un comentario principal', {
            errors: { id_respuesta_comentario: ['Solo se puede responder un comentario principal'] },
          });
        }
      }
      const resource = tipo === 'capsula' ? { id_capsula: id } : tipo === 'material' ? { id_material: id } : { id_manual: id };
      const [row] = await db.transaction(async (tx) => {
        const filas = await tx
          .insert(comentarios)
          .values({ contenido, id_usuario: idUsuario, id_respuesta_comentario: padre, ...resource })
          .returning();
        await notificarComentarioRecurso(tx, { tipo, id, idActor: idUsuario, padre });
        return filas;
      });
      const [escritor] = await db.select(autorColumns).from(usuarios).where(eq(usuarios.id, idUsuario));
      if (!row || !escritor) throw new Error('comment not stored');
      return aComentario(row, escritor, id);
    },

    /** Its author (or an admin) rewrites a comment; it shows '(editado)' from then on. */
    async editarComentario(tipo: TipoRecurso, idComentario: number, persona: Actor, contenido: string): Promise<Comentario> {
      const { comentario, idRecurso } = await comentarioPropio(tipo, idComentario, persona);
      return db.transaction(async (tx) => {
        const [row] = await tx.update(comentarios).set({ contenido, editado: true }).where(eq(comentarios.id, idComentario)).returning();
        const [escritor] = await tx.select(autorColumns).from(usuarios).where(eq(usuarios.id, comentario.id_usuario));
        if (!row || !escritor) throw new Error('comment not updated');
        await registrarModeracion(
          tx,
          persona,
          comentario.id_usuario,
          'editar_comentario',
          idComentario,
          `Editó un comentario ${EN_RECURSO[tipo]} n.º ${idRecurso}`,
        );
        return aComentario(row, escritor, idRecurso);
      });
    },

    /**
     * Deletes a comment: with replies it stays as a placeholder ('Comentario eliminado', text
     * emptied) so the thread keeps its shape; without replies it goes, and so does a placeholder
     * parent it leaves without replies.
     */
    async eliminarComentario(tipo: TipoRecurso, idComentario: number, persona: Actor): Promise<void> {
      const { comentario, idRecurso } = await comentarioPropio(tipo, idComentario, persona);
      await db.transaction(async (tx) => {
        const [respuestas] = await tx.select({ n: count() }).from(comentarios).where(eq(comentarios.id_respuesta_comentario, idComentario));
        if ((respuestas?.n ?? 0) > 0) {
          await tx.update(comentarios).set({ contenido: '', eliminado: true }).where(eq(comentarios.id, idComentario));
        } else {
          await tx.delete(comentarios).where(eq(comentarios.id, idComentario));
          const padre = comentario.id_respuesta_comentario;
          if (padre !== null) {
            await tx
              .delete(comentarios)
              .where(
                and(
                  eq(comentarios.id, padre),
                  eq(comentarios.eliminado, true),
                  sql`not exists (select 1 from ${comentarios} h where h.id_respuesta_comentario = ${padre})`,
                ),
              );
          }
        }
        await registrarModeracion(
          tx,
          persona,
          comentario.id_usuario,
          'eliminar_comentario',
          idComentario,
          `Eliminó un comentario ${EN_RECURSO[tipo]} n.º ${idRecurso}`,
        );
      });
    },

    /** Likes or unlikes (idempotent) and answers the resource's likes after the change. */
    async like(tipo: TipoRecurso, id: number, persona: Persona, add: boolean): Promise<Esquema<'LikeRef'>[]> {
      await existe(tipo, id, persona);
      const { likes } = recursos[tipo];
      const idUsuario = comoActor(persona).id;
      await db.transaction(async (tx) => {
        const hechos = add
          ? await tx
              .insert(likes)
              .values({ id_recurso: id, id_usuario: idUsuario })
              .onConflictDoNothing()
              .returning({ id: likes.id_usuario })
          : await tx
              .delete(likes)
              .where(and(eq(likes.id_recurso, id), eq(likes.id_usuario, idUsuario)))
              .returning({ id: likes.id_usuario });
        if (hechos.length > 0) await notificarMeGusta(tx, { tipo, id, idActor: idUsuario, add });
      });
      return this.likes(tipo, id);
    },

    /**
     * Counts a view once per person per visit (a view more than VISITA_MINUTOS after their previous
     * one); answers whether this one counted. Two statements, three when it counts, and no
     * transaction, where there were five in one (issue 36: every detail page asks it): the person's
     * row takes this view's time and gives back the previous one as the statement found it, or, on
     * a first view, is inserted, and of two first views at once only the one that inserts it counts.
     */
    async visitar(tipo: TipoVisitable, id: number, idUsuario: number): Promise<boolean> {
      const at = now();
      const deLaPersona = (t: Record<'tipo' | 'id_recurso' | 'id_usuario', PgColumn>) =>
        and(eq(t.tipo, tipo), eq(t.id_recurso, id), eq(t.id_usuario, idUsuario));
      const [movida] = await db
        .update(visitas)
        .set({ ultima: at })
        .from(previa)
        .where(and(deLaPersona(visitas), deLaPersona(previa)))
        .returning({ ultima: previa.ultima });
      const cuenta = movida
        ? at.getTime() - movida.ultima.getTime() > VISITA_MINUTOS * 60_000
        : (
            await db
              .insert(visitas)
              .values({ tipo, id_recurso: id, id_usuario: idUsuario, ultima: at })
              .onConflictDoNothing()
              .returning({ tipo: visitas.tipo })
          ).length > 0;
      if (cuenta) {
        const tabla = visitables[tipo];
        await db
          .update(tabla)
          .set({ n_visitas: sql`${tabla.n_visitas} + 1` })
          .where(eq(tabla.id, id));
      }
      return cuenta;
    },

    /**
     * Forgets the views and notifications of a deleted item (`tx`: the transaction that deletes
     * it): a notification would otherwise lead to a page that is gone.
     */
    async olvidar(tipo: TipoVisitable, id: number, tx: Db = db): Promise<void> {
      await tx.delete(visitas).where(and(eq(visitas.tipo, tipo), eq(visitas.id_recurso, id)));
      await olvidarNotificaciones(tx, tipo, id);
    },

    /** The item's likes as its pages show them (`likesEnFila`, the one place that orders them). */
    async likes(tipo: TipoRecurso, id: number): Promise<Esquema<'LikeRef'>[]> {
      const { tabla } = recursos[tipo];
      const [fila] = await db
        .select({ likes: likesEnFila(tipo, tabla.id) })
        .from(tabla)
        .where(eq(tabla.id, id));
      return fila?.likes ?? [];
    },
  };
}

export type RecursosService = ReturnType<typeof createRecursosService>;
