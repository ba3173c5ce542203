/**
 * A durable job queue in the database: jobs survive restarts, failures are retried with
 * exponential backoff. Claiming uses FOR UPDATE SKIP LOCKED, so several workers on PostgreSQL
 * never take the same job. The runner also sends the mail outbox (its own loop, so a long video
 * job never holds mail back) and writes a heartbeat row (`ejecutores`) that /healthz reads.
 *
 * Leases (docs/decisions/0024): a claimed job is held for `leaseSeconds` (30 s) and renewed every
 * `heartbeatMs` (10 s) while its handler runs, so another worker takes a dead worker's job within
 * about 30 s. A handler learns that it must stop through `job.signal`: it aborts when the job was
 * taken by another worker (the renewal found the lease lost) or when `stop()` released it.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { and, asc, eq, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { ejecutores, trabajos } from '../db/schema.server.ts';
import type { Logger } from '../log.server.ts';
import type { Outbox } from '../mail/outbox.server.ts';

export interface JobInfo {
  id: number;
  intento: number;
  /** True on the last attempt: a handler records a final failure for people to see. */
  ultimo: boolean;
  /** Aborts when this worker no longer owns the job (released by `stop()` or taken over). */
  signal?: AbortSignal;
}

export type JobHandler = (datos: unknown, job: JobInfo) => Promise<void>;

export interface JobRunnerOptions {
  db: Db;
  log: Logger;
  handlers?: Record<string, JobHandler>;
  /** Sent by the runner's mail loop when given. */
  outbox?: Outbox;
  pollMs?: number;
  leaseSeconds?: number;
  /** Lease renewal and heartbeat period. */
  heartbeatMs?: number;
  /** 'web' or 'worker', recorded with the heartbeat. */
  servicio?: string;
}

export interface JobRunner {
  /** This runner's heartbeat row id. */
  readonly id: string;
  /** Adds the handler of a job type (the services' are registered by `registrarTrabajos`, services.server.ts). */
  register(tipo: string, handler: JobHandler): void;
  /** `enSegundos`: due that many seconds from now (a recurring job queues its next run). */
  enqueue(tipo: string, datos: unknown, options?: { maxIntentos?: number; enSegundos?: number }): Promise<number>;
  start(): void;
  /**
   * Stops polling; waits up to `graceMs` for the running job, then releases it (back to
   * 'pendiente', the attempt not counted) and aborts its signal. Removes the heartbeat row.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** True while the loop is running and its last poll reached the database. */
  healthy(): boolean;
  /** Runs every job that is due now, one after another (used by tests and by start-up). */
  drain(): Promise<number>;
  /** Sends every mail that is due now (used by tests and by the CLI). */
  drainMail(): Promise<number>;
  /** Writes this runner's heartbeat row now (the started loop does it every `heartbeatMs`). */
  heartbeat(): Promise<void>;
}

export const LEASE_SECONDS = 30;
export const HEARTBEAT_MS = 10_000;
export const STOP_GRACE_MS = 10_000;

/** True when `promise` settles within `ms` (the timer never outlives it). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Running {
  id: number;
  intentos: number;
  controller: AbortController;
  /** Set when this runner gave the job up: its outcome is no longer recorded here. */
  abandoned: boolean;
}

