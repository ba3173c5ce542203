/**
 * The network's settings an admin sets in the console (rows of `ajustes`, one a key): read one,
 * and save one together with its line in the audit log, in one transaction. Each service
 * validates its own value (privacy's responsible party, the sign-in's automatic domains, the
 * default licence).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { ajustes } from '../db/schema.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

/** The stored value of a setting, unchecked (undefined until an admin sets it). */
export async function leerAjuste(db: Pick<Db, 'select'>, clave: string): Promise<unknown> {
  const [fila] = await db.select({ valor: ajustes.valor }).from(ajustes).where(eq(ajustes.clave, clave));
  return fila?.valor;
}

/** Saves a setting (validated by the caller) and its audit log line (`accion`, in Spanish `detalle`). */
export async function guardarAjuste(
  db: Db,
  actor: ActorAdmin,
  ajuste: { clave: string; valor: unknown; en: Date },
  registro: { accion: string; detalle: string },
): Promise<void> {
  const { clave, valor, en } = ajuste;
  await db.transaction(async (tx) => {
    await tx
      .insert(ajustes)
      .values({ clave, valor, actualizado: en })
      .onConflictDoUpdate({ target: ajustes.clave, set: { valor, actualizado: en } });
    await registrarAccion(tx, actor, { ...registro, tipo: 'ajuste', id_registro: null });
  });
}
