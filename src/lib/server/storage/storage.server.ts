/**
 * Files behind one small interface (issue 19, decision 0042): local disk under DATA_DIR/files by
 * default, or an S3-compatible bucket (s3.server.ts) chosen by STORAGE_URL. Keys are relative
 * paths like 'manuales/12/original.pdf'. Nothing is ever held whole in memory: files are moved,
 * streamed, or handed to tools (ffmpeg, pdftoppm) as a local file.
 *
 * On disk, writes land in a temporary name and are renamed into place, so a crash never leaves
 * half a file under a real key; an object store's PUT is atomic by itself.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type AlmacenSubidas, createAlmacenArchivosSubidas } from './subidas.server.ts';

export interface ArchivoGuardado {
  key: string;
  size: number;
}

export interface Storage {
  /** 'disco' or 's3', for logs and the health answer. */
  readonly tipo: 'disco' | 's3';
  /** Moves a finished local file (an upload's temporary file, a tool's output) under `key`; the local file is gone after. */
  adopt(key: string, file: string): Promise<void>;
  /** Moves every file under the local directory `dir` to `${prefix}/${its relative path}`; `dir` is removed after. */
  adoptDir(prefix: string, dir: string): Promise<void>;
  write(key: string, data: Readable | Buffer): Promise<void>;
  /** The file's bytes (a single inclusive byte range when given); rejects when there is no such file. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  size(key: string): Promise<number | null>;
  /** Every file under `prefix` (a folder key such as 'capsulas/3', or '' for all), with its size. */
  list(prefix: string): AsyncIterable<ArchivoGuardado>;
  /**
   * Runs `use` with a local file holding the key's bytes, for tools that need a path (ffmpeg,
   * pdftoppm): on disk the file itself (read only), in a bucket a temporary download removed after.
   */
  local<T>(key: string, use: (file: string) => Promise<T>): Promise<T>;
  /** Removes a file, or a folder key and everything under it; nothing happens when it is gone. */
  remove(keyOrPrefix: string): Promise<void>;
  /**
   * A short-lived URL the browser may fetch the file from directly (a presigned bucket URL, maybe
   * through a CDN), or null when files go through this server (disk, or STORAGE_PRESIGNED_SECONDS=0).
   * The caller has checked permissions already.
   */
  urlDirecta(key: string, respuesta: { contentType: string; disposition?: string; cacheControl?: string }): Promise<string | null>;
  /** Where resumable uploads (tus) keep their bytes until a form uses them (subidas.server.ts). */
  almacenSubidas(expiraMs: number): AlmacenSubidas;
  /** A local directory for files being received or produced by this process. */
  tempDir: string;
}

export interface StorageOptions {
  /** STORAGE_URL: 'file:' or 's3://bucket?endpoint=...&region=...&forcePathStyle=true'. */
  url: string;
  /** DATA_DIR/files: the disk storage's root, and the temporary folder of either kind. */
  filesDir: string;
  /** STORAGE_PRESIGNED_SECONDS (0: no direct links). */
  presignedSeconds?: number;
  /** STORAGE_PUBLIC_URL: a CDN in front of the bucket. */
  publicUrl?: string | undefined;
}

/** The storage STORAGE_URL names. The S3 client is loaded only when a bucket is used. */
export async function createStorage(options: StorageOptions): Promise<Storage> {
  if (options.url === 'file:' || options.url === '') return createDiskStorage(options.filesDir);
  if (options.url.startsWith('s3://')) {
    const { createS3Storage, parseS3Url } = await import('./s3.server.ts');
    return createS3Storage({
      ...parseS3Url(options.url),
      tempDir: path.join(path.resolve(options.filesDir), '.tmp'),
      presignedSeconds: options.presignedSeconds ?? 0,
      publicUrl: options.publicUrl,
    });
  }
  throw new Error(`STORAGE_URL must be file: or s3://..., not ${options.url}`);
}

const ausente = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** The temporary name `write` gives a file until it is complete. */
const EN_ESCRITURA = /\.\d+\.tmp$/;

/** Folder names under the root that are never keys: temporary files and resumable uploads. */
const RESERVADAS = new Set(['.tmp', '.subidas']);

export function createDiskStorage(root: string): Storage {
  const base = path.resolve(root);
  const tempDir = path.join(base, '.tmp');
  const subidasDir = path.join(base, '.subidas');
  const resolve = (key: string) => {
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep) || RESERVADAS.has(path.relative(base, file).split(path.sep)[0] ?? '')) {
      throw new Error(`invalid storage key ${key}`);
    }
    return file;
  };
  const adopt = async (key: string, file: string) => {
    const target = resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target);
  };
  async function* walk(dir: string): AsyncGenerator<string> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(full);
      else if (entry.isFile()) yield full;
    }
  }
  return {
    tipo: 'disco',
    tempDir,
    adopt,
    async adoptDir(prefix, dir) {
      for await (const file of walk(dir)) await adopt(`${prefix}/${path.relative(dir, file).split(path.sep).join('/')}`, file);
      await rm(dir, { recursive: true, force: true });
    },
    async write(key, data) {
      const target = resolve(key);
      await mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.tmp`;
      try {
        await pipeline(Buffer.isBuffer(data) ? Readable.from([data]) : data, createWriteStream(tmp));
        await rename(tmp, target);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },
    async read(key, range) {
      const stream = createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {});
      // Opened before it is returned, so a missing file rejects here rather than in the response.
      await new Promise<void>((ok, fail) => {
        stream.once('open', () => ok());
        stream.once('error', fail);
      });
      return stream;
    },
    async size(key) {
      try {
        const s = await stat(resolve(key));
        return s.isFile() ? s.size : null;
      } catch (error) {
        // Only a missing file is 'no file'; a disk that fails is an error, as a bucket's is.
        if (ausente(error)) return null;
        throw error;
      }
    },
    async *list(prefix) {
      const dir = prefix === '' ? base : resolve(prefix);
      for await (const file of walk(dir)) {
        const key = path.relative(base, file).split(path.sep).join('/');
        // Not the reserved folders, nor a file `write` has not renamed into place yet.
        if (RESERVADAS.has(key.split('/')[0] ?? '') || EN_ESCRITURA.test(key)) continue;
        const s = await stat(file).catch(() => null);
        if (s?.isFile()) yield { key, size: s.size };
      }
    },
    async local(key, use) {
      const file = resolve(key);
      // Rejected before the tool runs, as a bucket's download would be.
      if (!(await stat(file)).isFile()) throw new Error(`storage key ${key} is not a file`);
      return use(file);
    },
    async remove(keyOrPrefix) {
      await rm(resolve(keyOrPrefix), { recursive: true, force: true });
    },
    urlDirecta: async () => null,
    // On the same file system as the files, so adopting a finished 2 GB upload is a rename.
    almacenSubidas: (expiraMs) => createAlmacenArchivosSubidas(subidasDir, tempDir, expiraMs),
  };
}
