/**
 * Makes the cards' variants (miniaturas.server.ts) of content stored before they existed: every
 * manual and PDF material (from the PDF itself, whose 640-px render the old 480-px JPEG cannot
 * give) and every capsule poster. It reads only the files under DATA_DIR/files, whose layout the
 * services fix (manuales/{id}/manual.pdf, materiales/{id}/material.{ext}, capsulas/{id}/poster.jpg),
 * so it needs no database: the same on PGlite and PostgreSQL, with the server running or not.
 *
 * Idempotent: content whose two variants exist is left alone (a variant that exists is complete,
 * see miniaturas.server.ts), unless `forzar`. Safe after a crash: what a dead run left half
 * written is removed once it is old enough not to be another process's work in progress.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ANCHOS_MINIATURA } from '../../format/miniaturas.ts';
import { claveVariante, EN_CURSO, esVarianteVieja, hacerVariantes, miniaturasPdf } from './miniaturas.server.ts';

export type Resultado = 'hecha' | 'ya estaba' | 'sin miniatura' | 'fallida';

export interface Informe {
  /** 'manuales/3', 'materiales/8', 'capsulas/2'. */
  contenido: string;
  resultado: Resultado;
  detalle?: string;
}

export interface Opciones {
  /** Makes every variant again (after the pipeline changed). */
  forzar?: boolean;
  /** Called once per content, as it is done. */
  alAvanzar?: (informe: Informe) => void;
  /** Leftovers younger than this may belong to a running upload or job: they are left alone. */
  restosMinutos?: number;
  /** Contents done at the same time (pdftoppm and sharp each take a core). */
  concurrencia?: number;
}

/** One content to look at: its folder and how its thumbnails are made. */
interface Tarea {
  contenido: string;
  carpeta: string;
  /** The thumbnail the variants are named after. */
  miniatura: string;
  /** What to make from; null when the content has no picture (an Office file, a capsule still processing). */
  fuente: () => Promise<{ hacer: () => Promise<boolean> } | { sin: string }>;
  /** The thumbnail's name without its extension ('miniatura', 'poster'): its variants start with it. */
  base: string;
  /** Files of another writer that start like ours (the video job's poster.jpg.intento-…). */
  ajenos?: string;
}

const existe = async (archivo: string) => (await stat(archivo).catch(() => null))?.isFile() ?? false;

async function carpetas(raiz: string, seccion: string): Promise<string[]> {
  const nombres = await readdir(path.join(raiz, seccion)).catch(() => [] as string[]);
  return nombres.filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(a) - Number(b));
}

async function tareas(raiz: string): Promise<Tarea[]> {
  const lista: Tarea[] = [];
  for (const id of await carpetas(raiz, 'manuales')) {
    const carpeta = path.join(raiz, 'manuales', id);
    const miniatura = path.join(carpeta, 'miniatura.jpg');
    const pdf = path.join(carpeta, 'manual.pdf');
    lista.push({
      contenido: `manuales/${id}`,
      carpeta,
      miniatura,
      fuente: async () => ((await existe(pdf)) ? { hacer: () => miniaturasPdf(pdf, miniatura) } : { sin: 'no tiene su PDF' }),
      base: 'miniatura',
    });
  }
  for (const id of await carpetas(raiz, 'materiales')) {
    const carpeta = path.join(raiz, 'materiales', id);
    const miniatura = path.join(carpeta, 'miniatura.jpg');
    lista.push({
      contenido: `materiales/${id}`,
      carpeta,
      miniatura,
      fuente: async () => {
        const archivo = (await readdir(carpeta)).find((n) => n.startsWith('material.'));
        if (!archivo) return { sin: 'no tiene su archivo' };
        // Word, Excel and PowerPoint files show their type's picture.
        if (archivo !== 'material.pdf') return { sin: `es ${path.extname(archivo).slice(1)}` };
        return { hacer: () => miniaturasPdf(path.join(carpeta, archivo), miniatura) };
      },
      base: 'miniatura',
    });
  }
  for (const id of await carpetas(raiz, 'capsulas')) {
    const carpeta = path.join(raiz, 'capsulas', id);
    const poster = path.join(carpeta, 'poster.jpg');
    lista.push({
      contenido: `capsulas/${id}`,
      carpeta,
      miniatura: poster,
      fuente: async () =>
        (await existe(poster))
          ? {
              hacer: async () => {
                await hacerVariantes(poster, (ancho) => claveVariante(poster, ancho), 'centre');
                return true;
              },
            }
          : { sin: 'sin póster (procesándose o con error)' },
      base: 'poster',
      ajenos: 'poster.jpg',
    });
  }
  return lista;
}

/**
 * Removes the variants of other pipeline versions (never served again) and what a dead run left
 * half written, once older than `antesDe`. Only this module's own files: a capsule's folder also
 * holds the video job's leftovers (`ajenos`), which limpiarIntentos handles.
 */
async function limpiar(tarea: Tarea, antesDe: number): Promise<void> {
  const { base, carpeta, ajenos } = tarea;
  const resto = (nombre: string) => nombre.startsWith(base) && nombre.includes(EN_CURSO) && !(ajenos && nombre.startsWith(ajenos));
  const nombres = await readdir(carpeta).catch(() => [] as string[]);
  for (const nombre of nombres) {
    const archivo = path.join(carpeta, nombre);
    if (esVarianteVieja(nombre, base)) await rm(archivo, { force: true });
    else if (resto(nombre) && ((await stat(archivo).catch(() => null))?.mtimeMs ?? Number.POSITIVE_INFINITY) < antesDe)
      await rm(archivo, { recursive: true, force: true });
  }
}

async function hacer(tarea: Tarea, opciones: Opciones, antesDe: number): Promise<Informe> {
  const { contenido } = tarea;
  try {
    await limpiar(tarea, antesDe);
    const hechas = await Promise.all(ANCHOS_MINIATURA.map((ancho) => existe(claveVariante(tarea.miniatura, ancho))));
    if (!opciones.forzar && hechas.every(Boolean)) return { contenido, resultado: 'ya estaba' };
    const fuente = await tarea.fuente();
    if ('sin' in fuente) return { contenido, resultado: 'sin miniatura', detalle: fuente.sin };
    if (!(await fuente.hacer())) return { contenido, resultado: 'fallida', detalle: 'poppler no pudo dibujar la primera página' };
    return { contenido, resultado: 'hecha' };
  } catch (error) {
    return { contenido, resultado: 'fallida', detalle: error instanceof Error ? error.message : String(error) };
  }
}

/** Walks the stored files under `raiz` (DATA_DIR/files) and makes the variants that are missing. */
export async function regenerarMiniaturas(raiz: string, opciones: Opciones = {}): Promise<Informe[]> {
  const pendientes = await tareas(raiz);
  const antesDe = Date.now() - (opciones.restosMinutos ?? 10) * 60_000;
  const informes: Informe[] = [];
  let siguiente = 0;
  const trabajador = async () => {
    for (let i = siguiente++; i < pendientes.length; i = siguiente++) {
      const tarea = pendientes[i];
      if (!tarea) continue;
      const informe = await hacer(tarea, opciones, antesDe);
      informes.push(informe);
      opciones.alAvanzar?.(informe);
    }
  };
  await Promise.all(Array.from({ length: opciones.concurrencia ?? 2 }, trabajador));
  return informes;
}
