/**
 * Following (issue 35, decision 0074): a person follows an OA, an area and level, a colleague or
 * a forum category; what becomes visible there comes to their bell and their mail
 * (seguimientos/avisos.server.ts). Following the same thing twice answers the follow there is; a
 * target that does not exist, is retired or is not visible to the person is a 400 and writes nothing.
 */
import { and, count, desc, eq, inArray, like, type SQL } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { LIMITE_SEGUIMIENTOS, type NuevoSeguimiento, SEGUIMIENTOS_MAX } from '../../validation/seguimientos.ts';
import type { Db } from '../db/client.server.ts';
import { notificaciones, seguimientos, usuarios } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import type { Actor } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';
import { seguimientoDeToken, urlDejarDeSeguir } from './notificaciones/baja.server.ts';
import { createObjetivos, type Objetivo, objetivoDe } from './seguimientos/objetivos.server.ts';

export type Seguimiento = Esquema<'Seguimiento'>;
type Fila = typeof seguimientos.$inferSelect;

export const SEGUIMIENTO_NO_ENCONTRADO = 'No se encontró el seguimiento';

/** Forgets the follows `donde` selects with their notifications (unfollowing, an erased account); how many. */
export async function olvidarSeguimientos(tx: Db, donde: SQL | undefined): Promise<number> {
  const idas = await tx.delete(seguimientos).where(donde).returning({ id: seguimientos.id });
  if (idas.length === 0) return 0;
  await tx.delete(notificaciones).where(
    and(
      eq(notificaciones.tipo, 'seguimiento'),
      like(notificaciones.recurso_tipo, 'seguimiento_%'),
      inArray(
        notificaciones.id_recurso,
        idas.map((f) => f.id),
      ),
    ),
  );
  return idas.length;
}

export function createSeguimientosService(ctx: ServiceContext) {
  const { db } = ctx;
  const objetivos = createObjetivos(db);

  async function componer(filas: Fila[]): Promise<Seguimiento[]> {
    const etiquetas = await objetivos.etiquetas(filas);
    return filas.map((f) => {
      const e = etiquetas.get(f.clave) ?? { etiqueta: 'Ya no está disponible', url: '/perfil/seguimientos' };
      return {
        id: f.id,
        tipo: f.tipo,
        oa: f.id_oa,
        area: f.id_area,
        nivel: f.codigo_nivel,
        usuario: f.id_seguido,
        categoria: f.id_categoria,
        etiqueta: e.etiqueta,
        url: e.url,
        fecha_creacion: f.fecha_creacion.toISOString(),
      };
    });
  }

  /** This person's follow of the target with this key, if any. */
  async function existente(idUsuario: number, clave: string): Promise<Fila | undefined> {
    const [f] = await db
      .select()
      .from(seguimientos)
      .where(and(eq(seguimientos.id_usuario, idUsuario), eq(seguimientos.clave, clave)));
    return f;
  }

  async function una(fila: Fila): Promise<Seguimiento> {
    const [s] = await componer([fila]);
    if (!s) throw new Error('follow vanished');
    return s;
  }

  return {
    /**
     * Follows the target; `creado` is false when the person already followed it (that follow is
     * answered, nothing is written). A target one may not follow is a 400; past the cap, a 400.
     */
    async seguir(actor: Actor, entrada: NuevoSeguimiento): Promise<{ seguimiento: Seguimiento; creado: boolean }> {
      const objetivo: Objetivo = objetivoDe(entrada);
      const ya = await existente(actor.id, objetivo.clave);
      if (ya) return { seguimiento: await una(ya), creado: false };
      await objetivos.exigir(actor, objetivo);
      const fila = await db.transaction(async (tx) => {
        // The person's row locked: two follows at once both see the count before the cap.
        await tx.select({ id: usuarios.id }).from(usuarios).where(eq(usuarios.id, actor.id)).for('update');
        const [n] = await tx.select({ n: count() }).from(seguimientos).where(eq(seguimientos.id_usuario, actor.id));
        if ((n?.n ?? 0) >= SEGUIMIENTOS_MAX) throw new ErrorDeDominio(400, LIMITE_SEGUIMIENTOS);
        const [nueva] = await tx
          .insert(seguimientos)
          .values({ ...objetivo, id_usuario: actor.id, fecha_creacion: ctx.now() })
          .onConflictDoNothing()
          .returning();
        return nueva;
      });
      if (fila) return { seguimiento: await una(fila), creado: true };
      const otra = await existente(actor.id, objetivo.clave);
      if (!otra) throw new Error('follow vanished');
      return { seguimiento: await una(otra), creado: false };
    },

    /** This person's follows, newest first, each with its label and page. */
    async listar(actor: Actor): Promise<Seguimiento[]> {
      const filas = await db
        .select()
        .from(seguimientos)
        .where(eq(seguimientos.id_usuario, actor.id))
        .orderBy(desc(seguimientos.fecha_creacion), desc(seguimientos.id));
      return componer(filas);
    },

    /** The follow of this target by this person, or null (the pages' buttons). */
    async buscar(actor: Actor, entrada: NuevoSeguimiento): Promise<number | null> {
      return (await existente(actor.id, objetivoDe(entrada).clave))?.id ?? null;
    },

    /** Stops one of one's own follows; another's or a missing one is a 404. */
    async dejar(actor: Actor, id: number): Promise<void> {
      const idas = await db.transaction((tx) =>
        olvidarSeguimientos(tx, and(eq(seguimientos.id, id), eq(seguimientos.id_usuario, actor.id))),
      );
      if (idas === 0) throw new ErrorDeDominio(404, SEGUIMIENTO_NO_ENCONTRADO);
    },

    /** The mail's stop link of a follow (no sign-in: the token is signed with the app's secret). */
    urlDejar: (id: number) => urlDejarDeSeguir(ctx.config.PUBLIC_URL, ctx.jwtSecret, id),

    /** What a stop link names: the follow's label, or null when the link is not ours or it is gone. */
    async deToken(token: string): Promise<{ id: number; etiqueta: string } | null> {
      const id = seguimientoDeToken(ctx.jwtSecret, token);
      if (id === null) return null;
      const [f] = await db.select().from(seguimientos).where(eq(seguimientos.id, id));
      return f ? { id, etiqueta: (await una(f)).etiqueta } : null;
    },

    /** Stops a follow named by its stop link (again is no change). */
    async dejarPorToken(id: number): Promise<void> {
      await db.transaction((tx) => olvidarSeguimientos(tx, eq(seguimientos.id, id)));
    },
  };
}

export type SeguimientosService = ReturnType<typeof createSeguimientosService>;
