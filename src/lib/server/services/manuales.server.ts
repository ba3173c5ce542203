/**
 * Pedagogical manuals (docs/SPEC.md sections 2, 5, 6, 7): PDFs uploaded by admins, listed and searched
 * by everyone, edited and deleted by their owner (and admins, for moderation).
 */
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { MANUAL_INVALIDO, MANUAL_REQUERIDO, type ManualEdicionInput, type ManualInput } from '../../validation/manuales.ts';
import type { UploadedFile } from '../archivo-recibido.server.ts';
import { reservarId } from '../db/client.server.ts';
import type { Conteos } from '../db/conteos.server.ts';
import { unoDe } from '../db/fragmentos.server.ts';
import { paginaDeIds } from '../db/paginar.server.ts';
import { areas, manuales, usuarios } from '../db/schema.server.ts';
import { coincideTexto } from '../db/search.server.ts';
import { ErrorDeDominio, noAutenticado } from '../errores.server.ts';
import { miniaturasPdf, TRABAJO_MINIATURAS } from '../media/miniaturas.server.ts';
import { contarPaginas } from '../media/pdf.server.ts';
import { sniffFile } from '../media/sniff.server.ts';
import { conDirectorioTrabajo } from '../media/trabajo.server.ts';
import { type Actor, exigirAdmin, exigirAutorOAdmin } from './actor.server.ts';
import { areaPorNombre } from './catalogos.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { PublicacionService } from './publicacion.server.ts';
import { esPublicoAhora } from './publicos.server.ts';
import { autorColumns, createRecursosService, lectorDe, likesEnFila, toAutor, visibleA } from './recursos.server.ts';
import { avisarNovedad } from './seguimientos/avisos.server.ts';

export const NO_ENCONTRADO = 'No se encontró manual';

export type Manual = Esquema<'Manual'>;

export interface FiltrosManuales {
  titulo?: string | undefined;
  area?: number | undefined;
  pagina: number;
  tamano_pagina: number;
  order: 'fecha' | 'n_visitas';
}

const clave = (id: number) => ({
  archivo: `manuales/${id}/manual.pdf`,
  miniatura: `manuales/${id}/miniatura.jpg`,
  carpeta: `manuales/${id}`,
});

