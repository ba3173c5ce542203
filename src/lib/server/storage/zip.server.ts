/**
 * ZIPs of stored files, written by yazl as streams (the copy of a person's data, issue 31; the
 * mochila, issue 35): each stored file is opened only when the ZIP reaches it and read with
 * backpressure, so a ZIP of gigabytes costs no more memory than an empty one. `guardarZip`
 * writes such a ZIP straight into storage, counting the bytes as they go.
 */
import { type Readable, Transform } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Storage } from './storage.server.ts';

/** Stored files that will not compress: written as they are (faster, and no gain to lose). */
const YA_COMPRIMIDO = /\.(mp4|mov|m4v|webm|mkv|avi|jpe?g|png|webp|gif|pdf|zip|docx|xlsx|pptx|odt|ods|odp|mp3|m4a)$/i;

/** Adds the stored file `clave` (of `bytes`) as `ruta`, read from storage only when the ZIP reaches it. */
export function agregarGuardado(zip: ZipFile, storage: Storage, a: { ruta: string; clave: string; bytes: number }, mtime: Date): void {
  zip.addReadStreamLazy(a.ruta, { size: a.bytes, mtime, compress: !YA_COMPRIMIDO.test(a.ruta) }, (listo) => {
    storage.read(a.clave).then(
      (stream) => listo(null, stream),
      (error: unknown) => listo(error, undefined as unknown as NodeJS.ReadableStream),
    );
  });
}

/** A ZIP whose entries `llenar` adds, as a stream; a file that cannot be read ends it with an error. */
export function zipEnStream(llenar: (zip: ZipFile) => void): Readable {
  const zip = new ZipFile();
  const salida = zip.outputStream as unknown as Readable;
  zip.on('error', (error: Error) => salida.destroy(error));
  llenar(zip);
  zip.end();
  return salida;
}

/**
 * Writes the ZIP whose entries `llenar` adds under `clave` in storage; its size in bytes.
 * `alAvanzar` hears the bytes written so far as they pass. Rejects (leaving nothing under
 * `clave`) when a file cannot be read or storage cannot take the ZIP, or when `signal` aborts.
 */
export async function guardarZip(
  storage: Storage,
  clave: string,
  llenar: (zip: ZipFile) => void,
  opciones: { signal?: AbortSignal | undefined; alAvanzar?: (bytes: number) => void } = {},
): Promise<number> {
  const { signal, alAvanzar } = opciones;
  let salida: Readable | undefined;
  let hechos = 0;
  const contador = new Transform({
    transform(trozo: Buffer, _codificacion, listo) {
      hechos += trozo.length;
      alAvanzar?.(hechos);
      listo(null, trozo);
    },
  });
  const fallar = (error: unknown) => {
    const e = error instanceof Error ? error : new Error(String(error));
    salida?.destroy(e);
    contador.destroy(e);
  };
  const abortar = () => fallar(signal?.reason ?? new Error('aborted'));
  signal?.addEventListener('abort', abortar, { once: true });
  const escrito = storage.write(clave, contador);
  try {
    signal?.throwIfAborted();
    salida = zipEnStream(llenar);
    salida.on('error', fallar);
    salida.pipe(contador);
    await escrito;
  } catch (error) {
    fallar(error);
    await escrito.catch(() => undefined);
    await storage.remove(clave).catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', abortar);
  }
  return (await storage.size(clave)) ?? 0;
}
