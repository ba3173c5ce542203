import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trabajos } from '../../src/lib/server/db/schema.server.ts';
import { createJobRunner } from '../../src/lib/server/jobs/runner.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const log = createLogger('silent');
const estado = async (id: number) => (await t.db.select().from(trabajos).where(eq(trabajos.id, id)))[0];

describe('durable jobs', () => {
  it('runs a queued job once and marks it done', async () => {
    const seen: unknown[] = [];
    const runner = createJobRunner({ db: t.db, log, handlers: { eco: async (datos) => void seen.push(datos) } });
    const id = await runner.enqueue('eco', { capsula: 7 });
    expect(await runner.drain()).toBe(1);
    expect(seen).toEqual([{ capsula: 7 }]);
    expect((await estado(id))?.estado).toBe('hecho');
    expect(await runner.drain()).toBe(0);
  });

  it('retries a failing job later with backoff, and gives up after max_intentos', async () => {
    let calls = 0;
    const runner = createJobRunner({
      db: t.db,
      log,
      handlers: {
        falla: async () => {
          calls++;
          throw new Error('ffmpeg exited with 1');
        },
      },
    });
    const id = await runner.enqueue('falla', {}, { maxIntentos: 2 });
    await runner.drain();
    let job = await estado(id);
    expect(job).toMatchObject({ estado: 'pendiente', intentos: 1, ultimo_error: 'ffmpeg exited with 1' });
    expect(job?.ejecutar_desde.getTime()).toBeGreaterThan(Date.now());
    expect(await runner.drain()).toBe(0); // not due yet
    await t.db.update(trabajos).set({ ejecutar_desde: sql`now()` }).where(eq(trabajos.id, id));
    await runner.drain();
    job = await estado(id);
    expect(job).toMatchObject({ estado: 'fallido', intentos: 2 });
    expect(calls).toBe(2);
  });

  it('takes over a job whose worker died (lease passed) after a restart', async () => {
    const runner = createJobRunner({ db: t.db, log, handlers: { eco: async () => {} } });
    const id = await runner.enqueue('eco', {});
    // A worker claimed it and died: the job is 'en_curso' with a lease in the past.
    await t.db
      .update(trabajos)
      .set({ estado: 'en_curso', intentos: 1, bloqueado_hasta: sql`now() - interval '1 second'` })
      .where(eq(trabajos.id, id));
    expect(await runner.drain()).toBe(1);
    expect(await estado(id)).toMatchObject({ estado: 'hecho', intentos: 2 });
  });

  it('a started runner picks up new work and reports healthy', async () => {
    const done: number[] = [];
    const runner = createJobRunner({ db: t.db, log, pollMs: 50, handlers: { eco: async (d) => void done.push((d as { n: number }).n) } });
    runner.start();
    await runner.enqueue('eco', { n: 1 });
    for (let i = 0; i < 50 && done.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(done).toEqual([1]);
    // Healthy once the poll that ran the job has finished (its last write may still be on its way
    // when the handler has run: CI on PostgreSQL under load saw it false right then).
    for (let i = 0; i < 50 && !runner.healthy(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(runner.healthy()).toBe(true);
    await runner.stop();
    expect(runner.healthy()).toBe(false);
  });

  it("renews a running job's lease; once the lease is lost another worker takes it and the first learns it through its signal", async () => {
    let aborted: unknown;
    const a = createJobRunner({
      db: t.db,
      log,
      leaseSeconds: 1,
      heartbeatMs: 100,
      handlers: {
        lento: (_datos, job) =>
          new Promise<void>((_resolve, reject) => {
            job.signal?.addEventListener('abort', () => {
              aborted = job.signal?.reason;
              reject(job.signal?.reason);
            });
          }),
      },
    });
    const b = createJobRunner({ db: t.db, log, handlers: { lento: async () => {} } });
    const id = await a.enqueue('lento', {});
    const running = a.drain();
    // Past the 1 s lease, A still holds the job: its heartbeat renewed the lease.
    await new Promise((r) => setTimeout(r, 1300));
    expect(await b.drain()).toBe(0);
    // A stalls (its lease runs out): B takes the job over and finishes it. A's heartbeat, every
    // 100 ms, may still renew the lease between this update and B's claim on a busy machine, as a
    // live worker should: the stall is repeated until B's claim comes first.
    let tomados = 0;
    for (let vez = 0; vez < 20 && tomados === 0; vez++) {
      await t.db.update(trabajos).set({ bloqueado_hasta: sql`now() - interval '1 second'` }).where(eq(trabajos.id, id));
      tomados = await b.drain();
    }
    expect(tomados).toBe(1);
    expect(await estado(id)).toMatchObject({ estado: 'hecho', intentos: 2 });
    await running;
    expect(String(aborted)).toContain('lease lost');
    // A recorded nothing over B's result.
    expect(await estado(id)).toMatchObject({ estado: 'hecho', intentos: 2, ultimo_error: null });
  });

  it('stop() lets a short job finish, and gives a long one back to the queue with its attempt not counted', async () => {
    let signal: AbortSignal | undefined;
    const runner = createJobRunner({
      db: t.db,
      log,
      pollMs: 20,
      handlers: {
        corto: () => new Promise((r) => setTimeout(r, 100)),
        largo: (_datos, job) =>
          new Promise<void>((_resolve, reject) => {
            signal = job.signal;
            job.signal?.addEventListener('abort', () => reject(job.signal?.reason));
          }),
      },
    });
    const corto = await runner.enqueue('corto', {});
    runner.start();
    await new Promise((r) => setTimeout(r, 30));
    await runner.stop({ graceMs: 2000 });
    expect(await estado(corto)).toMatchObject({ estado: 'hecho', intentos: 1 });

    const largo = await runner.enqueue('largo', {});
    runner.start();
    for (let i = 0; i < 100 && !signal; i++) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await runner.stop({ graceMs: 200 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(signal?.aborted).toBe(true);
    expect(await estado(largo)).toMatchObject({ estado: 'pendiente', intentos: 0, bloqueado_hasta: null });
    await t.db.delete(trabajos).where(eq(trabajos.id, largo));
  });
});
