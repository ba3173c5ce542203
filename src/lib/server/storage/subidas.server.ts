/**
 * Where resumable uploads (tus) keep their bytes while they arrive, behind one small interface so
 * the S3 store (@tus/s3-store, issue 19) can replace the file store without touching the routes
 * or the service. The file store writes each chunk straight to disk at its offset (no buffering),
 * one data file and one `.json` info file per upload.
 *
 * The file store's directory is DATA_DIR/files/.subidas (storage.server.ts): on the same file system
 * as the files, so adopting a finished 2 GB upload is a rename, not a copy, and never reachable as
 * a storage key.
 */
import { createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/utils';

export interface AlmacenSubidas {
  /** The tus data store the server writes chunks to. */
  datastore: DataStore;
  /**
   * A local file with a finished upload's bytes, for sniffing and adopting into storage (the file
   * store's own file; the S3 store downloads it to a temporary file first), or null when the
   * upload is gone. `liberar` removes what is left of a temporary copy once it has been used (a
   * copy adopted into storage is gone already); the upload itself stays until `eliminar`.
   */
  abrir(id: string): Promise<{ tmpPath: string; liberar: () => Promise<void> } | null>;
  /** Whether the upload's bytes are still held. */
  existe(id: string): Promise<boolean>;
  /** Removes an upload's bytes and info; nothing happens when they are already gone. */
  eliminar(id: string): Promise<void>;
  /** The ids of every upload held, for the sweep of those no database row knows. */
  ids(): Promise<string[]>;
}

/** The tus extensions we serve: the length is always declared at creation, where its limit is checked. */
export const EXTENSIONES = ['creation', 'creation-with-upload', 'termination', 'expiration'];

/**
 * The file store, writing a chunk as @tus/file-store does (at its offset, straight to disk) but
 * keeping the file system's error: the library answers every failure as one 500, and a full disk
 * must reach the API as itself (ENOSPC, issue 28) to be told apart from a fault of ours.
 */
class AlmacenArchivos extends FileStore {
  readonly #directorio: string;
  constructor(directorio: string, expiraMs: number) {
    super({ directory: directorio, expirationPeriodInMilliseconds: expiraMs });
    this.#directorio = directorio;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let recibidos = 0;
    readable.on('data', (chunk: Buffer) => {
      recibidos += chunk.length;
    });
    await pipeline(readable, createWriteStream(path.join(this.#directorio, id), { flags: 'r+', start: offset }));
    return offset + recibidos;
  }
}

export function createAlmacenArchivosSubidas(directorio: string, _tempDir: string, expiraMs: number): AlmacenSubidas {
  const datastore = new AlmacenArchivos(directorio, expiraMs);
  datastore.extensions = EXTENSIONES;
  const archivo = (id: string) => path.join(directorio, id);
  const existe = async (id: string) => (await stat(archivo(id)).catch(() => null))?.isFile() ?? false;
  return {
    datastore,
    existe,
    // The store's own file: adopting it is a rename, and an unused one stays for the next try.
    abrir: async (id) => ((await existe(id)) ? { tmpPath: archivo(id), liberar: async () => {} } : null),
    async eliminar(id) {
      await rm(archivo(id), { force: true });
      await rm(`${archivo(id)}.json`, { force: true });
    },
    async ids() {
      // Either file names an upload: a data file adopted into storage leaves its info file behind.
      const nombres = await readdir(directorio).catch(() => [] as string[]);
      return [...new Set(nombres.map((n) => n.replace(/\.json$/, '')))];
    },
  };
}
