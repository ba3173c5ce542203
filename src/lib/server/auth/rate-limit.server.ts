/**
 * Attempt counters kept in the database, so limits hold across restarts and across several
 * server processes on PostgreSQL. Two kinds share one table (one row per key):
 * - fixed windows (`Limit`): at most `max` attempts per window, then a refusal until it ends;
 * - growing delays (`Backoff`): failures counted until `windowSeconds` pass without one; past
 *   `free` failures each attempt waits 2, 4, 8... seconds after the last failure, up to a cap.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { limitesIntentos } from '../db/schema.server.ts';

export interface Limit {
  max: number;
  windowSeconds: number;
}

export interface Backoff {
  free: number;
  maxSeconds: number;
  windowSeconds: number;
}

export interface Counter {
  /** Start of the window (fixed windows) or time of the last failure (growing delays, marks). */
  ventana_inicio: Date;
  intentos: number;
}

const remaining = (until: number, now: Date) => Math.max(0, Math.ceil((until - now.getTime()) / 1000));

/** Seconds until a fixed-window key may try again, or 0 when it is under its limit. */
export function fixedWait(row: Counter | undefined, limit: Limit, now: Date): number {
  if (!row || row.intentos < limit.max) return 0;
  return remaining(row.ventana_inicio.getTime() + limit.windowSeconds * 1000, now);
}

/** Seconds a growing-delay key must still wait after its last failure, or 0. */
export function backoffWait(row: Counter | undefined, backoff: Backoff, now: Date): number {
  if (!row || row.intentos < backoff.free) return 0;
  const last = row.ventana_inicio.getTime();
  if (last + backoff.windowSeconds * 1000 <= now.getTime()) return 0;
  const delay = Math.min(backoff.maxSeconds, 2 ** (row.intentos - backoff.free + 1));
  return remaining(last + delay * 1000, now);
}

export function createAttemptStore(db: Db, now: () => Date) {
  /** Adds one attempt; the count restarts when the row's time is older than `windowSeconds`. */
  async function count(key: string, windowSeconds: number, moveStart: 'on-restart' | 'always') {
    const at = now();
    const stale = sql`${limitesIntentos.ventana_inicio} < ${new Date(at.getTime() - windowSeconds * 1000).toISOString()}`;
    await db
      .insert(limitesIntentos)
      .values({ clave: key, ventana_inicio: at, intentos: 1 })
      .onConflictDoUpdate({
        target: limitesIntentos.clave,
        set: {
          intentos: sql`case when ${stale} then 1 else ${limitesIntentos.intentos} + 1 end`,
          ventana_inicio:
            moveStart === 'always'
              ? at
              : sql`case when ${stale} then ${at.toISOString()}::timestamptz else ${limitesIntentos.ventana_inicio} end`,
        },
      });
  }

  return {
    /** The counters of several keys in one query. */
    async read(keys: string[]): Promise<Map<string, Counter>> {
      const rows = await db.select().from(limitesIntentos).where(inArray(limitesIntentos.clave, keys));
      return new Map(rows.map((r) => [r.clave, r]));
    },
    /** Counts one attempt in the key's fixed window. */
    hit: (key: string, limit: Limit) => count(key, limit.windowSeconds, 'on-restart'),
    /** Counts one failure of a growing-delay key, now. */
    fail: (key: string, backoff: Backoff) => count(key, backoff.windowSeconds, 'always'),
    /** Records that something happened now (e.g. a successful sign-in), with a count of 1. */
    async mark(key: string) {
      const at = now();
      await db
        .insert(limitesIntentos)
        .values({ clave: key, ventana_inicio: at, intentos: 1 })
        .onConflictDoUpdate({ target: limitesIntentos.clave, set: { ventana_inicio: at, intentos: 1 } });
    },
    async reset(key: string) {
      await db.delete(limitesIntentos).where(eq(limitesIntentos.clave, key));
    },
  };
}

export interface RateLimiter {
  /** Seconds until the key may try again, or 0 when it is under its limit. */
  blockedFor(key: string, limit: Limit): Promise<number>;
  /** Counts one attempt against the key. */
  hit(key: string, limit: Limit): Promise<void>;
  reset(key: string): Promise<void>;
}

/** Fixed windows, one key at a time. */
export function createRateLimiter(db: Db, now: () => Date): RateLimiter {
  const store = createAttemptStore(db, now);
  return {
    blockedFor: async (key, limit) => fixedWait((await store.read([key])).get(key), limit, now()),
    hit: store.hit,
    reset: store.reset,
  };
}
