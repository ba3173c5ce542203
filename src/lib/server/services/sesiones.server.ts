/**
 * Sessions: a session is a refresh-token family. An access token names its family (`sid`), and
 * it is honoured only while that family has an unrevoked, unexpired token and its user exists and
 * is active (decision 0023). The state lives in the database, so every process sees a sign-out;
 * answers are cached here for `CACHE_SECONDS`, and revoking through this service drops them at once.
 */
import { and, desc, eq, exists, gt, isNull, max, min, ne, type SQL, sql } from 'drizzle-orm';
import type { AccessClaims } from '../auth/tokens.server.ts';
import type { Db } from '../db/client.server.ts';
import { tokensRefresh, usuarios } from '../db/schema.server.ts';
import type { ServiceContext } from './context.server.ts';

/** How long another process may still honour a session this process saw alive. */
export const CACHE_SECONDS = 2;
const CACHE_MAX = 5_000;

/**
 * A person's sessions, one row a refresh-token family: when it started, when it was last renewed,
 * when it expires, when it was closed (null while open) and the address and browser that started
 * it. 'Mis sesiones' keeps the open ones (`abiertas`); Mis datos lists them all (issue 31).
 */
export const sesionesDe = (db: Pick<Db, 'select'>, idUsuario: number) =>
  db
    .select({
      familia: tokensRefresh.familia,
      iniciada: min(tokensRefresh.fecha_creacion),
      ultimo_uso: max(tokensRefresh.fecha_creacion),
      expira: max(tokensRefresh.expira),
      cerrada: max(tokensRefresh.revocado),
      ip: max(tokensRefresh.ip),
      agente: max(tokensRefresh.agente),
    })
    .from(tokensRefresh)
    .where(eq(tokensRefresh.id_usuario, idUsuario))
    .groupBy(tokensRefresh.familia)
    .$dynamic();

export function createSesionesService(ctx: Pick<ServiceContext, 'db' | 'now'>) {
  const { db, now } = ctx;
  /** `sub:sid` → the answer and when it goes stale (ms, service clock). Insertion order is age. */
  const cache = new Map<string, { hasta: number; claims: AccessClaims | null }>();

  function olvidar(match: (sub: number, sid: string) => boolean) {
    for (const key of cache.keys()) {
      const i = key.indexOf(':');
      if (match(Number(key.slice(0, i)), key.slice(i + 1))) cache.delete(key);
    }
  }

  const revocar = (condicion: SQL, en: Pick<Db, 'update'> = db) =>
    en
      .update(tokensRefresh)
      .set({ revocado: now() })
      .where(and(condicion, isNull(tokensRefresh.revocado)));

  /**
   * The user's groups while they are active and the session's family holds (not revoked, not
   * expired): prepared once, as every request whose session is not cached asks it (issue 36).
   */
  const sesionVigente = db
    .select({ groups: usuarios.groups })
    .from(usuarios)
    .where(
      and(
        eq(usuarios.id, sql.placeholder('sub')),
        eq(usuarios.activo, true),
        exists(
          db
            .select({ id: tokensRefresh.id })
            .from(tokensRefresh)
            .where(
              and(
                eq(tokensRefresh.familia, sql.placeholder('sid')),
                eq(tokensRefresh.id_usuario, usuarios.id),
                isNull(tokensRefresh.revocado),
                gt(tokensRefresh.expira, sql.placeholder('ahora')),
              ),
            ),
        ),
      ),
    )
    .prepare('sesion_vigente');

  return {
    /** The claims with the user's current groups while the session holds, else null: one query, cached. */
    async vigente(claims: AccessClaims): Promise<AccessClaims | null> {
      const key = `${claims.sub}:${claims.sid}`;
      const t = now().getTime();
      const cached = cache.get(key);
      if (cached && cached.hasta > t) return cached.claims;
      const [row] = await sesionVigente.execute({ sub: claims.sub, sid: claims.sid, ahora: now() });
      const answer = row ? { ...claims, groups: row.groups } : null;
      cache.delete(key);
      if (cache.size >= CACHE_MAX) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      cache.set(key, { hasta: t + CACHE_SECONDS * 1000, claims: answer });
      return answer;
    },

    /** Ends one session (sign-out, replayed refresh token). */
    async revocarFamilia(familia: string): Promise<void> {
      await revocar(eq(tokensRefresh.familia, familia));
      olvidar((_, sid) => sid === familia);
    },

    /**
     * Ends every session of a user (password changed, account deactivated). Inside `tx` when
     * given, so it commits with the change that caused it; the caller then calls `olvidarUsuario`
     * after the commit, as an answer cached meanwhile may still show the sessions alive.
     */
    async revocarUsuario(idUsuario: number, tx?: Pick<Db, 'update'>): Promise<void> {
      await revocar(eq(tokensRefresh.id_usuario, idUsuario), tx);
      olvidar((sub) => sub === idUsuario);
    },

    /**
     * A person's open sessions (issue 32's 'Mis sesiones'), the last used first: when each started,
     * when it was last renewed (an access token lasts 15 minutes, so within that of its last use),
     * and the address and browser that started it (the address is blanked after the retention
     * period, issue 31).
     */
    async abiertas(idUsuario: number): Promise<SesionAbierta[]> {
      const filas = await sesionesDe(db, idUsuario)
        .having(sql`bool_or(${tokensRefresh.revocado} is null and ${tokensRefresh.expira} > ${now()})`)
        .orderBy(desc(max(tokensRefresh.fecha_creacion)));
      return filas.map(({ familia, iniciada, ultimo_uso, ip, agente }) => ({
        familia,
        iniciada: iniciada ?? now(),
        ultimo_uso: ultimo_uso ?? now(),
        ip,
        agente,
      }));
    },

    /**
     * Ends one of a person's sessions, or all but `menos` (on every server at once: each request
     * checks its session here). Answers how many were open.
     */
    async cerrar(idUsuario: number, cual: { familia: string } | { menos: string }): Promise<number> {
      const familia = 'familia' in cual ? eq(tokensRefresh.familia, cual.familia) : ne(tokensRefresh.familia, cual.menos);
      const cerradas = await revocar(
        and(eq(tokensRefresh.id_usuario, idUsuario), familia, gt(tokensRefresh.expira, now())) as SQL,
      ).returning({
        familia: tokensRefresh.familia,
      });
      const familias = new Set(cerradas.map((c) => c.familia));
      olvidar((sub, sid) => sub === idUsuario && familias.has(sid));
      return familias.size;
    },

    /** Drops this process's cached answers for a user's sessions. */
    olvidarUsuario(idUsuario: number): void {
      olvidar((sub) => sub === idUsuario);
    },
  };
}

export type SesionesService = ReturnType<typeof createSesionesService>;

export interface SesionAbierta {
  familia: string;
  iniciada: Date;
  ultimo_uso: Date;
  ip: string | null;
  agente: string | null;
}
