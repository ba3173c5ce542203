/**
 * Health in two answers (issue 28): GET /healthz is readiness (this process and its database), and
 * GET /healthz/detalle tells the truth for alerting: the runner's heartbeat, how long mail and jobs
 * have waited, the media tools, the storage and the disk.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correos, ejecutores } from '../../src/lib/server/db/schema.server.ts';
import { createJobRunner } from '../../src/lib/server/jobs/runner.server.ts';
import { createHealth } from '../../src/lib/server/jobs/salud.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { encolarCorreo } from '../../src/lib/server/mail/outbox.server.ts';
import { crearVerificador, resolverHerramientas } from '../../src/lib/server/media/herramientas.server.ts';
import { ADMIN_KEY, createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
let admin: string;
let docente: string;
beforeAll(async () => {
  t = await createTestApi();
  admin = (await t.session({ admin: true })).token;
  docente = (await t.session()).token;
});
afterAll(() => t.close());

const log = createLogger('silent');
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
};
const detalle = () => t.call('GET', '/healthz/detalle', { token: admin });
/** The health of the test's database with any runner's heartbeat (JOBS_IN_SERVER=false), and `ping` as the database's answer. */
const salud = (ping: () => Promise<boolean>) =>
  createHealth({ db: t.db, ping, herramientas: crearVerificador(resolverHerramientas()), storage: t.storage, dataDir: t.storage.tempDir });

describe('GET /healthz and GET /healthz/detalle', () => {
  it('answers 200 with the heartbeat, the waits, the tools, the storage and the disk', async () => {
    const listo = await t.call('GET', '/healthz');
    expect(listo.status).toBe(200);
    expect(await listo.json()).toEqual({ status: 'ok', db: true, razones: [] });

    // The heartbeat's age, rounded to seconds, is at most the time since it was written: 0 on a quiet
    // machine, more when the test process is starved (the CI's two lanes).
    const latido = Date.now();
    await t.jobs.heartbeat();
    const res = await detalle();
    expect(res.status).toBe(200);
    const cuerpo = await res.json();
    expect(cuerpo.latido_segundos).toBeGreaterThanOrEqual(0);
    expect(cuerpo.latido_segundos).toBeLessThanOrEqual(Math.round((Date.now() - latido) / 1000));
    expect(cuerpo).toMatchObject({
      status: 'ok',
      db: true,
      jobs: true,
      correo_pendiente_segundos: null,
      trabajo_pendiente_segundos: null,
      almacenamiento: { tipo: t.storage.tipo, disponible: true, error: null },
      razones: [],
    });
    expect(cuerpo.herramientas.map((h: { nombre: string; disponible: boolean }) => [h.nombre, h.disponible])).toEqual([
      ['ffmpeg', true],
      ['ffprobe', true],
      ['pdf', true],
    ]);
    expect(cuerpo.disco.libre_bytes).toBeGreaterThan(0);
    expect(cuerpo.disco.total_bytes).toBeGreaterThanOrEqual(cuerpo.disco.libre_bytes);
  });

  it('opens the detail to admins, the admin key and the machine itself, and to nobody else', async () => {
    expect((await t.call('GET', '/healthz/detalle')).status).toBe(401);
    expect((await t.call('GET', '/healthz/detalle', { token: docente })).status).toBe(403);
    expect((await t.call('GET', '/healthz/detalle', { headers: { 'x-admin-key': 'otra' } })).status).toBe(403);
    expect((await t.call('GET', '/healthz/detalle', { headers: { 'x-admin-key': ADMIN_KEY } })).status).toBe(200);
    expect((await t.call('GET', '/healthz/detalle', { headers: { cookie: `ed_access=${admin}` } })).status).toBe(200);
    expect((await t.call('GET', '/healthz/detalle', { clientAddress: '127.0.0.1' })).status).toBe(200);
    expect((await t.call('GET', '/healthz/detalle', { clientAddress: '::1' })).status).toBe(200);
    // A proxy on the same machine forwards the world: its requests are not the machine's own.
    expect(
      (await t.call('GET', '/healthz/detalle', { clientAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.4' } })).status,
    ).toBe(401);
    expect(
      (await t.call('GET', '/healthz/detalle', { clientAddress: '127.0.0.1', headers: { forwarded: 'for=198.51.100.4' } })).status,
    ).toBe(401);
  });

  it('answers 503 with the reason while a mail has waited more than 15 minutes, and stays ready', async () => {
    t.mailer.send = () => Promise.reject(new Error('down'));
    const id = await encolarCorreo(t.db, { to: 'lenta@example.cl', subject: 'Hola', text: 'Hola', html: '<p>Hola</p>' });
    await t.db.update(correos).set({ fecha_creacion: sql`now() - interval '16 minutes'` }).where(eq(correos.id, id));
    const res = await detalle();
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'degraded',
      db: true,
      jobs: true,
      correo_pendiente_segundos: expect.any(Number),
      razones: ['Un correo espera ser enviado hace 16 minutos (máximo 15).'],
    });
    // A mail server down never takes the web server out of service.
    expect((await t.call('GET', '/healthz')).status).toBe(200);
    await t.db.update(correos).set({ estado: 'enviado' }).where(eq(correos.id, id));
    expect((await detalle()).status).toBe(200);
  });

  it("with JOBS_IN_SERVER=false, the detail turns 503 when the worker's heartbeat stops and 200 when it is back; readiness never moves", async () => {
    await t.db.delete(ejecutores);
    const health = salud(async () => true);
    expect(await health.listo()).toEqual({ status: 'ok', db: true, razones: [] });
    expect(await health.detalle()).toMatchObject({
      status: 'degraded',
      jobs: false,
      razones: ['Ningún ejecutor de trabajos está funcionando.'],
    });

    const worker = createJobRunner({ db: t.db, log, servicio: 'worker', heartbeatMs: 50, pollMs: 50 });
    worker.start();
    await until(async () => (await health.detalle()).status === 'ok');
    expect(await health.detalle()).toMatchObject({ status: 'ok', jobs: true, latido_segundos: 0 });

    // A worker killed without stopping: its row stays, and stops being renewed.
    await worker.stop();
    await worker.heartbeat();
    await t.db.update(ejecutores).set({ latido: sql`now() - interval '61 seconds'` });
    expect(await health.detalle()).toMatchObject({
      status: 'degraded',
      jobs: false,
      latido_segundos: 61,
      razones: ['El ejecutor de trabajos no da señales hace 61 s (máximo 60 s).'],
    });
    expect((await health.listo()).status).toBe('ok');

    worker.start();
    await until(async () => (await health.detalle()).status === 'ok');
    expect((await health.detalle()).status).toBe('ok');
    await worker.stop();
    // A worker that stopped cleanly removed its row.
    expect(await t.db.select().from(ejecutores).where(eq(ejecutores.id, worker.id))).toEqual([]);
  });

  it('is not ready while the database does not answer, and says so in both answers', async () => {
    const health = salud(async () => false);
    expect(await health.listo()).toEqual({ status: 'degraded', db: false, razones: ['La base de datos no responde.'] });
    expect(await health.detalle()).toMatchObject({ status: 'degraded', db: false, razones: ['La base de datos no responde.'] });
  });
});
