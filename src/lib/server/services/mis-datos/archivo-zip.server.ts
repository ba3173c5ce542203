/**
 * The copy of a person's data as one ZIP (issue 31, docs/decisions/0058), written by yazl as a
 * stream straight into storage: each stored file is read from storage as the ZIP reaches it (one at
 * a time, with backpressure), so a person with gigabytes of video costs the server no more memory
 * than one with none. Inside: `index.html` (readable, Spanish, no scripts, relative links),
 * `datos/<categoria>.json` (machine-readable rows), `datos/indice.json` (what is where) and
 * `archivos/<clave>` (the files as stored).
 */
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Storage } from '../../storage/storage.server.ts';
import { paginaIndice } from './indice.server.ts';
import type { ArchivoCopia, Categoria } from './recoleccion.server.ts';

export interface Incluido {
  ruta: string;
  descripcion: string;
  bytes: number;
  /** The file the row names was not in storage: the index says so (and what came instead, if anything). */
  nota?: string;
}

export interface DatosCopia {
  /** Whose copy, as the index heads it. */
  nombre: string;
  fecha: Date;
  categorias: Categoria[];
}

/** Stored files that will not compress: written as they are (faster, and no gain to lose). */
const YA_COMPRIMIDO = /\.(mp4|mov|m4v|webm|mkv|avi|jpe?g|png|webp|gif|pdf|zip|docx|xlsx|pptx|odt|ods|odp|mp3|m4a)$/i;

/** Which of the rows' files are there, in what size (an original gone is replaced by its alternative, or noted). */
async function resolver(storage: Storage, archivos: ArchivoCopia[]): Promise<(Incluido & { clave?: string; contenido?: string })[]> {
  const resueltos: (Incluido & { clave?: string; contenido?: string })[] = [];
  for (const a of archivos) {
    if (a.contenido !== undefined) {
      resueltos.push({ ruta: a.ruta, descripcion: a.descripcion, contenido: a.contenido, bytes: Buffer.byteLength(a.contenido) });
      continue;
    }
    const bytes = a.clave ? await storage.size(a.clave) : null;
    if (bytes !== null && a.clave) {
      resueltos.push({ ruta: a.ruta, descripcion: a.descripcion, clave: a.clave, bytes });
      continue;
    }
    const otra = a.alternativa ? await storage.size(a.alternativa.clave) : null;
    if (otra !== null && a.alternativa) {
      const nota = 'El archivo original ya no se conserva; se incluye la versión liviana.';
      resueltos.push({ ...a.alternativa, bytes: otra, nota });
      continue;
    }
    resueltos.push({ ruta: '', descripcion: a.descripcion, bytes: 0, nota: 'El archivo ya no se conserva en la plataforma.' });
  }
  return resueltos;
}

/**
 * Writes the copy under `clave` in storage; its size in bytes. Rejects (leaving nothing under
 * `clave`) when a file cannot be read or storage cannot take the ZIP, or when `signal` aborts.
 */
export async function escribirCopia(storage: Storage, clave: string, datos: DatosCopia, signal?: AbortSignal): Promise<number> {
  const archivos = await resolver(
    storage,
    datos.categorias.flatMap((c) => c.archivos),
  );
  const incluidos: Incluido[] = archivos.map(({ ruta, descripcion, bytes, nota }) => ({
    ruta,
    descripcion,
    bytes,
    ...(nota ? { nota } : {}),
  }));
  const zip = new ZipFile();
  const salida = zip.outputStream as unknown as Readable;
  const fallar = (error: unknown) => salida.destroy(error instanceof Error ? error : new Error(String(error)));
  zip.on('error', fallar);
  const abortar = () => fallar(signal?.reason ?? new Error('aborted'));
  signal?.addEventListener('abort', abortar, { once: true });
  const escrito = storage.write(clave, salida);
  try {
    const mtime = datos.fecha;
    const json = (valor: unknown, ruta: string) => zip.addBuffer(Buffer.from(`${JSON.stringify(valor, null, 2)}\n`), ruta, { mtime });
    zip.addBuffer(Buffer.from(paginaIndice(datos, incluidos)), 'index.html', { mtime });
    json(
      {
        fecha: datos.fecha.toISOString(),
        categorias: datos.categorias.map((c) => ({
          clave: c.clave,
          nombre: c.nombre,
          cantidad: c.cantidad,
          archivo: `datos/${c.clave}.json`,
        })),
        archivos: incluidos,
      },
      'datos/indice.json',
    );
    for (const c of datos.categorias) json(c.clave === 'perfil' ? (c.filas[0] ?? {}) : c.filas, `datos/${c.clave}.json`);
    for (const a of archivos) {
      if (a.contenido !== undefined) zip.addBuffer(Buffer.from(a.contenido), a.ruta, { mtime });
      else if (a.clave) {
        const clave = a.clave;
        zip.addReadStreamLazy(a.ruta, { size: a.bytes, mtime, compress: !YA_COMPRIMIDO.test(a.ruta) }, (listo) => {
          storage.read(clave).then(
            (stream) => listo(null, stream),
            (error: unknown) => listo(error, undefined as unknown as NodeJS.ReadableStream),
          );
        });
      }
    }
    zip.end();
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
