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
    expect(runner.healthy()).toBe(true);
    await runner.stop();
    expect(runner.healthy()).toBe(false);
  });
});
