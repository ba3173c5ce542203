/**
 * Large mochilas (issue 35, decision 0076): over MOCHILA_DIRECTA_MB a mochila is not streamed on
 * request but built once by the 'mochila-preparar' job, on whichever server's worker takes it from the
 * database's queue, into storage (streamed, as the copy of a person's data is), then served from
 * there. A row of `mochilas` per reader, source and `firma` (what the ZIP holds): the first request
 * inserts it and queues the job, any later one (or one at the same time: the unique index) finds
 * it and reads its progress. A changed collection has another `firma`, so it is built again; the
 * older file goes once the new one is ready, and every file after VIGENCIA_MOCHILA_DIAS (the
 * hourly clean-up). Its reader hears from the bell when it is ready.
 */
import { and, eq, lt, lte, ne, or, type SQL } from 'drizzle-orm';
import { mochilas, notificaciones, usuarios } from '../../db/schema.server.ts';
import { trabajoPeriodico } from '../../jobs/periodico.server.ts';
import type { JobHandler } from '../../jobs/runner.server.ts';
import type { Actor } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import type { createMochila, FuenteMochila, MochilaLeida, ResumenMochila } from './mochila.server.ts';

export type OrigenMochila = (typeof mochilas.$inferSelect)['origen'];

export const TRABAJO_MOCHILA = 'mochila-preparar';
export const TRABAJO_MOCHILAS_VENCIDAS = 'mochilas-vencidas';
/** A built mochila is kept this long. */
export const VIGENCIA_MOCHILA_DIAS = 7;
const DIA_MS = 24 * 60 * 60 * 1000;
/** The build's progress is written at most this often. */
const PROGRESO_MS = 1000;

/** A large mochila's state for its reader: its file when built, else how far its build is. */
export type EstadoMochila =
  | { lista: true; clave: string; bytes: number }
  | { lista: false; estado: 'pendiente'; progreso: number; bytes_hechos: number; bytes_total: number };

/**
 * A request for a mochila: what it is (its rows and summary, to plan it when it streams) and, when
 * it is large, its build's state (null: not asked for yet).
 */
export type PedidoMochila = { leida: MochilaLeida; directa: true } | { leida: MochilaLeida; directa: false; estado: EstadoMochila | null };

const claveMochila = (idUsuario: number, id: number) => `mochilas/${idUsuario}/mochila-${id}.zip`;

