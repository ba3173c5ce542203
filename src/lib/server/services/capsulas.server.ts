/**
 * Teaching capsules (docs/SPEC.md sections 2-9,): admins upload a video, a durable job turns it
 * into HLS for slow connections, and only then does it appear in the list. Authors (and admins,
 * for moderation) edit and delete; everyone signed in watches, likes, comments and downloads.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { type CapsulaEdicionInput, type CapsulaInput, VIDEO_INVALIDO, VIDEO_REQUERIDO } from '../../validation/capsulas.ts';
import type { UploadedFile } from '../archivo-recibido.server.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import { reservarId } from '../db/client.server.ts';
import { unoDe } from '../db/fragmentos.server.ts';
import { paginaDeIds } from '../db/paginar.server.ts';
import { areas, capsulas, comentarios, likesCapsulas, metodologias, niveles, subtitulos, usuarios } from '../db/schema.server.ts';
import { coincideTexto } from '../db/search.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { type Sniffed, sniffFile } from '../media/sniff.server.ts';
import { probarVideo } from '../media/video.server.ts';
import { type Actor, esAdmin, exigirAdmin, exigirAutorOAdmin } from './actor.server.ts';
import { claves, createProcesoVideo } from './capsulas/video.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { PublicacionService } from './publicacion.server.ts';
import { esPublicoAhora } from './publicos.server.ts';
import { autorColumns, capsulaVisible, createRecursosService, likesEnFila, toAutor, visibleA } from './recursos.server.ts';
import { coincideEnCapsula, menciones } from './subtitulos.server.ts';

const NO_ENCONTRADA = 'No se encontró capsula';
/** The job type of a capsule's video transcode (its datos: { id }). */
export const TRABAJO_HLS = 'capsula-hls';

const extensiones: Partial<Record<Sniffed, string>> = { mp4: 'mp4', mov: 'mov', avi: 'avi', mpeg: 'mpeg' };

export type Capsula = Esquema<'Capsula'>;

export interface FiltrosCapsulas {
  titulo?: string | undefined;
  area?: number | undefined;
  metodologia?: number | undefined;
  nivel?: string | undefined;
  pagina: number;
  tamano_pagina: number;
  order: 'fecha' | 'n_visitas';
}

const LIVIANA_NO_DISPONIBLE = 'La versión liviana aún no está disponible';

