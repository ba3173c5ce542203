/**
 * Which tables this process has written, for the read caches (cache.server.ts): the database
 * client reports every statement it ran, and a write to a table (at its commit, inside a
 * transaction) moves that table's version on. A cached answer is stamped with the versions of the
 * tables it was read from when the read began, and is used only while none of them moved, so
 * a change made here is seen by the very next read. Changes made by another process (several
 * servers on one PostgreSQL) are not seen here: caches bound their age for that (`compartida`).
 */
import type { Db } from './client.server.ts';

/** A write whose table we can name: `insert into "t"`, `update "t"`, `delete from "t"` (Drizzle's SQL). */
const escritura = /^\s*(?:insert\s+into|update|delete\s+from)\s+"([^"]+)"/i;
/** Statements that change nothing by themselves (a transaction's frame, plain reads). */
const neutra = /^\s*(?:select|savepoint|release|rollback\s+to|show|set\s|explain\s)/i;
const inicio = /^\s*(?:begin|start\s+transaction)\b/i;
const fin = /^\s*(commit|end|rollback)\s*;?\s*$/i;

/** Every table at once: a statement that wrote and we cannot tell where. */
const TODAS = '*';

export interface Cambios {
  /** True when other processes may write the same database (PostgreSQL). */
  readonly compartida: boolean;
  /** The version of what was read from these tables: it changes whenever one of them is written. */
  version(tablas: readonly string[]): number;
  /** Tracks one connection's statements; a transaction's writes count at its commit. */
  conexion(): (sql: string) => void;
}

export function createCambios(compartida: boolean): Cambios {
  let reloj = 0;
  const escritas = new Map<string, number>();
  const marcar = (tablas: Iterable<string>) => {
    reloj += 1;
    for (const tabla of tablas) escritas.set(tabla, reloj);
  };
  return {
    compartida,
    version(tablas) {
      let v = escritas.get(TODAS) ?? 0;
      for (const tabla of tablas) v = Math.max(v, escritas.get(tabla) ?? 0);
      return v;
    },
    conexion() {
      let enTransaccion = false;
      const pendientes = new Set<string>();
      return (sql) => {
        if (inicio.test(sql)) {
          enTransaccion = true;
          return;
        }
        const cierre = fin.exec(sql)?.[1]?.toLowerCase();
        if (cierre) {
          if (cierre !== 'rollback' && pendientes.size > 0) marcar(pendientes);
          pendientes.clear();
          enTransaccion = false;
          return;
        }
        if (neutra.test(sql)) return;
        const tabla = escritura.exec(sql)?.[1] ?? TODAS;
        if (enTransaccion) pendientes.add(tabla);
        else marcar([tabla]);
      };
    },
  };
}

const registradas = new WeakMap<Db, Cambios>();

export function registrarCambios(db: Db, cambios: Cambios): void {
  registradas.set(db, cambios);
}

/** The tracker of the client `db` was opened with; undefined for one that reports nothing (no caching). */
export function cambiosDe(db: Db): Cambios | undefined {
  return registradas.get(db);
}
