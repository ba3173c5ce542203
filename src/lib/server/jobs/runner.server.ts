/**
 * A durable job queue in the database: jobs survive restarts, a job whose worker died is claimed
 * again when its lease passes, failures are retried with exponential backoff. Claiming uses
 * FOR UPDATE SKIP LOCKED, so several workers on PostgreSQL never take the same job.
 */
import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { trabajos } from '../db/schema.server.ts';
import type { Logger } from '../log.server.ts';

/** `ultimo` is true on the last attempt: a handler records a final failure for people to see. */
export type JobHandler = (datos: unknown, job: { id: number; intento: number; ultimo: boolean }) => Promise<void>;

export interface JobRunnerOptions {
  db: Db;
  log: Logger;
  handlers?: Record<string, JobHandler>;
  pollMs?: number;
  leaseSeconds?: number;
}

export interface JobRunner {
  /** Adds the handler of a job type (services register theirs when they are built). */
  register(tipo: string, handler: JobHandler): void;
  enqueue(tipo: string, datos: unknown, options?: { maxIntentos?: number }): Promise<number>;
  start(): void;
  stop(): Promise<void>;
  /** True while the loop is running and its last poll reached the database. */
  healthy(): boolean;
  /** Runs every job that is due now, one after another (used by tests and by start-up). */
  drain(): Promise<number>;
}

/**
 * A running job's lease is renewed every third of `leaseSeconds`; if its process dies, another
 * worker (or this one after a restart) takes the job once the lease passes.
 */
export function createJobRunner({ db, log, handlers: initial = {}, pollMs = 1000, leaseSeconds = 120 }: JobRunnerOptions): JobRunner {
  const handlers: Record<string, JobHandler> = { ...initial };
  let running = false;
  let lastPollOk = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();

  async function claim() {
    const due = db
      .select({ id: trabajos.id })
      .from(trabajos)
      .where(
        or(
          and(eq(trabajos.estado, 'pendiente'), lte(trabajos.ejecutar_desde, sql`now()`)),
          and(eq(trabajos.estado, 'en_curso'), lt(trabajos.bloqueado_hasta, sql`now()`)),
        ),
      )
      .orderBy(asc(trabajos.ejecutar_desde), asc(trabajos.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [job] = await db
      .update(trabajos)
      .set({
        estado: 'en_curso',
        intentos: sql`${trabajos.intentos} + 1`,
        bloqueado_hasta: sql`now() + make_interval(secs => ${leaseSeconds})`,
      })
      .where(inArray(trabajos.id, due))
      .returning();
    return job;
  }

  async function runOne(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    const handler = handlers[job.tipo];
    const jobLog = log.child({ jobId: job.id, jobType: job.tipo, attempt: job.intentos });
    const heartbeat = setInterval(
      () => {
        db.update(trabajos)
          .set({ bloqueado_hasta: sql`now() + make_interval(secs => ${leaseSeconds})` })
          .where(eq(trabajos.id, job.id))
          .catch((error: unknown) => jobLog.warn('lease renewal failed', { error }));
      },
      (leaseSeconds * 1000) / 3,
    );
    try {
      if (!handler) throw new Error(`no handler for job type ${job.tipo}`);
      await handler(job.datos, { id: job.id, intento: job.intentos, ultimo: job.intentos >= job.max_intentos });
      await db.update(trabajos).set({ estado: 'hecho', bloqueado_hasta: null, ultimo_error: null }).where(eq(trabajos.id, job.id));
      jobLog.info('job done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.intentos >= job.max_intentos;
      const backoff = Math.min(2 ** job.intentos * 10, 3600);
      await db
        .update(trabajos)
        .set({
          estado: final ? 'fallido' : 'pendiente',
          bloqueado_hasta: null,
          ultimo_error: message.slice(0, 2000),
          ejecutar_desde: sql`now() + make_interval(secs => ${backoff})`,
        })
        .where(eq(trabajos.id, job.id));
      jobLog.error(final ? 'job failed for good' : 'job failed; will retry', { error, retryInSeconds: final ? undefined : backoff });
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  async function drain(): Promise<number> {
    let count = 0;
    while (await runOne()) count++;
    return count;
  }

  function schedule(delay: number) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      current = tick();
    }, delay);
  }

  async function tick() {
    try {
      await drain();
      lastPollOk = true;
    } catch (error) {
      lastPollOk = false;
      log.error('job poll failed', { error });
    }
    if (running) schedule(pollMs);
  }

  return {
    register(tipo, handler) {
      handlers[tipo] = handler;
    },
    async enqueue(tipo, datos, options = {}) {
      const [row] = await db
        .insert(trabajos)
        .values({ tipo, datos, max_intentos: options.maxIntentos ?? 5 })
        .returning({ id: trabajos.id });
      if (!row) throw new Error('job insert returned nothing');
      if (running) schedule(0);
      return row.id;
    },
    start() {
      if (running) return;
      running = true;
      current = tick();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await current;
    },
    healthy: () => running && lastPollOk,
    drain,
  };
}
