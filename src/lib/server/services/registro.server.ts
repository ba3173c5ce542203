/**
 * The audit log of admin actions (issue 16, /admin/registro): who, when, what, which record.
 * Written in the same transaction as the action it records, so the log never claims a change
 * that rolled back, nor misses one that happened.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { CLAVE_LOCAL, QUIEN_CLAVE_LOCAL } from '../../palabras-admin.ts';
import type { FiltrosRegistro } from '../../validation/admin.ts';
import { numPaginas } from '../../validation/listas.ts';
import type { Db } from '../db/client.server.ts';
import { registroAdmin, usuarios } from '../db/schema.server.ts';
import { contienePalabras } from '../db/search.server.ts';

/** Who acts: an admin's account id, or null for the local admin key (`npm run usuarios`). */
export interface ActorAdmin {
  id: number | null;
}

/** The name the log stores for actions taken with the local admin key; the console shows it in words (palabras-admin.ts). */
export { CLAVE_LOCAL };

export interface AccionAdmin {
  /**
   * What was done, in a stable lower-case name: 'invitar', 'desactivar', 'reintentar_trabajo', the
   * curriculum's 'crear_unidad', 'renombrar_unidad', 'ordenar_unidad', 'retirar_unidad',
   * 'restaurar_unidad', 'eliminar_unidad', 'mover_oa', 'ordenar_oa', 'editar_oa', 'retirar_oa',
   * 'restaurar_oa', 'importar_curriculo'… (the console's Spanish labels: lib/palabras-admin.ts)
   */
  accion: string;
  /** The kind of record: 'usuario', 'trabajo', 'correo', 'unidad', 'oa', 'curriculo'… */
  tipo: string;
  id_registro: number | null;
  /** The action in Spanish words, for people reading the log. */
  detalle: string;
}

/** `db` may be a transaction: pass the one that makes the change. */
export async function registrarAccion(db: Pick<Db, 'select' | 'insert'>, actor: ActorAdmin, accion: AccionAdmin): Promise<void> {
  let adminEmail = CLAVE_LOCAL;
  if (actor.id !== null) {
    const [fila] = await db.select({ email: usuarios.email }).from(usuarios).where(eq(usuarios.id, actor.id));
    adminEmail = fila?.email ?? `usuario ${actor.id}`;
  }
  await db.insert(registroAdmin).values({ id_admin: actor.id, admin_email: adminEmail, ...accion });
}

/** The log as /admin/registro reads it: newest first, searchable by who, what and the details. */
export function createRegistroService(db: Db) {
  return {
    async listar(filtros: Partial<FiltrosRegistro> = {}): Promise<Esquema<'RegistroAdmin'>> {
      const pagina = filtros.pagina ?? 1;
      const tamano = filtros.tamano_pagina ?? 25;
      // Who as the console shows it: a search for the local key's words finds its rows.
      const quien = sql`case when ${registroAdmin.admin_email} = ${CLAVE_LOCAL} then ${QUIEN_CLAVE_LOCAL} else ${registroAdmin.admin_email} end`;
      const where = contienePalabras([quien, registroAdmin.accion, registroAdmin.detalle], filtros.q);
      const [total] = await db.select({ n: count() }).from(registroAdmin).where(where);
      const filas = await db
        .select()
        .from(registroAdmin)
        .where(where)
        .orderBy(desc(registroAdmin.fecha), desc(registroAdmin.id))
        .limit(tamano)
        .offset((pagina - 1) * tamano);
      const num_results = total?.n ?? 0;
      return {
        registros: filas.map((f) => ({ ...f, fecha: f.fecha.toISOString() })),
        num_pages: numPaginas(num_results, tamano),
        num_results,
      };
    },
  };
}

export type RegistroService = ReturnType<typeof createRegistroService>;