export function createManualesService(
  ctx: ServiceContext,
  { publicacion, conteos }: { publicacion: PublicacionService; conteos: Conteos },
) {
  const { db, storage } = ctx;
  const recursos = createRecursosService(db, ctx.now);

  /** Manuals by id, each with its likes, in one prepared statement (issue 36). */
  const leerManuales = db
    .select({
      m: manuales,
      area: { id: areas.id, codigo: areas.codigo, nombre: areas.nombre },
      autor: autorColumns,
      likes: likesEnFila('manual', manuales.id),
    })
    .from(manuales)
    .innerJoin(areas, eq(areas.id, manuales.id_area))
    .innerJoin(usuarios, eq(usuarios.id, manuales.id_usuario))
    .where(unoDe(manuales.id, 'ids'))
    .prepare('leer_manuales');

  async function componer(ids: number[]): Promise<Manual[]> {
    if (ids.length === 0) return [];
    const rows = await leerManuales.execute({ ids });
    const byId = new Map(rows.map((r) => [r.m.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      return [
        {
          id: r.m.id,
          titulo: r.m.titulo,
          autor: r.m.autor,
          descripcion: r.m.descripcion,
          id_area: r.area,
          id_usuario: toAutor(r.autor),
          n_visitas: r.m.n_visitas,
          fecha_creacion: r.m.fecha_creacion.toISOString(),
          comentarios: r.m.n_comentarios,
          likes: r.likes,
          // Manuals are PDFs only (crear refuses anything else).
          extension: 'pdf',
          archivo: `/api/manuales/${id}/descargar/`,
          tamano: r.m.tamano,
          paginas: r.m.paginas,
          oculto: r.m.oculto,
          licencia: r.m.licencia,
          visibilidad: r.m.visibilidad,
        },
      ];
    });
  }

  /** The first page as the thumbnails; without them the pages show a placeholder, so the upload stands. */
  async function miniaturas(id: number, pdf: string, jpg: string) {
    try {
      if (!(await miniaturasPdf(pdf, jpg, ctx.herramientas.herramientas.pdf)))
        ctx.log.warn('manual thumbnails not made: the PDF reader could not render page 1', { manualId: id });
    } catch (error) {
      ctx.log.warn('manual thumbnails failed', { manualId: id, error });
    }
  }

  /** The row, if this person may see it (a hidden one is its author's and admins' only). */
  async function fila(id: number, actor: Actor) {
    const [row] = await db
      .select()
      .from(manuales)
      .where(and(eq(manuales.id, id), visibleA(actor, manuales)));
    if (!row) throw new ErrorDeDominio(404, NO_ENCONTRADO);
    return row;
  }

  async function areaValida(id: number): Promise<number> {
    const [row] = await db.select({ id: areas.id }).from(areas).where(eq(areas.id, id));
    if (!row) throw new ErrorDeDominio(400, 'Debe ingresar una area', { errors: { id_area: ['Debe ingresar una area'] } });
    return row.id;
  }

  return {
    recursos,
    /** Whether the item is public now (issue 34): its files then answer without a session. */
    esPublico: (id: number) => esPublicoAhora(db, 'manual', id),

    async listar(f: FiltrosManuales, actor: Actor): Promise<Esquema<'ManualLista'>> {
      const filtro = and(
        coincideTexto([manuales.titulo, manuales.descripcion], f.titulo),
        f.area ? eq(manuales.id_area, f.area) : undefined,
      );
      // The total kept per version for every reader, plus their own hidden ones (decision 0081).
      const { ids, num_pages, num_results } = await paginaDeIds(db, manuales, and(visibleA(actor, manuales), filtro), f, () =>
        conteos.total({ tabla: 'manuales', filtro, lector: lectorDe(actor) }),
      );
      return { manuales: await componer(ids), num_pages, num_results };
    },

    /** One manual this person may see; the view is counted (once per person per visit) unless `contarVisita` is false. */
    async obtener(id: number, actor: Actor, contarVisita = true): Promise<Manual> {
      await fila(id, actor);
      if (contarVisita) await recursos.visitar('manual', id, actor.id);
      const [manual] = await componer([id]);
      if (!manual) throw new ErrorDeDominio(404, NO_ENCONTRADO);
      return manual;
    },

    /** Admins only. The file must be a real PDF that poppler can read; nothing stays behind otherwise. */
    async crear(actor: Actor, input: ManualInput, archivo: UploadedFile | undefined): Promise<Manual> {
      exigirAdmin(actor);
      if (!archivo || archivo.size === 0) throw new ErrorDeDominio(400, MANUAL_REQUERIDO, { errors: { archivo: [MANUAL_REQUERIDO] } });
      const invalido = () => new ErrorDeDominio(400, MANUAL_INVALIDO, { errors: { archivo: [MANUAL_INVALIDO] } });
      if ((await sniffFile(archivo.tmpPath)) !== 'pdf') throw invalido();
      const paginas = await contarPaginas(archivo.tmpPath, ctx.herramientas.herramientas.pdf);
      if (paginas === null) {
        // A file the PDF reader refused, or a reader that does not run: only the first is the teacher's.
        await ctx.herramientas.exigir('pdf');
        throw invalido();
      }
      const idArea = await areaValida(input.id_area);
      const publica = await publicacion.nueva(input);
      const [autor] = await db.select(autorColumns).from(usuarios).where(eq(usuarios.id, actor.id));
      if (!autor) throw noAutenticado();

      // Files first, under an id taken from the sequence, then the row that names them (reservarId).
      const id = await reservarId(db, manuales);
      const keys = clave(id);
      try {
        // Thumbnails from the upload itself, into a work folder adopted with the file: no storage path is read.
        await conDirectorioTrabajo(storage.tempDir, TRABAJO_MINIATURAS, async (trabajo) => {
          await miniaturas(id, archivo.tmpPath, path.join(trabajo, path.posix.basename(keys.miniatura)));
          await storage.adopt(keys.archivo, archivo.tmpPath);
          await storage.adoptDir(keys.carpeta, trabajo);
        });
        await db.insert(manuales).values({
          id,
          titulo: input.titulo,
          descripcion: input.descripcion,
          id_area: idArea,
          autor: `${autor.primer_nombre} ${autor.apellido_paterno}`.trim(),
          extension: 'pdf',
          archivo: keys.archivo,
          tamano: archivo.size,
          paginas,
          id_usuario: actor.id,
          ...publica,
        });
      } catch (error) {
        await storage.remove(keys.carpeta);
        throw error;
      }
      ctx.log.info('manual created', { manualId: id, userId: actor.id, bytes: archivo.size, pages: paginas });
      await avisarNovedad(ctx, { tipo: 'manual', id });
      return this.obtener(id, actor, false);
    },

    async editar(actor: Actor, input: ManualEdicionInput): Promise<void> {
      const row = await fila(input.id, actor);
      exigirAutorOAdmin(actor, row.id_usuario);
      const idArea =
        (await areaPorNombre(db, input.id_area)) ?? (/^\d+$/.test(input.id_area) ? await areaValida(Number(input.id_area)) : undefined);
      if (idArea === undefined)
        throw new ErrorDeDominio(400, 'Debe ingresar una area', { errors: { id_area: ['Debe ingresar una area'] } });
      await db
        .update(manuales)
        .set({ titulo: input.titulo, descripcion: input.descripcion, id_area: idArea, ...publicacion.editada(input, row) })
        .where(eq(manuales.id, row.id));
    },

    /** Removes the manual with its comments, likes (cascade), its views and files. */
    async eliminar(actor: Actor, id: number): Promise<string> {
      const row = await fila(id, actor);
      exigirAutorOAdmin(actor, row.id_usuario);
      await db.transaction(async (tx) => {
        await recursos.olvidar('manual', id, tx);
        await tx.delete(manuales).where(eq(manuales.id, id));
      });
      await storage.remove(clave(id).carpeta);
      ctx.log.info('manual deleted', { manualId: id, userId: actor.id });
      return row.titulo;
    },

    async archivo(id: number, actor: Actor) {
      const row = await fila(id, actor);
      return { key: row.archivo, titulo: row.titulo, licencia: row.licencia };
    },

    async miniatura(id: number, actor: Actor): Promise<string | null> {
      await fila(id, actor);
      const key = clave(id).miniatura;
      return (await storage.size(key)) ? key : null;
    },

    /** Manuals by id, in that order. */
    porIds: componer,

    limiteBytes: () => ctx.config.MAX_MANUAL_MB * 1024 * 1024,
  };
}

export type ManualesService = ReturnType<typeof createManualesService>;
