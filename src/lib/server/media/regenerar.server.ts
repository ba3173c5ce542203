/**
 * Makes the cards' variants (miniaturas.server.ts) of content stored before they existed: every
 * manual and PDF material (from the PDF itself, whose 640-px render the old 480-px JPEG cannot
 * give) and every capsule poster. It reads only the stored files, through the storage STORAGE_URL
 * names (issue 19), whose layout the services fix (manuales/{id}/manual.pdf,
 * materiales/{id}/material.{ext}, capsulas/{id}/poster.jpg), so it needs no database: the same on
 * PGlite and PostgreSQL, on disk or in a bucket, with the servers running or not.
 *
 * Each content's sources are fetched with `storage.local`, its pictures made in a work folder and
 * adopted (trabajo.server.ts). Idempotent: content whose two variants exist is left alone (a
 * stored file is always complete), unless `forzar`. Safe after a crash: a dead run's work folder
 * is removed once it is old enough not to be another process's work in progress.
 */
import path from 'node:path';
import { ANCHOS_MINIATURA } from '../../format/miniaturas.ts';
import type { Storage } from '../storage/storage.server.ts';
import type { HerramientaPdf } from './herramientas.server.ts';
import { claveVariante, EN_CURSO, esVarianteVieja, hacerVariantes, miniaturasPdf, TRABAJO_MINIATURAS } from './miniaturas.server.ts';
import { conDirectorioTrabajo, limpiarTrabajos } from './trabajo.server.ts';

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
  /** Work folders younger than this may belong to a running upload or run: they are left alone. */
  restosMinutos?: number;
  /** Contents done at the same time (the PDF reader and sharp each take a core). */
  concurrencia?: number;
  /** The PDF reader (herramientas.server.ts; by default the one found on this machine). */
  lectorPdf?: HerramientaPdf;
}

type Seccion = 'manuales' | 'materiales' | 'capsulas';

/** One content to look at: its folder, the names stored directly in it, and how its pictures are made. */
interface Tarea {
  contenido: string;
  /** The content's folder key, 'manuales/3'. */
  carpeta: string;
  nombres: Set<string>;
  /** The thumbnail the variants are named after ('miniatura.jpg', 'poster.jpg'). */
  miniatura: string;
  /** The thumbnail's name without its extension: its variants start with it. */
  base: string;
  /** What to make from (a name in the folder), or why there is nothing to make. */
  fuente: { nombre: string; tipo: 'pdf' | 'poster' } | { sin: string };
}

/** The names stored directly in each numbered folder of a section ('hls/…' of a capsule is not). */
async function carpetas(storage: Storage, seccion: Seccion): Promise<Map<string, Set<string>>> {
  const porId = new Map<string, Set<string>>();
  for await (const { key } of storage.list(seccion)) {
    const [, id = '', ...resto] = key.split('/');
    if (!/^\d+$/.test(id)) continue;
    const nombres = porId.get(id) ?? new Set<string>();
    if (resto.length === 1 && resto[0]) nombres.add(resto[0]);
    porId.set(id, nombres);
  }
  return new Map([...porId].sort(([a], [b]) => Number(a) - Number(b)));
}

function fuenteDe(seccion: Seccion, nombres: Set<string>): Tarea['fuente'] {
  if (seccion === 'manuales') return nombres.has('manual.pdf') ? { nombre: 'manual.pdf', tipo: 'pdf' } : { sin: 'no tiene su PDF' };
  if (seccion === 'capsulas')
    return nombres.has('poster.jpg') ? { nombre: 'poster.jpg', tipo: 'poster' } : { sin: 'sin póster (procesándose o con error)' };
  const archivo = [...nombres].find((n) => n.startsWith('material.'));
  if (!archivo) return { sin: 'no tiene su archivo' };
  // Word, Excel and PowerPoint files show their type's picture.
  if (archivo !== 'material.pdf') return { sin: `es ${path.extname(archivo).slice(1)}` };
  return { nombre: archivo, tipo: 'pdf' };
}