export function createMochilasGrandes(
  ctx: ServiceContext,
  deps: {
    mochila: ReturnType<typeof createMochila>;
    /** The source as `actor` sees it now (a 404 when gone or no longer theirs to see). */
    fuente: (actor: Actor, origen: OrigenMochila, id: number) => Promise<FuenteMochila>;
  },
) {
  const { db, log, storage, jobs } = ctx;
  const { mochila, fuente } = deps;

  /** Removes the rows `donde` selects and their files; how many. */
  async function borrar(donde: SQL | undefined): Promise<number> {
    const filas = await db.delete(mochilas).where(donde).returning({ clave: mochilas.clave });
    for (const f of filas) if (f.clave) await storage.remove(f.clave);
    return filas.length;
  }

  /** A mochila this large streams on request; a larger one goes through the job. */
  const directa = (resumen: ResumenMochila) => resumen.bytes <= ctx.config.MOCHILA_DIRECTA_MB * 1024 * 1024;

  const progreso = (f: { bytes_hechos: number; bytes_total: number }) =>
    f.bytes_total > 0 ? Math.min(99, Math.floor((f.bytes_hechos / f.bytes_total) * 100)) : 0;

  const donde = (actor: Actor, origen: OrigenMochila, id: number, firma: string) =>
    and(eq(mochilas.id_usuario, actor.id), eq(mochilas.origen, origen), eq(mochilas.id_origen, id), eq(mochilas.firma, firma));

  /**
   * The built file of this mochila for `actor`, or its progress; `encargar` queues its build when
   * none is under way (once, however many ask at the same time). A failed build is queued again.
   */
  async function estado(
    actor: Actor,
    origen: OrigenMochila,
    id: number,
    resumen: ResumenMochila,
    encargar: boolean,
  ): Promise<EstadoMochila | null> {
    if (encargar) {
      // One statement: a new row, or a failed one made pending again, comes back and is queued; one under way or built does not.
      const [encargada] = await db
        .insert(mochilas)
        .values({ id_usuario: actor.id, origen, id_origen: id, firma: resumen.firma, nombre: resumen.nombre, bytes_total: resumen.bytes })
        .onConflictDoUpdate({
          target: [mochilas.id_usuario, mochilas.origen, mochilas.id_origen, mochilas.firma],
          set: { estado: 'pendiente', bytes_hechos: 0 },
          setWhere: eq(mochilas.estado, 'fallida'),
        })
        .returning({ id: mochilas.id });
      if (encargada) await jobs.enqueue(TRABAJO_MOCHILA, { id_mochila: encargada.id }, { maxIntentos: 3 });
    }
    const [fila] = await db
      .select()
      .from(mochilas)
      .where(donde(actor, origen, id, resumen.firma));
    if (!fila) return null;
    if (fila.estado === 'lista' && fila.clave && (fila.expira === null || fila.expira > ctx.now()))
      return { lista: true, clave: fila.clave, bytes: fila.bytes };
    return { lista: false, estado: 'pendiente', progreso: progreso(fila), bytes_hechos: fila.bytes_hechos, bytes_total: fila.bytes_total };
  }

  /** Builds a pending mochila (datos: { id_mochila }) as its reader sees the source now; marks it 'fallida' on the last failed attempt. */
  const construir: JobHandler = async (datos, job) => {
    const { id_mochila } = (datos ?? {}) as { id_mochila?: number };
    const [fila] = await db
      .select()
      .from(mochilas)
      .where(and(eq(mochilas.id, Number(id_mochila)), eq(mochilas.estado, 'pendiente')));
    if (!fila) return;
    const [persona] = await db.select({ id: usuarios.id, groups: usuarios.groups }).from(usuarios).where(eq(usuarios.id, fila.id_usuario));
    if (!persona) return;
    const origen = await fuente(persona, fila.origen, fila.id_origen).catch(() => null);
    const leida = origen && (await mochila.leer(origen));
    if (!origen || !leida || leida.resumen.firma !== fila.firma) {
      // Gone, no longer visible, or changed since it was asked for: the next request asks for what there is now.
      await db.delete(mochilas).where(eq(mochilas.id, fila.id));
      return;
    }
    const plan = await mochila.planear(leida);
    const clave = claveMochila(fila.id_usuario, fila.id);
    const started = performance.now();
    let escrito = Promise.resolve();
    let ultimo = 0;
    const alAvanzar = (bytes: number) => {
      const ahora = Date.now();
      if (ahora - ultimo < PROGRESO_MS) return;
      ultimo = ahora;
      escrito = escrito
        .then(() => db.update(mochilas).set({ bytes_hechos: bytes }).where(eq(mochilas.id, fila.id)))
        .then(
          () => undefined,
          (error: unknown) => log.warn('mochila progress not written', { error }),
        );
    };
    let bytes: number;
    try {
      bytes = await mochila.guardar(plan, ctx.now(), clave, { signal: job.signal, alAvanzar });
    } catch (error) {
      log.error('mochila build failed', { id_mochila: fila.id, intento: job.intento, error });
      await escrito;
      if (job.ultimo) await db.update(mochilas).set({ estado: 'fallida' }).where(eq(mochilas.id, fila.id));
      throw error;
    }
    await escrito;
    const ahora = ctx.now();
    const hecha = await db.transaction(async (tx) => {
      const [sigue] = await tx
        .update(mochilas)
        .set({
          estado: 'lista',
          clave,
          bytes,
          bytes_hechos: fila.bytes_total,
          expira: new Date(ahora.getTime() + VIGENCIA_MOCHILA_DIAS * DIA_MS),
        })
        .where(and(eq(mochilas.id, fila.id), eq(mochilas.estado, 'pendiente')))
        .returning({ id: mochilas.id });
      if (!sigue) return false;
      await tx.insert(notificaciones).values({
        id_usuario: fila.id_usuario,
        tipo: 'mochila_lista',
        id_actor: null,
        recurso_tipo: 'mochila',
        id_recurso: fila.id,
        titulo: fila.nombre,
        enlace: origen.enlace,
      });
      return true;
    });
    if (!hecha) {
      await storage.remove(clave);
      return;
    }
    // The same reader's older builds of this source are out of date now.
    await borrar(
      and(
        eq(mochilas.id_usuario, fila.id_usuario),
        eq(mochilas.origen, fila.origen),
        eq(mochilas.id_origen, fila.id_origen),
        ne(mochilas.id, fila.id),
        ne(mochilas.estado, 'pendiente'),
      ),
    );
    log.info('mochila built', { id_mochila: fila.id, bytes, ms: Math.round(performance.now() - started) });
  };

  /** Removes built mochilas past their days, and failed ones a day old. */
  async function limpiar(): Promise<void> {
    const ahora = ctx.now();
    const n = await borrar(
      or(
        and(eq(mochilas.estado, 'lista'), lte(mochilas.expira, ahora)),
        and(eq(mochilas.estado, 'fallida'), lt(mochilas.fecha_creacion, new Date(ahora.getTime() - DIA_MS))),
      ),
    );
    if (n > 0) log.info('expired mochilas removed', { n });
  }
  const limpieza = trabajoPeriodico(ctx, TRABAJO_MOCHILAS_VENCIDAS, 60 * 60, limpiar);

  /**
   * What asking for a mochila gets, for the download, the page and its 'Preparar mochila' form
   * alike: its summary from the database (no storage lookups, no pages written), and when it is
   * large its build's state, queued first (once) when `encargar`. `leida` is `fuente` already read.
   */
  async function pedir(
    actor: Actor,
    origen: OrigenMochila,
    id: number,
    opciones: { encargar: boolean; fuente?: FuenteMochila },
  ): Promise<PedidoMochila> {
    const leida = await mochila.leer(opciones.fuente ?? (await fuente(actor, origen, id)));
    if (directa(leida.resumen)) return { leida, directa: true };
    return { leida, directa: false, estado: await estado(actor, origen, id, leida.resumen, opciones.encargar) };
  }

  return {
    pedir,
    /** Every reader's built mochila of a source that is gone (a deleted collection). */
    olvidar: (origen: OrigenMochila, id: number) => borrar(and(eq(mochilas.origen, origen), eq(mochilas.id_origen, id))),
    trabajos: { [TRABAJO_MOCHILA]: construir, [TRABAJO_MOCHILAS_VENCIDAS]: limpieza.trabajo },
    programar: limpieza.programar,
  };
}
