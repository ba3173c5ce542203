/**
 * `npm run restaurar -- ARCHIVO`: restores a backup (issue 28, docs/decisions/0048) into the
 * installation the environment names, which must be empty: a new DATA_DIR (embedded database and
 * files on disk), or an empty PostgreSQL database (DATABASE_URL) and an empty bucket
 * (STORAGE_URL). The whole archive is checked first; a damaged one is refused before anything is
 * written. Generated secrets are not in backups: people sign in again.
 */
import { existsSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.server.ts';
import { paths } from '../data-dir.server.ts';
import { acquireLock, readLock } from '../data-dir-lock.server.ts';
import { openDatabase } from '../db/client.server.ts';
import { RespaldoInvalido, verificarArchivo } from '../respaldos/archivo.server.ts';
import { restaurarRespaldo } from '../respaldos/restaurar.server.ts';
import { createStorage } from '../storage/storage.server.ts';

const USO = `Uso:
  npm run restaurar -- ARCHIVO.tar

Restaura un respaldo de \`npm run respaldo\` en una instalación vacía: un DATA_DIR nuevo, o una base
de datos PostgreSQL vacía (DATABASE_URL) y un bucket vacío (STORAGE_URL).`;

async function run(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  const [archivo] = positionals;
  if (!archivo || positionals.length > 1) {
    process.stderr.write(`${USO}\n`);
    return 2;
  }
  const config = loadConfig();
  const dirs = paths(config.dataDir);
  if (!config.DATABASE_URL) {
    const holder = readLock(config.dataDir);
    if (holder)
      throw new RespaldoInvalido(
        `Hay un servidor usando ${config.dataDir} (pid ${holder.pid}). Restaura en un DATA_DIR vacío, sin servidor.`,
      );
    if (existsSync(dirs.pglite) && readdirSync(dirs.pglite).length > 0) {
      throw new RespaldoInvalido(
        `${config.dataDir} ya tiene una base de datos. Restaura en un DATA_DIR vacío (DATA_DIR=/ruta/nueva npm run restaurar -- ${archivo}).`,
      );
    }
  }
  process.stdout.write(`Verificando ${archivo}…\n`);
  const manifiesto = await verificarArchivo(archivo);
  const lock = config.DATABASE_URL ? null : await acquireLock(config.dataDir, 'npm run restaurar');
  const database = await openDatabase(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { pgliteDir: dirs.pglite });
  try {
    const storage = await createStorage({ url: config.STORAGE_URL, filesDir: dirs.files });
    const { filas, archivos } = await restaurarRespaldo(archivo, { database, storage }, manifiesto);
    process.stdout.write(`Restaurado el respaldo del ${manifiesto.fecha}: ${filas} filas y ${archivos} archivos.\n`);
    return 0;
  } finally {
    await database.close();
    lock?.release();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
