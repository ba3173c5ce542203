/**
 * Files behind one small interface: local disk under DATA_DIR/files by default. Keys are
 * relative paths like 'manuales/12/original.pdf'; writes land in a temporary name and are renamed
 * into place, so a crash never leaves half a file under a real key.
 */
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Storage {
  /** Moves a finished local file (an upload's temporary file) under `key`. */
  adopt(key: string, file: string): Promise<void>;
  write(key: string, data: Readable): Promise<void>;
  read(key: string, range?: { start: number; end: number }): ReadStream;
  size(key: string): Promise<number | null>;
  /** The file's path on disk, for tools that need one (ffmpeg, pdftoppm). */
  path(key: string): string;
  remove(keyOrPrefix: string): Promise<void>;
  /** A directory for files being received or produced. */
  tempDir: string;
}

export function createDiskStorage(root: string): Storage {
  const base = path.resolve(root);
  const tempDir = path.join(base, '.tmp');
  const resolve = (key: string) => {
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep) || file.startsWith(tempDir)) throw new Error(`invalid storage key ${key}`);
    return file;
  };
  return {
    tempDir,
    path: resolve,
    async adopt(key, file) {
      const target = resolve(key);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(file, target);
    },
    async write(key, data) {
      const target = resolve(key);
      await mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.tmp`;
      try {
        await pipeline(data, createWriteStream(tmp));
        await rename(tmp, target);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },
    read: (key, range) => createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {}),
    async size(key) {
      try {
        const s = await stat(resolve(key));
        return s.isFile() ? s.size : null;
      } catch {
        return null;
      }
    },
    async remove(keyOrPrefix) {
      await rm(resolve(keyOrPrefix), { recursive: true, force: true });
    },
  };
}
