/**
 * The single-use tokens of `tokens_cuenta` (activation and reset links, the second factor's
 * sign-in challenge and remembered devices): a random value handed out once and stored only as
 * its hash, live until it expires or is spent. Each service adds its own conditions (the account's
 * state, whose device) to `tokenVivo`.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import { hashToken, randomToken } from '../auth/tokens.server.ts';
import type { Db } from '../db/client.server.ts';
import { tokensCuenta } from '../db/schema.server.ts';

export type TipoToken = (typeof tokensCuenta.$inferSelect)['tipo'];

/** The conditions of a live token of the kind: its hash, never spent, not expired at `ahora`. */
export const tokenVivo = (token: string, tipo: TipoToken, ahora: Date) =>
  and(
    eq(tokensCuenta.token_hash, hashToken(token)),
    eq(tokensCuenta.tipo, tipo),
    isNull(tokensCuenta.usado),
    gt(tokensCuenta.expira, ahora),
  );

/** A new token of the kind for the account, living `segundos`: its value (given out once) and its end. */
export async function nuevoTokenCuenta(
  db: Pick<Db, 'insert'>,
  idUsuario: number,
  tipo: TipoToken,
  segundos: number,
  ahora: Date,
): Promise<{ token: string; expira: Date }> {
  const token = randomToken();
  const expira = new Date(ahora.getTime() + segundos * 1000);
  await db.insert(tokensCuenta).values({ id_usuario: idUsuario, tipo, token_hash: hashToken(token), expira });
  return { token, expira };
}

/** Spends the token (by row id) in one update: false when another request spent it first. */
export async function gastarToken(db: Pick<Db, 'update'>, id: number, ahora: Date): Promise<boolean> {
  const gastado = await db
    .update(tokensCuenta)
    .set({ usado: ahora })
    .where(and(eq(tokensCuenta.id, id), isNull(tokensCuenta.usado)))
    .returning({ id: tokensCuenta.id });
  return gastado.length === 1;
}
