/**
 * What the forum's resources share: who may see a category or a conversation (inactive
 * categories are hidden from everyone but admins, and so is everything inside them), the posting
 * limits, the reaction ids, and the SQL that derives counters from the rows in the same query that
 * reads them, so they are always true.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Esquema } from '../../../api/contrato.ts';
import { createRateLimiter, type Limit } from '../../auth/rate-limit.server.ts';
import { foroCategorias, foroComentarios, foroConversaciones } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { createRecursosService, visibleA } from '../recursos.server.ts';

export const CATEGORIA_NO_ENCONTRADA = 'No se encontró categoria';
export const CONVERSACION_NO_ENCONTRADA = 'No se encontró conversación';

/** Posting limits per account: enough for a lively discussion, too few to flood a category. */
const LIMITES: Record<'conversacion' | 'comentario', Limit> = {
  conversacion: { max: 5, windowSeconds: 60 * 60 },
  comentario: { max: 40, windowSeconds: 60 * 60 },
};

export type ReaccionId = Esquema<'ReaccionId'>;
export type ReaccionComentarioId = Esquema<'ReaccionComentarioId'>;
export type Accion = Esquema<'ReaccionConversacionEntrada'>['action'];

export const esReaccion = (n: number): n is ReaccionId => Number.isInteger(n) && n >= 1 && n <= 5;
export const esReaccionComentario = (n: number): n is ReaccionComentarioId => n === 1 || n === 3;

export const entero = (sqlText: SQL) => sql<number>`coalesce(${sqlText}, 0)::int`;
/** ISO 8601 in UTC, the same text on PGlite and PostgreSQL (drivers differ on timestamps). */
export const iso = (column: SQL) => sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const porReaccion = (columna: AnyPgColumn, id: number) => sql<number>`(count(*) filter (where ${columna} = ${id}))::int`;
/** A comment the forum (and the home's activity) counts, the same for everyone: neither a placeholder of a deleted one nor hidden. */
export const comentarioContado = and(eq(foroComentarios.eliminado, false), eq(foroComentarios.oculto, false));

/** The PostgreSQL error code of a failed query (drivers and Drizzle wrap it in `cause`). */
export function codigoError(error: unknown): string | undefined {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = 'cause' in e ? e.cause : undefined) {
    if ('code' in e && typeof e.code === 'string') return e.code;
  }
  return undefined;
}

/** Teachers see active categories only; admins see every one. */
export const categoriasVisibles = (actor: Actor): SQL | undefined => (esAdmin(actor) ? undefined : eq(foroCategorias.activa, true));

export function createForoComun(ctx: ServiceContext) {
  const { db } = ctx;
  const limiter = createRateLimiter(db, ctx.now);
  const recursos = createRecursosService(db, ctx.now);

  /** Counts a view of a category or conversation (once per person per visit). */
  const visitar = (tipo: 'categoria' | 'conversacion', id: number, actor: Actor) => recursos.visitar(tipo, id, actor.id);

  async function categoriaVisible(actor: Actor, id: number) {
    const [row] = await db
      .select()
      .from(foroCategorias)
      .where(and(eq(foroCategorias.id, id), categoriasVisibles(actor)));
    if (!row) throw new ErrorDeDominio(404, CATEGORIA_NO_ENCONTRADA);
    return row;
  }

  /** A conversation in a category this person sees, and not hidden from them by moderation. */
  async function conversacionVisible(actor: Actor, id: number) {
    const [row] = await db
      .select({ id: foroConversaciones.id, id_categoria: foroConversaciones.id_categoria })
      .from(foroConversaciones)
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(and(eq(foroConversaciones.id, id), categoriasVisibles(actor), visibleA(actor, foroConversaciones)));
    if (!row) throw new ErrorDeDominio(404, CONVERSACION_NO_ENCONTRADA);
    return row;
  }

  /** Counts one post against the account's limit; 429 with a Spanish sentence when it is over. */
  async function limitar(tipo: 'conversacion' | 'comentario', idUsuario: number) {
    const limite = LIMITES[tipo];
    const clave = `foro:${tipo}:${idUsuario}`;
    await limiter.hit(clave, limite);
    // The hit is atomic, so two posts at once cannot both slip under the limit.
    const segundos = await limiter.blockedFor(clave, { ...limite, max: limite.max + 1 });
    if (segundos === 0) return;
    const minutos = Math.max(1, Math.ceil(segundos / 60));
    const espera = `${minutos} ${minutos === 1 ? 'minuto' : 'minutos'}`;
    const detalle =
      tipo === 'conversacion'
        ? `Publicaste demasiadas conversaciones en poco tiempo. Espera ${espera} antes de publicar otra.`
        : `Publicaste demasiados comentarios en poco tiempo. Espera ${espera} antes de volver a comentar.`;
    throw new ErrorDeDominio(429, detalle, {}, { 'Retry-After': String(segundos) });
  }

  return { categoriaVisible, conversacionVisible, limitar, visitar };
}

export type ForoComun = ReturnType<typeof createForoComun>;
