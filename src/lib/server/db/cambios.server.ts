/**
 * Which tables this process has written, for the read caches (cache.server.ts): the database
 * client reports every statement it ran, and a write to a table (at its commit, inside a
 * transaction) moves that table's version on. A cached answer is stamped with the versions of the
 * tables it was read from when the read began, and is used only while none of them moved, so
 * a change made here is seen by the very next read. Changes made by another process (several
 * servers on one PostgreSQL) are not seen here: caches bound their age for that (`compartida`).
 *
 * An item's counters (CONTADORES: its views and comments) move apart from the rest of its row: a
 * counted view or a comment writes them and nothing else, many times a minute, and the caches whose
 * answers show no counter (the home's blocks, issue 36) say so (`sinContadores`) and are kept.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './client.server.ts';

/** A write whose table we can name: `insert into "t"`, `update "t"`, `delete from "t"` (Drizzle's SQL). */
const escritura = /^\s*(?:insert\s+into|update|delete\s+from)\s+"([^"]+)"/i;
/** Statements that change nothing by themselves (a transaction's frame, plain reads). */
const neutra = /^\s*(?:select|savepoint|release|rollback\s+to|show|set\s|explain\s)/i;
const inicio = /^\s*(?:begin|start\s+transaction)\b/i;
const fin = /^\s*(commit|end|rollback)\s*;?\s*$/i;

/** The tables a read names: `from "t"`, `join "t"` (quoted or not; a CTE's or function's name is harmless). */
const leida = /\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi;

/** Every table at once: a statement that wrote and we cannot tell where. */
const TODAS = '*';

/** The columns that count an item's views and comments, which only the statements below and triggers write. */
export const CONTADORES = ['n_visitas', 'n_comentarios'] as const;

/** An update of one counter by itself and a number (`set "n_visitas" = "t"."n_visitas" + 1`), as the services write it. */
const deContador = new RegExp(
  `^\\s*update\\s+"([^"]+)"\\s+set\\s+"(${CONTADORES.join('|')})"\\s*=\\s*"\\1"\\."\\2"\\s*[-+]\\s*(?:\\d+|\\$\\d+)\\s+where\\s`,
  'i',
);

/** What moves when only a table's counters were written. */
const contadoresDe = (tabla: string) => `${tabla}.contadores`;

/**
 * Tables whose counters the database's own triggers write when another is written, which no
 * statement names: a comment moves its item's `n_comentarios` (drizzle/0020), which the lists read
 * without reading the comments. tests/api/cache.test.ts reads the migrated database's triggers and
 * fails when one writes a table this does not name, or a column of it that is no counter.
 */
export const POR_DISPARADOR: Record<string, readonly string[]> = {
  comentarios: ['capsulas', 'materiales', 'manuales'],
  foro_comentarios: ['foro_conversaciones'],
};

/**
 * What a piece of work (a page's render) read and whether it wrote, for a cache of its result
 * (http/paginas.server.ts): the tables its statements named, and those of the read caches it used.
 */
export interface Lectura {
  readonly tablas: Set<string>;
  escribio: boolean;
}

export interface Cambios {
  /** True when other processes may write the same database (PostgreSQL). */
  readonly compartida: boolean;
  /**
   * The version of what was read from these tables: it changes whenever one of them is written,
   * except by a write of only the counters of a table in `sinContadores`.
   */
  version(tablas: readonly string[], sinContadores?: ReadonlySet<string>): number;
  /**
   * Tracks one connection's statements; a transaction's writes count at its commit. `filas`: the
   * rows a write changed, when the driver says. A write that changed none changed nothing a read
   * could see (a sign-in's 'cancel the scheduled deletion, if any' is such a write, on every
   * sign-in), so it moves no version: every cache read from `usuarios` would otherwise be read
   * again after each sign-in (issue 36).
   */
  conexion(): (sql: string, filas?: number) => void;
  /** How many writes this process has seen: unchanged means nothing was written since. */
  reloj(): number;
  /** Runs `trabajo` noting in `lectura` every table it reads and whether it writes (async work included). */
  seguir<T>(lectura: Lectura, trabajo: () => T): T;
  /** Notes tables read without a statement (an answer from a read cache) in the work being followed. */
  leyo(tablas: readonly string[]): void;
}

export function createCambios(compartida: boolean): Cambios {
  let reloj = 0;
  const escritas = new Map<string, number>();
  const seguidas = new AsyncLocalStorage<Lectura>();
  const anotar = (sql: string) => {
    const lectura = seguidas.getStore();
    if (!lectura) return;
    if (escritura.test(sql)) lectura.escribio = true;
    else if (neutra.test(sql)) for (const [, tabla] of sql.matchAll(leida)) lectura.tablas.add(tabla as string);
    else if (!inicio.test(sql) && !fin.test(sql)) lectura.escribio = true;
  };
  const marcar = (tablas: Iterable<string>) => {
    reloj += 1;
    for (const tabla of tablas) {
      escritas.set(tabla, reloj);
      for (const otra of POR_DISPARADOR[tabla] ?? []) escritas.set(contadoresDe(otra), reloj);
    }
  };
  return {
    compartida,
    reloj: () => reloj,
    seguir: (lectura, trabajo) => seguidas.run(lectura, trabajo),
    leyo(tablas) {
      const lectura = seguidas.getStore();
      if (lectura) for (const tabla of tablas) lectura.tablas.add(tabla);
    },
    version(tablas, sinContadores) {
      let v = escritas.get(TODAS) ?? 0;
      for (const tabla of tablas) {
        v = Math.max(v, escritas.get(tabla) ?? 0);
        if (!sinContadores?.has(tabla)) v = Math.max(v, escritas.get(contadoresDe(tabla)) ?? 0);
      }
      return v;
    },
    conexion() {
      let enTransaccion = false;
      const pendientes = new Set<string>();
      return (sql, filas) => {
        anotar(sql);
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
        const tabla = escritura.exec(sql)?.[1];
        if (tabla !== undefined && filas === 0) return;
        const contador = deContador.exec(sql)?.[1];
        const escrita = contador !== undefined ? contadoresDe(contador) : (tabla ?? TODAS);
        if (enTransaccion) pendientes.add(escrita);
        else marcar([escrita]);
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
