/**
 * Restores a backup into an empty installation (docs/decisions/0048): the whole archive is
 * checked first (every SHA-256 of the manifest), then the database is migrated to the backup's
 * level and its rows loaded in one transaction, then the files are written. An installation that
 * already has rows or files is refused, so a restore never mixes two installations.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Database } from '../db/client.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { entradas, type Manifiesto, PREFIJO_ARCHIVOS, PREFIJO_TABLAS, RespaldoInvalido, verificarArchivo } from './archivo.server.ts';
import { cargarTablas, migraciones, vacia } from './volcado.server.ts';

export interface Restaurado {
  manifiesto: Manifiesto;
  filas: number;
  archivos: number;
}

const lineas = (datos: Readable) => createInterface({ input: datos, crlfDelay: Number.POSITIVE_INFINITY });

/** Whether `storage` holds no file at all. */
async function sinArchivos(storage: Storage): Promise<boolean> {
  for await (const _ of storage.list('')) return false;
  return true;
}

/** `verificado`: the manifest `verificarArchivo` already returned for this archive (not read twice). */
export async function restaurarRespaldo(
  archivo: string,
  destino: { database: Database; storage: Storage },
  verificado?: Manifiesto,
): Promise<Restaurado> {
  const manifiesto = verificado ?? (await verificarArchivo(archivo));
  const { database, storage } = destino;
  await database.migrate();
  const nivel = await migraciones(database.db);
  if (nivel.join() !== manifiesto.migraciones.join()) {
    throw new RespaldoInvalido(
      `Este respaldo es de otra versión de Entre Docentes (${manifiesto.migraciones.length} migraciones; esta versión tiene ${nivel.length}). ` +
        'Restáuralo con la versión que lo hizo y actualiza después.',
    );
  }
  if (!(await vacia(database.db))) {
    throw new RespaldoInvalido(
      'La base de datos de destino ya tiene datos. Restaura en una instalación vacía (un DATA_DIR nuevo, o una base de datos vacía).',
    );
  }
  if (!(await sinArchivos(storage))) {
    throw new RespaldoInvalido(
      'El almacenamiento de destino ya tiene archivos. Restaura en una instalación vacía (un DATA_DIR nuevo, o un bucket vacío).',
    );
  }
  const recorrido = entradas(archivo)[Symbol.asyncIterator]();
  let actual = await recorrido.next();
  let filas = 0;
  let archivos = 0;
  try {
    await cargarTablas(database.db, async (carga) => {
      while (!actual.done && actual.value.nombre.startsWith(PREFIJO_TABLAS)) {
        const tabla = actual.value.nombre.slice(PREFIJO_TABLAS.length).replace(/\.jsonl$/, '');
        filas += await carga.tabla(tabla, lineas(actual.value.datos));
        actual = await recorrido.next();
      }
    });
    for (; !actual.done; actual = await recorrido.next()) {
      const { nombre, datos } = actual.value;
      if (!nombre.startsWith(PREFIJO_ARCHIVOS)) continue;
      await storage.write(nombre.slice(PREFIJO_ARCHIVOS.length), datos);
      archivos++;
    }
  } finally {
    await recorrido.return?.(undefined);
  }
  return { manifiesto, filas, archivos };
}
