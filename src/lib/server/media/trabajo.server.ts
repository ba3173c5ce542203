/**
 * Work directories (issue 19, decision 0042): tools (ffmpeg, pdftoppm, sharp) write what they make
 * into a fresh folder under the storage's local temporary directory, and only finished files are
 * adopted into storage. Nothing is ever half written under a storage key, on disk or in a bucket,
 * and no process needs another's disk.
 *
 * A folder's name starts with its purpose ('capsula-12-', 'miniaturas-'), so what a dead process
 * left can be told from what a live one is writing: see `limpiarIntentos` (video.server.ts) and
 * `regenerarMiniaturas` (regenerar.server.ts).
 */
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** A new, empty folder under `tempDir` whose name starts with `prefijo`. */
export async function crearDirectorioTrabajo(tempDir: string, prefijo: string): Promise<string> {
  await mkdir(tempDir, { recursive: true });
  return mkdtemp(path.join(tempDir, prefijo));
}

/** Runs `use` with a fresh work folder, removed after whatever happened (what was adopted is gone already). */
export async function conDirectorioTrabajo<T>(tempDir: string, prefijo: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await crearDirectorioTrabajo(tempDir, prefijo);
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Removes the work folders under `tempDir` whose name starts with `prefijo` and that `viejo` judges
 * stale (given the newest change time of the folder and its direct children); returns their names.
 */
export async function limpiarTrabajos(
  tempDir: string,
  prefijo: string,
  viejo: (nombre: string, cambiadoMs: number) => boolean = () => true,
): Promise<string[]> {
  const nombres = (await readdir(tempDir).catch(() => [] as string[])).filter((n) => n.startsWith(prefijo));
  const quitados: string[] = [];
  for (const nombre of nombres) {
    const dir = path.join(tempDir, nombre);
    if (!viejo(nombre, await ultimoCambio(dir))) continue;
    await rm(dir, { recursive: true, force: true });
    quitados.push(nombre);
  }
  return quitados;
}

/**
 * The newest modification time of a folder and of what it directly holds: a running ffmpeg adds a
 * segment to its ladder folder every few seconds, which changes that folder's time.
 */
async function ultimoCambio(dir: string): Promise<number> {
  const propio = (await stat(dir).catch(() => null))?.mtimeMs ?? 0;
  const hijos = await readdir(dir).catch(() => [] as string[]);
  const tiempos = await Promise.all(hijos.map(async (n) => (await stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0));
  return Math.max(propio, ...tiempos);
}