export function createJobRunner({
  db,
  log,
  handlers: initial = {},
  outbox,
  pollMs = 1000,
  leaseSeconds = LEASE_SECONDS,
  heartbeatMs = HEARTBEAT_MS,
  servicio = 'web',
}: JobRunnerOptions): JobRunner {
  const handlers: Record<string, JobHandler> = { ...initial };
  const id = randomUUID();
  let running = false;
  let stopping = false;
  let lastPollOk = false;
  let jobTimer: NodeJS.Timeout | undefined;
  let mailTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let jobLoop: Promise<unknown> = Promise.resolve();
  let mailLoop: Promise<unknown> = Promise.resolve();
  let mailStop = new AbortController();
  let current: Running | undefined;

  const lease = () => sql`now() + make_interval(secs => ${leaseSeconds})`;
  /** Only the attempt this runner claimed: a job taken over by another worker has more attempts. */
  const owned = (job: Pick<Running, 'id' | 'intentos'>) =>
    and(eq(trabajos.id, job.id), eq(trabajos.intentos, job.intentos), eq(trabajos.estado, 'en_curso'));

  /** One due row, locked: a scalar subquery runs once (an IN list would be re-scanned and claim several). */
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
      .set({ estado: 'en_curso', intentos: sql`${trabajos.intentos} + 1`, bloqueado_hasta: lease(), actualizado: sql`now()` })
      .where(sql`${trabajos.id} = (${due})`)
      .returning();
    return job;
  }

  async function renew(job: Running, jobLog: Logger) {
    try {
      const kept = await db.update(trabajos).set({ bloqueado_hasta: lease() }).where(owned(job)).returning({ id: trabajos.id });
      if (kept.length === 0 && !job.abandoned) {
        job.abandoned = true;
        job.controller.abort(new Error('lease lost: another worker took the job'));
        jobLog.warn('lease lost; the job continues elsewhere');
      }
    } catch (error) {
      jobLog.warn('lease renewal failed', { error });
    }
  }

  async function runOne(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    const handler = handlers[job.tipo];
    const jobLog = log.child({ jobId: job.id, jobType: job.tipo, attempt: job.intentos });
    const run: Running = { id: job.id, intentos: job.intentos, controller: new AbortController(), abandoned: false };
    current = run;
    const renewal = setInterval(() => void renew(run, jobLog), Math.min(heartbeatMs, (leaseSeconds * 1000) / 3));
    try {
      if (!handler) throw new Error(`no handler for job type ${job.tipo}`);
      await handler(job.datos, {
        id: job.id,
        intento: job.intentos,
        ultimo: job.intentos >= job.max_intentos,
        signal: run.controller.signal,
      });
      if (run.abandoned) return true;
      await db
        .update(trabajos)
        .set({ estado: 'hecho', bloqueado_hasta: null, ultimo_error: null, actualizado: sql`now()` })
        .where(owned(run));
      jobLog.info('job done');
    } catch (error) {
      if (run.abandoned) {
        jobLog.info('job given up by this worker', { error });
        return true;
      }
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
          actualizado: sql`now()`,
        })
        .where(owned(run));
      jobLog.error(final ? 'job failed for good' : 'job failed; will retry', { error, retryInSeconds: final ? undefined : backoff });
    } finally {
      clearInterval(renewal);
      current = undefined;
    }
    return true;
  }

  /** Gives the running job back to the queue as if this attempt never started. */
  async function release(job: Running) {
    job.abandoned = true;
    await db
      .update(trabajos)
      .set({
        estado: 'pendiente',
        intentos: sql`${trabajos.intentos} - 1`,
        bloqueado_hasta: null,
        ejecutar_desde: sql`now()`,
        actualizado: sql`now()`,
      })
      .where(owned(job));
    job.controller.abort(new Error('released: the worker is stopping'));
    log.info('job released on stop', { jobId: job.id });
  }

  async function drain(): Promise<number> {
    let count = 0;
    while (!stopping && (await runOne())) count++;
    return count;
  }

  async function beat() {
    try {
      await db
        .insert(ejecutores)
        .values({ id, servicio, host: os.hostname(), pid: process.pid })
        .onConflictDoUpdate({ target: ejecutores.id, set: { latido: sql`now()` } });
    } catch (error) {
      log.warn('heartbeat failed', { error });
    }
  }

  function scheduleJobs(delay: number) {
    if (jobTimer) clearTimeout(jobTimer);
    jobTimer = setTimeout(() => {
      jobLoop = jobTick();
    }, delay);
  }

  function scheduleMail(delay: number) {
    if (mailTimer) clearTimeout(mailTimer);
    mailTimer = setTimeout(() => {
      mailLoop = mailTick();
    }, delay);
  }

  async function jobTick() {
    try {
      await drain();
      lastPollOk = true;
    } catch (error) {
      lastPollOk = false;
      log.error('job poll failed', { error });
    }
    if (running) scheduleJobs(pollMs);
  }

  async function mailTick() {
    try {
      await outbox?.sendDue(mailStop.signal);
    } catch (error) {
      log.error('mail poll failed', { error });
    }
    if (running) scheduleMail(pollMs);
  }

  return {
    id,
    register(tipo, handler) {
      handlers[tipo] = handler;
    },
    async enqueue(tipo, datos, options = {}) {
      const [row] = await db
        .insert(trabajos)
        .values({
          tipo,
          datos,
          max_intentos: options.maxIntentos ?? 5,
          ...(options.enSegundos ? { ejecutar_desde: sql`now() + make_interval(secs => ${options.enSegundos})` } : {}),
        })
        .returning({ id: trabajos.id });
      if (!row) throw new Error('job insert returned nothing');
      if (running) scheduleJobs(0);
      return row.id;
    },
    start() {
      if (running) return;
      running = true;
      mailStop = new AbortController();
      // Rows of runners killed long ago (a clean stop removes its own) are only noise.
      void db.delete(ejecutores).where(lt(ejecutores.latido, sql`now() - interval '1 day'`)).then(beat, beat);
      heartbeatTimer = setInterval(() => void beat(), heartbeatMs);
      jobLoop = jobTick();
      if (outbox) mailLoop = mailTick();
    },
    async stop({ graceMs = STOP_GRACE_MS } = {}) {
      const wasRunning = running;
      running = false;
      stopping = true;
      clearTimeout(jobTimer);
      clearTimeout(mailTimer);
      clearInterval(heartbeatTimer);
      mailStop.abort();
      const settled = Promise.all([jobLoop, mailLoop]);
      const finished = await within(settled, graceMs);
      if (!finished && current) {
        await release(current).catch((error: unknown) => log.error('job release failed', { error }));
        // The handler was told to stop; give it a moment to clean up before the database closes.
        await within(settled, Math.min(graceMs, 5000));
      }
      stopping = false;
      if (wasRunning)
        await db
          .delete(ejecutores)
          .where(eq(ejecutores.id, id))
          .catch(() => undefined);
    },
    healthy: () => running && lastPollOk,
    drain,
    drainMail: async () => (outbox ? outbox.sendDue() : 0),
    heartbeat: beat,
  };
}
