/**
 * Locks on resumable uploads across web servers (issue 19; storage/bloqueo-subidas.server.ts):
 * two lockers over one database stand for two servers (on PostgreSQL, each with its own pool). A
 * lock waits for another server's, asks it to let go, survives while renewed, frees itself when
 * its holder stops renewing, and is never held twice.
 */
import { randomBytes } from 'node:crypto';
import { ERRORS, type Lock, type Locker } from '@tus/utils';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/lib/server/db/client.server.ts';
import { bloqueos } from '../../src/lib/server/db/schema.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { createBloqueoSubidas, type OpcionesBloqueoSubidas, SUBIDA_OCUPADA } from '../../src/lib/server/storage/bloqueo-subidas.server.ts';

/** One database, and a second handle on it where there can be one (PostgreSQL: another server's pool). */
let servidores: [Database, Database];
let borrar = async () => {};

beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({});
    await database.migrate();
    servidores = [database, database];
    borrar = () => database.close();
    return;
  }
  const nombre = `ed_test_bloqueos_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${nombre}`);
  await admin.end();
  const destino = new URL(url);
  destino.pathname = `/${nombre}`;
  const a = await openDatabase({ databaseUrl: destino.toString() });
  const b = await openDatabase({ databaseUrl: destino.toString() });
  await a.migrate();
  servidores = [a, b];
  borrar = async () => {
    await a.close();
    await b.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop database if exists ${nombre} with (force)`);
    await c.end();
  };
});
afterAll(() => borrar());

/** Locks still held when a test ends, released so the next test starts clean. */
const abiertos = new Set<Lock>();
afterEach(async () => {
  for (const lock of abiertos) await lock.unlock().catch(() => {});
  abiertos.clear();
  await servidores[0].db.delete(bloqueos);
});

const log = createLogger('silent');
/** Server 0 or 1's locker (fast renewals so the tests see them). */
const locker = (servidor: 0 | 1, opciones: Partial<OpcionesBloqueoSubidas> = {}): Locker =>
  createBloqueoSubidas(servidores[servidor].db, { log, leaseMs: 2_000, renovarMs: 100, esperaMs: 20_000, ...opciones });

/** A lock's request: `liberacion` resolves when the locker asks it to let go (tus's requestRelease). */
function pedido(l: Locker, clave: string) {
  const lock = l.newLock(clave);
  let avisar = () => {};
  const liberacion = new Promise<void>((resolve) => {
    avisar = resolve;
  });
  const controller = new AbortController();
  let tenido = false;
  const tomado = lock
    .lock(controller.signal, () => avisar())
    .then(() => {
      tenido = true;
      abiertos.add(lock);
    });
  return {
    lock,
    tomado,
    liberacion,
    controller,
    tenido: () => tenido,
    async soltar() {
      abiertos.delete(lock);
      await lock.unlock();
    },
  };
}

const fila = async (clave: string) => (await servidores[0].db.select().from(bloqueos).where(eq(bloqueos.clave, clave)))[0];
const clave = () => `subida-${randomBytes(4).toString('hex')}`;

describe('an upload lock across servers', () => {
  it('makes the second server wait, asks the holder to let go, and passes right after unlock', async () => {
    const id = clave();
    const a = pedido(locker(0), id);
    await a.tomado;
    const b = pedido(locker(1), id);
    // The holder hears the waiter's request at its next renewal: the waiter is waiting, not holding.
    await a.liberacion;
    expect(b.tenido()).toBe(false);
    const antes = Date.now();
    await a.soltar();
    await b.tomado;
    expect(Date.now() - antes).toBeLessThan(1_000);
    expect((await fila(id))?.liberar).toBe(false);
  });

  it('keeps a renewed lock past its lease, and frees the lock of a holder that stops renewing', async () => {
    const id = clave();
    // Lease 1 s, renewed every 100 ms: a waiter that gives up after 3 s, three leases, never got
    // it. (A 300 ms lease lost the lock once in CI, when the worker's loop stalled past it under
    // the full run's load; the lease has to outlast a stall, as a server's does.)
    const a = pedido(locker(0, { leaseMs: 1_000 }), id);
    await a.tomado;
    const b = pedido(locker(1, { esperaMs: 3_000 }), id);
    await expect(b.tomado).rejects.toBe(SUBIDA_OCUPADA);
    expect(a.tenido()).toBe(true);

    // A holder whose renewal comes too late (a dead or stalled server) loses it after its lease.
    const otra = clave();
    const muerto = pedido(locker(0, { leaseMs: 300, renovarMs: 60_000 }), otra);
    await muerto.tomado;
    const antes = Date.now();
    const vivo = pedido(locker(1), otra);
    await vivo.tomado;
    expect(Date.now() - antes).toBeGreaterThanOrEqual(250);
    expect(Date.now() - antes).toBeLessThan(2_000);
  });

  it('tells a stalled holder that took too long that its lock was lost', async () => {
    const id = clave();
    const lento = pedido(locker(0, { leaseMs: 300, renovarMs: 1_500 }), id);
    await lento.tomado;
    const nuevo = pedido(locker(1), id);
    await nuevo.tomado;
    // The stalled holder's next renewal finds the row taken and asks its request to stop.
    await lento.liberacion;
    // Its unlock, when the request ends, leaves the new holder's row alone.
    await lento.soltar();
    const dueno = (await fila(id))?.dueno;
    expect(dueno).toBeDefined();
    const tercero = pedido(locker(0, { esperaMs: 500 }), id);
    await expect(tercero.tomado).rejects.toBe(SUBIDA_OCUPADA);
    expect(nuevo.tenido()).toBe(true);
    expect((await fila(id))?.dueno).toBe(dueno);
  });

  it('rejects a wait that tus aborts, as MemoryLocker does, and leaves the holder alone', async () => {
    const id = clave();
    const a = pedido(locker(0), id);
    await a.tomado;
    const servidor1 = locker(1);
    const b = pedido(servidor1, id);
    await a.liberacion;
    b.controller.abort();
    await expect(b.tomado).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(a.tenido()).toBe(true);
    // The aborted request let go of its server's own lock too: the next one there gets in.
    await a.soltar();
    const c = pedido(servidor1, id);
    await c.tomado;
  });

  it('on one server, a new request makes the old one let go at once (MemoryLocker)', async () => {
    const id = clave();
    const servidor = locker(0, { renovarMs: 60_000 });
    const a = pedido(servidor, id);
    await a.tomado;
    const b = pedido(servidor, id);
    await a.liberacion;
    expect(b.tenido()).toBe(false);
    await a.soltar();
    await b.tomado;
  });

  it('is never held by two requests at once, on one server or several', async () => {
    const id = clave();
    const lockers = [locker(0), locker(1), locker(0), locker(1)];
    let dentro = 0;
    let maximo = 0;
    let vueltas = 0;
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const p = pedido(lockers[i % lockers.length] as Locker, id);
        await p.tomado;
        dentro += 1;
        maximo = Math.max(maximo, dentro);
        // Work that spans a few database round trips while others poll.
        for (let j = 0; j < 3; j++) await fila(id);
        dentro -= 1;
        vueltas += 1;
        await p.soltar();
      }),
    );
    expect(vueltas).toBe(20);
    expect(maximo).toBe(1);
    expect(await fila(id)).toBeUndefined();
  });
});
