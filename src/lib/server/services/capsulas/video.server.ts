/**
 * A capsule's video job (TRABAJO_HLS in capsulas.server.ts): from the uploaded original, the HLS
 * ladder, the poster and its card sizes, and the light version, made in a work folder and then
 * stored in place of any earlier rendition; the capsule turns 'listo' once every file is stored.
 */
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { capsulas } from '../../db/schema.server.ts';
import type { JobHandler } from '../../jobs/runner.server.ts';
import { claveVariante, hacerVariantes } from '../../media/miniaturas.server.ts';
import { crearDirectorioTrabajo } from '../../media/trabajo.server.ts';
import {
  limpiarIntentos,
  poster,
  prefijoTrabajo,
  probarVideo,
  type Rung,
  transcodificarHls,
  versionLiviana,
} from '../../media/video.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { avisarNovedad } from '../seguimientos/avisos.server.ts';

const ERROR_PROCESO = 'No se pudo procesar el video. Súbalo nuevamente o en otro formato (.mp4 recomendado).';

/** Where a capsule's files are stored. */
export const claves = (id: number, extension = 'mp4') => ({
  carpeta: `capsulas/${id}`,
  original: `capsulas/${id}/original.${extension}`,
  hls: `capsulas/${id}/hls`,
  poster: `capsulas/${id}/poster.jpg`,
  liviana: `capsulas/${id}/liviana.mp4`,
});

/** The job's handler: one attempt at a capsule's video (its datos: { id }). */
export function createProcesoVideo(ctx: ServiceContext): JobHandler {
  const { db, storage } = ctx;
  const { ffmpeg, ffprobe } = ctx.herramientas.herramientas;
  const video = { ffmpeg: ffmpeg.ruta, ffprobe: ffprobe.ruta };

  /** The cards' sizes of the poster; without them the cards show the poster itself, so the capsule stands. */
  async function variantesPoster(id: number, jpg: string) {
    try {
      await hacerVariantes(jpg, (ancho) => claveVariante(jpg, ancho), 'centre');
    } catch (error) {
      ctx.log.warn('capsule poster variants failed', { capsulaId: id, error });
    }
  }

  /**
   * The ladder, the poster and its variants, made from the original (a local copy when it is in a
   * bucket) into `rendicion`, and the light version from the ladder's low rung; the playlists are
   * moved to `listas` so they can be adopted last. Answers the video's figures and the light
   * version's bytes.
   */
  async function hacerRendicion(id: number, original: string, dirs: { rendicion: string; listas: string }, signal?: AbortSignal) {
    const ejecucion = { signal };
    const hls = path.join(dirs.rendicion, 'hls');
    const { info, bajo } = await storage.local(original, async (input) => {
      const info = await probarVideo(input, video);
      if (!info) throw new Error('ffprobe found no video stream');
      const [bajo] = await transcodificarHls(input, hls, info, video, ejecucion);
      if (!bajo) throw new Error('the ladder has no rung');
      await poster(input, path.join(dirs.rendicion, 'poster.jpg'), info, video, ejecucion);
      return { info, bajo };
    });
    const tamanoLiviana = await hacerLiviana(id, hls, bajo, path.join(dirs.rendicion, 'liviana.mp4'), signal);
    await variantesPoster(id, path.join(dirs.rendicion, 'poster.jpg'));
    await mkdir(path.join(dirs.listas, 'hls'), { recursive: true });
    for (const nombre of await readdir(path.join(dirs.rendicion, 'hls'))) {
      if (nombre.endsWith('.m3u8')) await rename(path.join(dirs.rendicion, 'hls', nombre), path.join(dirs.listas, 'hls', nombre));
    }
    return { ...info, tamanoLiviana };
  }

  /**
   * The light version's bytes, or null when it could not be made: like the poster's variants it is
   * an extra, so the capsule is published without it (Descargar then offers only the original)
   * rather than failing the whole attempt. A stopped job still stops.
   */
  async function hacerLiviana(id: number, hls: string, bajo: Rung, salida: string, signal?: AbortSignal): Promise<number | null> {
    try {
      await versionLiviana(hls, bajo, salida, video, { signal });
      return (await stat(salida)).size;
    } catch (error) {
      signal?.throwIfAborted();
      ctx.log.warn('capsule light version not made', { capsulaId: id, error });
      await rm(salida, { force: true });
      return null;
    }
  }

  /** Removes every file under the capsule's folder but its original: an earlier rendition, whole or half adopted. */
  async function quitarRendicion(carpeta: string, original: string) {
    const quitar = new Set<string>();
    for await (const { key } of storage.list(carpeta)) {
      if (key !== original) quitar.add(`${carpeta}/${key.slice(carpeta.length + 1).split('/')[0]}`);
    }
    for (const key of quitar) await storage.remove(key);
  }

  /**
   * One attempt, in a work folder of its own under the storage's local temporary folder: it first
   * removes what earlier attempts left there (limpiarIntentos), makes the rendition, then replaces
   * the stored one with it, playlists last. The work folder goes however the attempt ends; ffmpeg
   * stops when the job's signal aborts (released or taken over), and a released attempt publishes
   * nothing. The state turns 'listo' only once every file is stored.
   */
  const procesar: JobHandler = async (datos, job) => {
    const id = Number((datos as { id?: unknown }).id);
    const [row] = await db.select().from(capsulas).where(eq(capsulas.id, id));
    if (!row) return; // deleted before its turn
    const keys = claves(id, row.extension);
    let trabajo: string | undefined;
    try {
      const restos = await limpiarIntentos(storage.tempDir, id);
      if (restos.length > 0) ctx.log.info('earlier attempt output removed', { capsulaId: id, attempt: job.intento, removed: restos });
      trabajo = await crearDirectorioTrabajo(storage.tempDir, prefijoTrabajo(id));
      const dirs = { rendicion: path.join(trabajo, 'rendicion'), listas: path.join(trabajo, 'listas') };
      const info = await hacerRendicion(id, keys.original, dirs, job.signal);
      job.signal?.throwIfAborted();
      await quitarRendicion(keys.carpeta, keys.original);
      await storage.adoptDir(keys.carpeta, dirs.rendicion);
      await storage.adoptDir(keys.carpeta, dirs.listas);
      const updated = await db
        .update(capsulas)
        .set({ estado: 'listo', mensaje_error: null, duracion: info.duration, tamano_liviana: info.tamanoLiviana })
        .where(eq(capsulas.id, id))
        .returning({ id: capsulas.id });
      if (updated.length === 0) await storage.remove(keys.carpeta); // deleted while transcoding
      ctx.log.info('capsule ready', { capsulaId: id, seconds: info.duration, lightBytes: info.tamanoLiviana });
      // Its followers hear of it the first time it is ready, not when it is processed again.
      if (updated.length > 0 && row.estado !== 'listo') await avisarNovedad(ctx, { tipo: 'capsula', id });
    } catch (error) {
      // A released job is not a failure: another attempt follows.
      if (job.ultimo && !job.signal?.aborted) {
        await db.update(capsulas).set({ estado: 'error', mensaje_error: ERROR_PROCESO }).where(eq(capsulas.id, id));
      }
      // The job's reason at /admin/trabajos says what it is: the server's tools, not the video.
      if (!job.signal?.aborted && !(await ctx.herramientas.disponible('video'))) {
        throw new Error(`ffmpeg or ffprobe does not run on this server (see /healthz/detalle): ${String(error)}`);
      }
      throw error;
    } finally {
      if (trabajo) await rm(trabajo, { recursive: true, force: true });
    }
  };

  return procesar;
}
