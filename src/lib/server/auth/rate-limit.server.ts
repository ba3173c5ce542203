/**
 * Fixed-window attempt counters kept in the database, so limits hold across restarts and across
 * several server processes on PostgreSQL.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { limitesIntentos } from '../db/schema.server.ts';

export interface Limit {
  max: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Seconds until the key may try again, or 0 when it is under its limit. */
  blockedFor(key: string, limit: Limit): Promise<number>;
  /** Counts one attempt against the key. */
  hit(key: string, limit: Limit): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createRateLimiter(db: Db, now: () => Date): RateLimiter {
  return {
    async blockedFor(key, limit) {
      const [row] = await db.select().from(limitesIntentos).where(eq(limitesIntentos.clave, key));
      if (!row) return 0;
      const endsAt = row.ventana_inicio.getTime() + limit.windowSeconds * 1000;
      const remaining = Math.ceil((endsAt - now().getTime()) / 1000);
      return remaining > 0 && row.intentos >= limit.max ? remaining : 0;
    },
    async hit(key, limit) {
      const at = now();
      const windowStart = new Date(at.getTime() - limit.windowSeconds * 1000);
      await db
        .insert(limitesIntentos)
        .values({ clave: key, ventana_inicio: at, intentos: 1 })
        .onConflictDoUpdate({
          target: limitesIntentos.clave,
          set: {
            intentos: sql`case when ${limitesIntentos.ventana_inicio} < ${windowStart.toISOString()} then 1 else ${limitesIntentos.intentos} + 1 end`,
            ventana_inicio: sql`case when ${limitesIntentos.ventana_inicio} < ${windowStart.toISOString()} then ${at.toISOString()}::timestamptz else ${limitesIntentos.ventana_inicio} end`,
          },
        });
    },
    async reset(key) {
      await db.delete(limitesIntentos).where(eq(limitesIntentos.clave, key));
    },
  };
}