async function tareas(storage: Storage): Promise<Tarea[]> {
  const lista: Tarea[] = [];
  for (const seccion of ['manuales', 'materiales', 'capsulas'] as const) {
    const miniatura = seccion === 'capsulas' ? 'poster.jpg' : 'miniatura.jpg';
    for (const [id, nombres] of await carpetas(storage, seccion)) {
      lista.push({
        contenido: `${seccion}/${id}`,
        carpeta: `${seccion}/${id}`,
        nombres,
        miniatura,
        base: miniatura.replace(/\.jpg$/, ''),
        fuente: fuenteDe(seccion, nombres),
      });
    }
  }
  return lista;
}

/**
 * Removes the variants of other pipeline versions (never served again) and the half-written
 * pictures versions before issue 19 left beside the thumbnail (nothing is written in place since).
 */
async function limpiar(storage: Storage, tarea: Tarea): Promise<void> {
  for (const nombre of tarea.nombres) {
    const viejo = esVarianteVieja(nombre, tarea.base) || (nombre.startsWith(tarea.base) && nombre.includes(EN_CURSO));
    if (!viejo) continue;
    await storage.remove(`${tarea.carpeta}/${nombre}`);
    tarea.nombres.delete(nombre);
  }
}

/** Makes the thumbnails of one content in a work folder and adopts them into its folder. */
async function dibujar(
  storage: Storage,
  tarea: Tarea,
  fuente: { nombre: string; tipo: 'pdf' | 'poster' },
  lectorPdf: HerramientaPdf | undefined,
): Promise<boolean> {
  return conDirectorioTrabajo(storage.tempDir, TRABAJO_MINIATURAS, async (trabajo) => {
    const hecha = await storage.local(`${tarea.carpeta}/${fuente.nombre}`, async (archivo) => {
      if (fuente.tipo === 'pdf') return miniaturasPdf(archivo, path.join(trabajo, tarea.miniatura), lectorPdf);
      await hacerVariantes(archivo, (ancho) => path.join(trabajo, claveVariante(tarea.miniatura, ancho)), 'centre');
      return true;
    });
    if (hecha) await storage.adoptDir(tarea.carpeta, trabajo);
    return hecha;
  });
}

async function hacer(storage: Storage, tarea: Tarea, opciones: Opciones): Promise<Informe> {
  const { contenido } = tarea;
  try {
    await limpiar(storage, tarea);
    const hechas = ANCHOS_MINIATURA.every((ancho) => tarea.nombres.has(claveVariante(tarea.miniatura, ancho)));
    if (!opciones.forzar && hechas) return { contenido, resultado: 'ya estaba' };
    const { fuente } = tarea;
    if ('sin' in fuente) return { contenido, resultado: 'sin miniatura', detalle: fuente.sin };
    if (!(await dibujar(storage, tarea, fuente, opciones.lectorPdf)))
      return { contenido, resultado: 'fallida', detalle: 'no se pudo dibujar la primera página del PDF' };
    return { contenido, resultado: 'hecha' };
  } catch (error) {
    return { contenido, resultado: 'fallida', detalle: error instanceof Error ? error.message : String(error) };
  }
}

/** Walks the stored files and makes the variants that are missing. */
export async function regenerarMiniaturas(storage: Storage, opciones: Opciones = {}): Promise<Informe[]> {
  const antesDe = Date.now() - (opciones.restosMinutos ?? 10) * 60_000;
  // What a dead run or upload on this machine left: work folders untouched for a while.
  await limpiarTrabajos(storage.tempDir, TRABAJO_MINIATURAS, (_, cambiadoMs) => cambiadoMs < antesDe);
  const pendientes = await tareas(storage);
  const informes: Informe[] = [];
  let siguiente = 0;
  const trabajador = async () => {
    for (let i = siguiente++; i < pendientes.length; i = siguiente++) {
      const tarea = pendientes[i];
      if (!tarea) continue;
      const informe = await hacer(storage, tarea, opciones);
      informes.push(informe);
      opciones.alAvanzar?.(informe);
    }
  };
  await Promise.all(Array.from({ length: opciones.concurrencia ?? 2 }, trabajador));
  return informes;
}
