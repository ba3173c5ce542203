/**
 * The tus `Locker` for resumable uploads with several web servers (issue 19): @tus/server's
 * default `MemoryLocker` serializes the requests for one upload only inside one process, so a
 * client that retries on server B while server A still holds its old PATCH open could interleave
 * parts. Here a lock is also a row of `bloqueos` in the shared database (PGlite or PostgreSQL, the
 * same statements), taken by one atomic insert that takes over only an expired row.
 *
 * - In one process the `MemoryLocker` comes first, so a new request still makes the old one let
 *   go at once (its `requestRelease`), as before.
 * - Across processes the waiter retries with a short backoff and marks the row `liberar`; the
 *   holder sees that at its next renewal and lets go the same way. A dead server stops renewing
 *   and its lease (database clock, no clock skew between servers) frees the lock.
 * - A waiter gives up when tus aborts the request (ERR_LOCK_TIMEOUT, as `MemoryLocker`) or after
 *   `esperaMs` (423, which clients retry).
 */
import { randomUUID } from 'node:crypto';
import { MemoryLocker } from '@tus/server';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { bloqueos } from '../db/schema.server.ts';
import type { Logger } from '../log.server.ts';

export interface OpcionesBloqueoSubidas {
  log: Logger;
  /** How long a lock lasts unless renewed: the longest a dead server's lock can block an upload. */
  leaseMs?: number;
  /** How often a holder renews its lease and looks for a request that it let go. */
  renovarMs?: number;
  /** How long a request waits for a lock before answering 423. */
  esperaMs?: number;
}

/** What tus answers when another server's request kept the upload past the wait (clients retry 423). */
export const SUBIDA_OCUPADA = { status_code: 423, body: 'Upload is locked by another request\n' };

const PAUSA_MIN_MS = 10;
const PAUSA_MAX_MS = 250;

/** Resolves after `ms`, or at once when `signal` aborts. */
function pausar(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const fin = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', fin);
      resolve();
    };
    const timer = setTimeout(fin, ms);
    signal.addEventListener('abort', fin, { once: true });
  });
}

export function createBloqueoSubidas(db: Db, opciones: OpcionesBloqueoSubidas): Locker {
  const { log, leaseMs = 30_000, renovarMs = 10_000, esperaMs = 40_000 } = opciones;
  const memoria = new MemoryLocker({ acquireLockTimeout: esperaMs });
  /** The end of a lease taken now, on the database's clock. */
  const vence = () => sql`now() + make_interval(secs => ${leaseMs / 1000}::double precision)`;

  /** Takes the row of `clave` for `dueno` if it is free or expired; true when taken. */
  async function tomar(clave: string, dueno: string): Promise<boolean> {
    const filas = await db
      .insert(bloqueos)
      .values({ clave, dueno, hasta: vence() })
      .onConflictDoUpdate({
        target: bloqueos.clave,
        set: { dueno, hasta: vence(), liberar: false },
        setWhere: lt(bloqueos.hasta, sql`now()`),
      })
      .returning({ dueno: bloqueos.dueno });
    return filas.length > 0;
  }

  /** Waits for the row of `clave`, asking its holder to let go, until taken, aborted or too late. */
  async function esperar(clave: string, dueno: string, signal: AbortSignal, limite: number): Promise<void> {
    for (let pausa = PAUSA_MIN_MS; ; pausa = Math.min(pausa * 2, PAUSA_MAX_MS)) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (await tomar(clave, dueno)) return;
      await db
        .update(bloqueos)
        .set({ liberar: true })
        .where(and(eq(bloqueos.clave, clave), ne(bloqueos.dueno, dueno), eq(bloqueos.liberar, false)));
      if (Date.now() >= limite) throw SUBIDA_OCUPADA;
      await pausar(pausa, signal);
    }
  }

  /** Renews the lease of a held row until `parar`; calls `requestRelease` when asked to let go or when the row was lost. */
  function renovar(clave: string, dueno: string, requestRelease: RequestRelease): () => void {
    let activo = true;
    let pedida = false;
    let timer: NodeJS.Timeout | undefined;
    const soltar = () => {
      Promise.resolve()
        .then(requestRelease)
        .catch((error: unknown) => log.error('upload lock release request failed', { upload: clave, error }));
    };
    const ciclo = async () => {
      try {
        const [fila] = await db
          .update(bloqueos)
          .set({ hasta: vence() })
          .where(and(eq(bloqueos.clave, clave), eq(bloqueos.dueno, dueno)))
          .returning({ liberar: bloqueos.liberar });
        if (!activo) return;
        if (!fila) {
          // Our lease ran out (a stalled process or database) and another request took the upload.
          log.warn('upload lock lost to another request', { upload: clave });
          activo = false;
          soltar();
          return;
        }
        // Asked once; the lease is still renewed while the request drains, until it unlocks.
        if (fila.liberar && !pedida) {
          pedida = true;
          soltar();
        }
      } catch (error) {
        log.error('upload lock renewal failed', { upload: clave, error });
      }
      if (activo) programar();
    };
    const programar = () => {
      timer = setTimeout(ciclo, renovarMs);
      timer.unref();
    };
    programar();
    return () => {
      activo = false;
      clearTimeout(timer);
    };
  }

  function newLock(clave: string): Lock {
    let tenida: { dueno: string; local: Lock; parar: () => void } | undefined;
    return {
      async lock(signal, requestRelease) {
        const limite = Date.now() + esperaMs;
        const local = memoria.newLock(clave);
        await local.lock(signal, requestRelease);
        const dueno = randomUUID();
        try {
          await esperar(clave, dueno, signal, limite);
        } catch (error) {
          await local.unlock();
          throw error;
        }
        tenida = { dueno, local, parar: renovar(clave, dueno, requestRelease) };
      },
      async unlock() {
        if (!tenida) throw new Error('Releasing an unlocked lock!');
        const { dueno, local, parar } = tenida;
        tenida = undefined;
        parar();
        try {
          await db.delete(bloqueos).where(and(eq(bloqueos.clave, clave), eq(bloqueos.dueno, dueno)));
        } catch (error) {
          // The upload's request is over; its lease frees the row for the next one.
          log.error('upload lock not released, its lease will expire', { upload: clave, error });
        } finally {
          await local.unlock();
        }
      },
    };
  }

  return { newLock };
}