export function createCapsulasService(ctx: ServiceContext, { publicacion }: { publicacion: PublicacionService }) {
  const { db, storage } = ctx;
  const recursos = createRecursosService(db, ctx.now);
  const { ffmpeg, ffprobe } = ctx.herramientas.herramientas;
  const video = { ffmpeg: ffmpeg.ruta, ffprobe: ffprobe.ruta };
  /**
   * Pages of the list, by their filters: every signed-in page view and list call asked the same
   * five queries. Read again after any write to what a card shows (db/cache.server.ts), so a new
   * capsule, a like or a comment shows at once; another server's change within 2 s.
   */
  const paginas = cacheDeLecturas<Esquema<'CapsulaLista'>>(db, {
    tablas: [capsulas, comentarios, likesCapsulas, usuarios, areas, niveles, metodologias, subtitulos],
    segundos: 2,
    max: 500,
    now: ctx.now,
  });
  /**
   * Whether a person has ready capsules hidden by moderation: only they (and admins) get a list
   * of their own; everyone else shares the pages without hidden ones.
   */
  const conOcultas = cacheDeLecturas<boolean>(db, {
    tablas: [capsulas],
    sinContadores: [capsulas],
    segundos: 2,
    max: 5_000,
    now: ctx.now,
  });
  /** Each author's capsules in processing, which /capsulas/ shows them on every visit. */
  const enProceso = cacheDeLecturas<Esquema<'CapsulasProcesando'>>(db, {
    tablas: [capsulas, comentarios, likesCapsulas, usuarios, areas, niveles, metodologias],
    segundos: 2,
    max: 5_000,
    now: ctx.now,
  });

  /** Capsules by id, each with its likes, in one prepared statement (issue 36). */
  const leerCapsulas = db
    .select({
      c: capsulas,
      area: { id: areas.id, nombre: areas.nombre },
      nivel: { codigo: niveles.codigo, nombre: niveles.nombre },
      metodologia: { id: metodologias.id, nombre: metodologias.nombre },
      autor: autorColumns,
      likes: likesEnFila('capsula', capsulas.id),
    })
    .from(capsulas)
    .innerJoin(areas, eq(areas.id, capsulas.id_area))
    .innerJoin(niveles, eq(niveles.codigo, capsulas.codigo_nivel))
    .innerJoin(metodologias, eq(metodologias.id, capsulas.id_metodologia))
    .innerJoin(usuarios, eq(usuarios.id, capsulas.id_usuario))
    .where(unoDe(capsulas.id, 'ids'))
    .prepare('leer_capsulas');

  async function componer(ids: number[]): Promise<Capsula[]> {
    if (ids.length === 0) return [];
    const rows = await leerCapsulas.execute({ ids });
    const byId = new Map(rows.map((r) => [r.c.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      return [
        {
          id,
          titulo: r.c.titulo,
          descripcion: r.c.descripcion,
          extension: r.c.extension,
          n_visitas: r.c.n_visitas,
          fecha_creacion: r.c.fecha_creacion.toISOString(),
          likes: r.likes,
          comentarios: r.c.n_comentarios,
          id_area: r.area,
          id_nivel: r.nivel,
          id_metodologia: r.metodologia,
          id_usuario: toAutor(r.autor),
          estado: r.c.estado,
          tamano: r.c.tamano,
          duracion: r.c.duracion,
          mensaje_error: r.c.mensaje_error,
          oculto: r.c.oculto,
          licencia: r.c.licencia,
          visibilidad: r.c.visibilidad,
          tamano_liviana: r.c.tamano_liviana,
        },
      ];
    });
  }

  /**
   * The search reads titles and descriptions, and what the captions say (issue 20): a capsule
   * found only by its captions carries where they say it (`mencion`).
   */
  async function leerPagina(f: FiltrosCapsulas, actor: Actor): Promise<Esquema<'CapsulaLista'>> {
    const enTitulo = coincideTexto([capsulas.titulo, capsulas.descripcion], f.titulo);
    const where = and(
      eq(capsulas.estado, 'listo'),
      visibleA(actor, capsulas),
      coincideEnCapsula(enTitulo, f.titulo),
      f.area ? eq(capsulas.id_area, f.area) : undefined,
      f.metodologia ? eq(capsulas.id_metodologia, f.metodologia) : undefined,
      f.nivel ? eq(capsulas.codigo_nivel, f.nivel) : undefined,
    );
    const { ids, num_pages, num_results } = await paginaDeIds(db, capsulas, where, f);
    const capsula = await componer(ids);
    if (!enTitulo || ids.length === 0) return { capsula, num_pages, num_results };
    const porTitulo = await db
      .select({ id: capsulas.id })
      .from(capsulas)
      .where(and(inArray(capsulas.id, ids), enTitulo));
    const encontradas = new Set(porTitulo.map((c) => c.id));
    const dichas = await menciones(
      db,
      ids.filter((id) => !encontradas.has(id)),
      f.titulo,
    );
    const conMencion = capsula.map((c) => {
      const mencion = dichas.get(c.id);
      return mencion ? { ...c, mencion } : c;
    });
    return { capsula: conMencion, num_pages, num_results };
  }

  function tieneOcultas(idUsuario: number): Promise<boolean> {
    return conOcultas.leer(String(idUsuario), async () => {
      const [fila] = await db
        .select({ id: capsulas.id })
        .from(capsulas)
        .where(and(eq(capsulas.id_usuario, idUsuario), eq(capsulas.oculto, true)))
        .limit(1);
      return fila !== undefined;
    });
  }

  /** The row, if this person may see it: a capsule not ready yet is its author's and admins' only. */
  async function visible(id: number, actor: Actor) {
    const [row] = await db
      .select()
      .from(capsulas)
      .where(and(eq(capsulas.id, id), capsulaVisible(actor)));
    if (!row) throw new ErrorDeDominio(404, NO_ENCONTRADA);
    return row;
  }

  /** Area, methodology and level must exist; each missing one gets the form's message. */
  async function referencias(input: { id_area: number; id_metodologia: number; id_nivel: string }) {
    const [[area], [metodologia], [nivel]] = await Promise.all([
      db.select({ id: areas.id }).from(areas).where(eq(areas.id, input.id_area)),
      db.select({ id: metodologias.id }).from(metodologias).where(eq(metodologias.id, input.id_metodologia)),
      db.select({ codigo: niveles.codigo }).from(niveles).where(eq(niveles.codigo, input.id_nivel)),
    ]);
    const errors: Record<string, string[]> = {};
    if (!area) errors.id_area = ['Debe seleccionar una area'];
    if (!metodologia) errors.id_metodologia = ['Debe seleccionar una metodologia'];
    if (!nivel) errors.id_nivel = ['Debe seleccionar un nivel'];
    const first = Object.values(errors)[0]?.[0];
    if (first) throw new ErrorDeDominio(400, first, { errors });
  }

  const procesar = createProcesoVideo(ctx);

  return {
    recursos,
    /** Whether the item is public now (issue 34): its files then answer without a session. */
    esPublico: (id: number) => esPublicoAhora(db, 'capsula', id),
    /** The video's job (registered by the runtime, services.server.ts). */
    trabajos: { [TRABAJO_HLS]: procesar },

    /** Ready capsules; hidden ones only for their author and admins. */
    async listar(f: FiltrosCapsulas, actor: Actor): Promise<Esquema<'CapsulaLista'>> {
      const lector = esAdmin(actor) ? 'admin' : (await tieneOcultas(actor.id)) ? actor.id : 'todos';
      const clave = JSON.stringify([lector, f.titulo, f.area, f.metodologia, f.nivel, f.pagina, f.tamano_pagina, f.order]);
      return paginas.leer(clave, () => leerPagina(f, lector === 'todos' ? { id: 0, groups: [] } : actor));
    },

    /** The author's capsules still processing or failed (admins may ask for anyone's). */
    async procesando(actor: Actor, idUsuario = actor.id): Promise<Esquema<'CapsulasProcesando'>> {
      exigirAutorOAdmin(actor, idUsuario);
      return enProceso.leer(String(idUsuario), async () => {
        const rows = await db
          .select({ id: capsulas.id })
          .from(capsulas)
          .where(and(eq(capsulas.id_usuario, idUsuario), inArray(capsulas.estado, ['procesando', 'error'])))
          .orderBy(desc(capsulas.fecha_creacion));
        return { capsulas: await componer(rows.map((r) => r.id)) };
      });
    },

    async obtener(id: number, actor: Actor, contarVisita = true): Promise<Capsula> {
      const row = await visible(id, actor);
      if (contarVisita && row.estado === 'listo') await recursos.visitar('capsula', id, actor.id);
      const [capsula] = await componer([id]);
      if (!capsula) throw new ErrorDeDominio(404, NO_ENCONTRADA);
      return capsula;
    },

    /** Admins only. The file must be a real, decodable video; nothing stays behind otherwise. */
    async crear(actor: Actor, input: CapsulaInput, archivo: UploadedFile | undefined): Promise<Capsula> {
      exigirAdmin(actor);
      if (!archivo || archivo.size === 0) throw new ErrorDeDominio(400, VIDEO_REQUERIDO, { errors: { archivo: [VIDEO_REQUERIDO] } });
      const invalido = () => new ErrorDeDominio(400, VIDEO_INVALIDO, { errors: { archivo: [VIDEO_INVALIDO] } });
      const extension = extensiones[await sniffFile(archivo.tmpPath)];
      if (!extension) throw invalido();
      const info = await probarVideo(archivo.tmpPath, video);
      if (!info) {
        // A file ffprobe refused, or an ffprobe that does not run: only the first is the teacher's.
        await ctx.herramientas.exigir('video');
        throw invalido();
      }
      await referencias(input);
      const publica = await publicacion.nueva(input);
      // The file first, under an id taken from the sequence, then the row that names it (reservarId).
      const id = await reservarId(db, capsulas);
      const keys = claves(id, extension);
      let guardada = false;
      try {
        await storage.adopt(keys.original, archivo.tmpPath);
        await db.insert(capsulas).values({
          id,
          titulo: input.titulo,
          descripcion: input.descripcion,
          extension,
          archivo: keys.original,
          tamano: archivo.size,
          duracion: info.duration,
          id_area: input.id_area,
          id_metodologia: input.id_metodologia,
          codigo_nivel: input.id_nivel,
          id_usuario: actor.id,
          ...publica,
        });
        guardada = true;
        await ctx.jobs.enqueue(TRABAJO_HLS, { id }, { maxIntentos: 3 });
      } catch (error) {
        if (guardada) await db.delete(capsulas).where(eq(capsulas.id, id));
        await storage.remove(keys.carpeta);
        throw error;
      }
      ctx.log.info('capsule uploaded', { capsulaId: id, userId: actor.id, bytes: archivo.size, seconds: info.duration });
      const [capsula] = await componer([id]);
      if (!capsula) throw new Error('capsule vanished');
      return capsula;
    },

    async editar(actor: Actor, input: CapsulaEdicionInput): Promise<void> {
      const row = await visible(input.id, actor);
      exigirAutorOAdmin(actor, row.id_usuario);
      await referencias(input);
      await db
        .update(capsulas)
        .set({
          titulo: input.titulo,
          descripcion: input.descripcion,
          id_area: input.id_area,
          id_metodologia: input.id_metodologia,
          codigo_nivel: input.id_nivel,
          ...publicacion.editada(input, row),
        })
        .where(eq(capsulas.id, row.id));
    },

    /** Removes the capsule, its comments and likes (cascade), its views, the original and renditions. */
    async eliminar(actor: Actor, id: number): Promise<string> {
      const row = await visible(id, actor);
      exigirAutorOAdmin(actor, row.id_usuario);
      await db.transaction(async (tx) => {
        await recursos.olvidar('capsula', id, tx);
        await tx.delete(capsulas).where(eq(capsulas.id, id));
      });
      await storage.remove(claves(id).carpeta);
      ctx.log.info('capsule deleted', { capsulaId: id, userId: actor.id });
      return row.titulo;
    },

    async original(id: number, actor: Actor) {
      const row = await visible(id, actor);
      return { key: row.archivo, nombre: `${row.titulo}.${row.extension}`, licencia: row.licencia };
    },

    /** The light version (a 234p MP4), once the video job has made it: the same people as the original. */
    async liviana(id: number, actor: Actor) {
      const row = await visible(id, actor);
      if (row.tamano_liviana === null) throw new ErrorDeDominio(404, LIVIANA_NO_DISPONIBLE);
      return { key: claves(id).liviana, nombre: `${row.titulo} (liviana).mp4`, licencia: row.licencia };
    },

    /** A playlist or segment of a ready capsule. */
    async streaming(id: number, archivo: string, actor: Actor) {
      const row = await visible(id, actor);
      if (row.estado !== 'listo' || !/^[A-Za-z0-9_-]+\.(m3u8|ts)$/.test(archivo)) throw new ErrorDeDominio(404, NO_ENCONTRADA);
      return { key: `${claves(id).hls}/${archivo}`, tipo: archivo.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t' };
    },

    async poster(id: number, actor: Actor): Promise<string | null> {
      await visible(id, actor);
      const key = claves(id).poster;
      return (await storage.size(key)) ? key : null;
    },

    /** Capsules by id, in that order, with no visibility check: the caller chose the ids. */
    porIds: componer,

    limiteBytes: () => ctx.config.MAX_VIDEO_MB * 1024 * 1024,
  };
}

export type CapsulasService = ReturnType<typeof createCapsulasService>;
