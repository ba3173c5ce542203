/**
 * The backup archive (docs/decisions/0048): a tar file whose entries are the database's tables
 * (`base-de-datos/<tabla>.jsonl`), the stored files (`archivos/<key>`) and, last,
 * `manifiesto.json` with the SHA-256 and size of every other entry. Written as a stream into a
 * temporary name beside its final one and renamed into place once complete and synced, so a
 * failed backup (a full disk) never leaves half an archive under a backup's name. Read back
 * twice on restore: once to check every sum, once to load.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { sumador } from '../storage/sumador.server.ts';

export const MANIFIESTO = 'manifiesto.json';
export const PREFIJO_TABLAS = 'base-de-datos/';
export const PREFIJO_ARCHIVOS = 'archivos/';
export const FORMATO = 1;

export interface Entrada {
  nombre: string;
  bytes: number;
  sha256: string;
}

export interface Manifiesto {
  formato: number;
  fecha: string;
  /** PostgreSQL's version() where it was taken (PGlite or a server; either restores into either). */
  base_de_datos: string;
  /** The migrations applied when it was taken, oldest first (drizzle's hashes). */
  migraciones: string[];
  /** Rows per table. */
  filas: Record<string, number>;
  entradas: Entrada[];
}

/** A backup that cannot be restored: `message` is a Spanish sentence for the person restoring. */
export class RespaldoInvalido extends Error {}

export interface Escritor {
  /** Adds an entry of exactly `bytes` bytes from `datos`. */
  agregar(nombre: string, bytes: number, datos: Readable): Promise<void>;
}

/**
 * Writes the archive `destino` through `llenar`, then the manifest (`datos` plus the entries'
 * sums). Nothing is left at `destino`, nor at its temporary name, when anything fails.
 */
export async function escribirArchivo(
  destino: string,
  datos: Omit<Manifiesto, 'entradas'>,
  llenar: (escritor: Escritor) => Promise<void>,
): Promise<number> {
  const parcial = `${destino}.parcial`;
  const pack = tar.pack();
  const salida = createWriteStream(parcial, { flags: 'wx', mode: 0o600 });
  const escrito = pipeline(pack, salida);
  // The archive's own failure (ENOSPC) ends whichever entry is being written.
  const fallo = escrito.then(
    () => new Promise<never>(() => {}),
    (error: unknown) => Promise.reject(error),
  );
  fallo.catch(() => undefined);
  const entradas: Entrada[] = [];
  try {
    await llenar({
      async agregar(nombre, bytes, fuente) {
        const suma = sumador();
        const entrada = pack.entry({ name: nombre, size: bytes, mode: 0o600, mtime: new Date(datos.fecha) });
        await Promise.race([pipeline(fuente, suma.transform, entrada), fallo]);
        entradas.push({ nombre, ...suma.resultado() });
      },
    });
    const manifiesto = Buffer.from(`${JSON.stringify({ ...datos, entradas } satisfies Manifiesto, null, 1)}\n`);
    pack.entry({ name: MANIFIESTO, size: manifiesto.length, mode: 0o600, mtime: new Date(datos.fecha) }, manifiesto);
    pack.finalize();
    await escrito;
    const handle = await open(parcial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(parcial, destino);
    return salida.bytesWritten;
  } catch (error) {
    pack.destroy();
    salida.destroy();
    await escrito.catch(() => undefined);
    await rm(parcial, { force: true });
    throw error;
  }
}

const danado = (archivo: string, porque: string) =>
  new RespaldoInvalido(`El respaldo ${archivo} está dañado: ${porque}. No se restauró nada; usa otra copia del respaldo.`);

/** Each entry of the archive in order, with its bytes; the caller consumes or skips each one. */
async function* recorrer(archivo: string): AsyncGenerator<{ nombre: string; bytes: number; datos: Readable }> {
  const extract = tar.extract();
  const lectura = pipeline(createReadStream(archivo), extract);
  lectura.catch(() => undefined);
  try {
    for await (const entry of extract) {
      // tar-stream's entries are streamx streams: a Node Readable over each, for consumers such as
      // the S3 SDK's upload that accept only Node's.
      yield { nombre: entry.header.name, bytes: entry.header.size ?? 0, datos: Readable.from(entry, { objectMode: false }) };
      entry.resume();
    }
    await lectura;
  } finally {
    extract.destroy();
  }
}

/**
 * Reads the whole archive and checks every entry against the manifest (SHA-256 and size), and
 * that nothing is missing or extra. Returns the manifest; throws RespaldoInvalido naming the
 * first entry that does not match.
 */
export async function verificarArchivo(archivo: string): Promise<Manifiesto> {
  const vistas = new Map<string, { bytes: number; sha256: string }>();
  let manifiesto: Manifiesto | undefined;
  try {
    for await (const entrada of recorrer(archivo)) {
      if (entrada.nombre === MANIFIESTO) {
        const partes: Buffer[] = [];
        for await (const parte of entrada.datos) partes.push(parte as Buffer);
        try {
          manifiesto = JSON.parse(Buffer.concat(partes).toString('utf8')) as Manifiesto;
        } catch {
          throw danado(archivo, 'su manifiesto no se puede leer');
        }
        continue;
      }
      const suma = sumador();
      await pipeline(entrada.datos, suma.transform, async (fuente: AsyncIterable<Buffer>) => {
        for await (const _ of fuente);
      });
      vistas.set(entrada.nombre, suma.resultado());
    }
  } catch (error) {
    if (error instanceof RespaldoInvalido) throw error;
    const codigo = (error as NodeJS.ErrnoException).code;
    if (codigo === 'ENOENT') throw new RespaldoInvalido(`No existe el archivo ${archivo}.`);
    throw danado(archivo, 'está incompleto o no es un respaldo de Entre Docentes');
  }
  if (!manifiesto || manifiesto.formato !== FORMATO || !Array.isArray(manifiesto.entradas)) {
    throw danado(archivo, 'le falta el manifiesto (manifiesto.json), o no es un respaldo de Entre Docentes');
  }
  for (const esperada of manifiesto.entradas) {
    const vista = vistas.get(esperada.nombre);
    if (!vista) throw danado(archivo, `falta «${esperada.nombre}»`);
    if (vista.bytes !== esperada.bytes || vista.sha256 !== esperada.sha256) {
      throw danado(archivo, `«${esperada.nombre}» no coincide con su suma SHA-256`);
    }
    vistas.delete(esperada.nombre);
  }
  const sobra = vistas.keys().next();
  if (!sobra.done) throw danado(archivo, `«${sobra.value}» no figura en el manifiesto`);
  return manifiesto;
}

/** The entries of a checked archive, in order (the manifest too). */
export function entradas(archivo: string) {
  return recorrer(archivo);
}
