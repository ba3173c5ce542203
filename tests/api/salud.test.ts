/** GET /healthz tells the truth: the runner's heartbeat and how long mail and jobs have waited. */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correos, ejecutores } from '../../src/lib/server/db/schema.server.ts';
import { createJobRunner } from '../../src/lib/server/jobs/runner.server.ts';
import { createHealth } from '../../src/lib/server/jobs/salud.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { encolarCorreo } from '../../src/lib/server/mail/outbox.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const log = createLogger('silent');
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
};

describe('GET /healthz', () => {
  it('answers 200 with the heartbeat and the waits', async () => {
    const res = await t.call('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      db: true,
      jobs: true,
      latido_segundos: 0,
      correo_pendiente_segundos: null,
      trabajo_pendiente_segundos: null,
      razones: [],
    });
  });

  it('answers 503 with the reason while a mail has waited more than 15 minutes', async () => {
    t.mailer.send = () => Promise.reject(new Error('down'));
    const id = await encolarCorreo(t.db, { to: 'lenta@example.cl', subject: 'Hola', text: 'Hola', html: '<p>Hola</p>' });
    await t.db.update(correos).set({ fecha_creacion: sql`now() - interval '16 minutes'` }).where(eq(correos.id, id));
    const res = await t.call('GET', '/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'degraded',
      db: true,
      jobs: true,
      correo_pendiente_segundos: expect.any(Number),
      razones: ['Un correo espera ser enviado hace 16 minutos (máximo 15).'],
    });
    await t.db.update(correos).set({ estado: 'enviado' }).where(eq(correos.id, id));
    expect((await t.call('GET', '/healthz')).status).toBe(200);
  });

  it("with JOBS_IN_SERVER=false, turns 503 when the worker's heartbeat stops and 200 when it is back", async () => {
    await t.db.delete(ejecutores);
    const health = createHealth({ db: t.db, ping: async () => true });
    expect(await health()).toMatchObject({ status: 'degraded', jobs: false, razones: ['Ningún ejecutor de trabajos está funcionando.'] });

    const worker = createJobRunner({ db: t.db, log, servicio: 'worker', heartbeatMs: 50, pollMs: 50 });
    worker.start();
    await until(async () => (await health()).status === 'ok');
    expect(await health()).toMatchObject({ status: 'ok', jobs: true, latido_segundos: 0 });

    // A worker killed without stopping: its row stays, and stops being renewed.
    await worker.stop();
    await worker.heartbeat();
    await t.db.update(ejecutores).set({ latido: sql`now() - interval '61 seconds'` });
    expect(await health()).toMatchObject({
      status: 'degraded',
      jobs: false,
      latido_segundos: 61,
      razones: ['El ejecutor de trabajos no da señales hace 61 s (máximo 60 s).'],
    });

    worker.start();
    await until(async () => (await health()).status === 'ok');
    expect((await health()).status).toBe('ok');
    await worker.stop();
    // A worker that stopped cleanly removed its row.
    expect(await t.db.select().from(ejecutores).where(eq(ejecutores.id, worker.id))).toEqual([]);
  });
});
