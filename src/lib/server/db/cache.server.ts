/**
 * A small cache of read answers that depend on known tables (see cambios.server.ts): an answer is
 * reused while none of its tables was written by this process since its read began, and for no
 * longer than `segundos` when other processes share the database (PostgreSQL), which bounds how
 * late their changes show here. With the embedded database no other process writes while the
 * server runs (the data directory is locked), so only `maxSegundos` bounds an entry's age there.
 *
 * With `tablas: null` an answer is kept by its age alone, `segundos` on any database: for reads
 * whose tables every request writes (the admin statistics, decision 0077), where a cache renewed
 * by writes would seldom hold and a bounded staleness is the stated rule.
 */
import { getTableName, type Table } from 'drizzle-orm';
import { cambiosDe } from './cambios.server.ts';
import type { Db } from './client.server.ts';

export interface OpcionesCache {
  /** The tables the answers are read from; null: none is followed, an entry lasts `segundos` whatever is written. */
  tablas: readonly Table[] | null;
  /**
   * Tables among `tablas` none of whose counters (CONTADORES: views, comments) the answers show:
   * a write of only those counters leaves the entries as they are.
   */
  sinContadores?: readonly Table[];
  /** Longest age of an entry when other processes may write the database (with `tablas: null`, always). */
  segundos: number;
  /** Longest age otherwise (not with `tablas: null`). */
  maxSegundos?: number;
  /** Most entries kept; the oldest goes first. */
  max: number;
  now: () => Date;
}

export function cacheDeLecturas<T>(db: Db, opciones: OpcionesCache) {
  const porEdad = opciones.tablas === null;
  const cambios = porEdad ? undefined : cambiosDe(db);
  const edad = 1000 * (porEdad || cambios?.compartida ? opciones.segundos : (opciones.maxSegundos ?? 300));
  const tablas = (opciones.tablas ?? []).map((t) => getTableName(t));
  const sinContadores = new Set((opciones.sinContadores ?? []).map((t) => getTableName(t)));
  const entradas = new Map<string, { version: number; hasta: number; valor: Promise<T> }>();
  const versionActual = () => cambios?.version(tablas, sinContadores) ?? 0;
  const guardar = (clave: string, version: number, valor: Promise<T>) => {
    entradas.delete(clave);
    if (entradas.size >= opciones.max) {
      const oldest = entradas.keys().next();
      if (!oldest.done) entradas.delete(oldest.value);
    }
    entradas.set(clave, { version, hasta: opciones.now().getTime() + edad, valor });
  };
  return {
    /** The answer of `leer` for `clave`, read again when its tables changed or it aged out. */
    leer(clave: string, leer: () => Promise<T>): Promise<T> {
      // Without a write tracker a followed answer could never be known to be current.
      if (!porEdad && !cambios) return leer();
      cambios?.leyo(tablas);
      const version = versionActual();
      const entrada = entradas.get(clave);
      if (entrada && entrada.version === version && entrada.hasta > opciones.now().getTime()) return entrada.valor;
      const valor = leer();
      guardar(clave, version, valor);
      valor.catch(() => {
        if (entradas.get(clave)?.valor === valor) entradas.delete(clave);
      });
      return valor;
    },
    /** What an answer read from now on is current for: taken before a read whose answer goes to `poner`. */
    version: versionActual,
    /**
     * Keeps for `clave` an answer found by another read of the same rows (a list that counted
     * them), stamped with `version()` as it was before that read began: a write since makes it
     * stale at once, as for `leer`'s own answers.
     */
    poner(clave: string, version: number, valor: T): void {
      if (porEdad || cambios) guardar(clave, version, Promise.resolve(valor));
    },
  };
}
