/**
 * A recurring job (the notifications' mail, the uploads' clean-up, the accounts' erasure…): each
 * run does its task and then queues the next one `cadenciaSegundos` later, unless another runner
 * already queued one; finished runs are removed (they are only noise). `programar` queues a first
 * run at start-up unless one is waiting or running: at once, or with `aSuHora` at the cadence's
 * next time (the daily backup at 03:00). A cadence may be a function: the seconds until the next
 * run, counted when it is queued.
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { trabajos } from '../db/schema.server.ts';
import type { JobHandler, JobRunner } from './runner.server.ts';

export function trabajoPeriodico(
  ctx: { db: Db; jobs: Pick<JobRunner, 'enqueue'> },
  tipo: string,
  cadenciaSegundos: number | (() => number),
  tarea: () => Promise<unknown>,
  opciones: { aSuHora?: boolean } = {},
): { trabajo: JobHandler; programar: () => Promise<void> } {
  const { db, jobs } = ctx;
  const siguiente = () => (typeof cadenciaSegundos === 'number' ? cadenciaSegundos : cadenciaSegundos());
  return {
    trabajo: async (_datos, job) => {
      try {
        await tarea();
      } finally {
        await db.delete(trabajos).where(and(eq(trabajos.tipo, tipo), eq(trabajos.estado, 'hecho'), ne(trabajos.id, job.id)));
        const [otro] = await db
          .select({ id: trabajos.id })
          .from(trabajos)
          .where(and(eq(trabajos.tipo, tipo), eq(trabajos.estado, 'pendiente')));
        if (!otro) await jobs.enqueue(tipo, {}, { maxIntentos: 1, enSegundos: siguiente() });
      }
    },
    async programar() {
      const [vivo] = await db
        .select({ id: trabajos.id })
        .from(trabajos)
        .where(and(eq(trabajos.tipo, tipo), inArray(trabajos.estado, ['pendiente', 'en_curso'])));
      if (!vivo) await jobs.enqueue(tipo, {}, { maxIntentos: 1, ...(opciones.aSuHora ? { enSegundos: siguiente() } : {}) });
    },
  };
}
