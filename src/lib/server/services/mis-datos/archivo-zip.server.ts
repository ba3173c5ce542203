/**
 * The copy of a person's data as one ZIP (issue 31, docs/decisions/0058), written as a stream
 * straight into storage (storage/zip.server.ts), so a person with gigabytes of video costs the
 * server no more memory than one with none. Inside: `index.html` (readable, Spanish, no scripts, relative links),
 * `datos/<categoria>.json` (machine-readable rows), `datos/indice.json` (what is where) and
 * `archivos/<clave>` (the files as stored).
 */
import type { Storage } from '../../storage/storage.server.ts';
import { agregarGuardado, guardarZip } from '../../storage/zip.server.ts';
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
  const mtime = datos.fecha;
  return guardarZip(
    storage,
    clave,
    (zip) => {
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
        else if (a.clave) agregarGuardado(zip, storage, { ruta: a.ruta, clave: a.clave, bytes: a.bytes }, mtime);
      }
    },
    { signal },
  );
}
