/**
 * The teacher library (docs/SPEC.md sections 2-9,): classroom materials aligned to the
 * curriculum. Every teacher uploads (pdf, Word, Excel, PowerPoint, checked from the bytes); the
 * author (and admins) edit and delete; everyone searches by text, type, level, area, unit and OA.
 */
import path from 'node:path';
import { and, eq, exists, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Esquema } from '../../api/contrato.ts';
import { NOMBRES_FAMILIA } from '../../validation/archivos.ts';
import {
  type CoberturaInput,
  EXTENSIONES_MATERIAL,
  extensionDe,
  MATERIAL_INVALIDO,
  MATERIAL_REQUERIDO,
  type MaterialEdicionInput,
  type MaterialInput,
} from '../../validation/biblioteca.ts';
import type { UploadedFile } from '../archivo-recibido.server.ts';
import { filasDe, reservarId } from '../db/client.server.ts';
import type { Conteos } from '../db/conteos.server.ts';
import { calificada, enAlias, listaJson, unoDe } from '../db/fragmentos.server.ts';
import { paginaDeIds } from '../db/paginar.server.ts';
import { areas, materiales, materialesOas, niveles, oas, tiposMaterial, unidades, usuarios } from '../db/schema.server.ts';
import { coincideBusqueda } from '../db/search.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { miniaturasPdf, TRABAJO_MINIATURAS } from '../media/miniaturas.server.ts';
import { contarPaginas } from '../media/pdf.server.ts';
import type { Etiqueta } from '../media/placeholder.server.ts';
import { sniffFile } from '../media/sniff.server.ts';
import { conDirectorioTrabajo } from '../media/trabajo.server.ts';
import { type Actor, exigirAutorOAdmin } from './actor.server.ts';
import { coherencia } from './biblioteca/coherencia.server.ts';
import { crearCobertura } from './cobertura.server.ts';
import type { ServiceContext } from './context.server.ts';
import { nivelParaDocente, nombreDeNiveles } from './curriculo/niveles.server.ts';
import type { PublicacionService } from './publicacion.server.ts';
import { esPublicoAhora } from './publicos.server.ts';
import { autorColumns, createRecursosService, lectorDe, likesEnFila, toAutor, visibleA } from './recursos.server.ts';
import { avisarNovedad } from './seguimientos/avisos.server.ts';

export const NO_ENCONTRADO = 'No se encontró material';

export type OA = Esquema<'OA'>;
export type Material = Esquema<'MaterialDocente'>;

export interface FiltrosMateriales {
  titulo?: string | undefined;
  tipo_material_docente?: number | undefined;
  id_nivel?: string | undefined;
  id_area?: number | undefined;
  id_unidad?: number | undefined;
  oa?: number | undefined;
  pagina: number;
  tamano_pagina: number;
  order: 'fecha' | 'n_visitas';
}

const claves = (id: number, extension: string) => ({
  carpeta: `materiales/${id}`,
  archivo: `materiales/${id}/material.${extension}`,
  miniatura: `materiales/${id}/miniatura.jpg`,
});
export const etiquetaDe = (extension: string): Etiqueta =>
  NOMBRES_FAMILIA[EXTENSIONES_MATERIAL[extension as keyof typeof EXTENSIONES_MATERIAL] ?? 'pdf'];

/**
 * A material's OAs in code order, as a column of the query that reads it: read per material
 * through the keys, not by joining every OA of the curriculum to the page (a hash of all of them
 * per page, 0.8 ms of a 1 ms query at 10x). Retired OAs stay on their materials, marked 'No
 * vigente' (issue 30).
 */
const oasEnFila = (id: PgColumn) => {
  const [mo, o, u] = [enAlias('mo'), enAlias('o'), enAlias('u')];
  return listaJson<OA>(
    sql`json_build_object('id', ${o(oas.id)}, 'codigo', ${o(oas.codigo)}, 'descripcion', ${o(oas.descripcion)}, 'unidad', ${o(oas.unidad)}, 'vigente', ${o(oas.vigente)} and ${u(unidades.vigente)})`,
    o(oas.codigo),
    sql`from ${materialesOas} mo join ${oas} o on ${o(oas.id)} = ${mo(materialesOas.id_oa)} join ${unidades} u on ${u(unidades.id)} = ${o(oas.unidad)} where ${mo(materialesOas.id_material)} = ${calificada(id)}`,
  );
};

export function createBibliotecaService(
  ctx: ServiceContext,
  { publicacion, conteos }: { publicacion: PublicacionService; conteos: Conteos },
) {
  const { db, storage } = ctx;
  const recursos = createRecursosService(db, ctx.now);
  const mapa = crearCobertura(db, conteos, ctx.now);

  /**
   * What every reader sees of one OA's materials with no other filter (its page, the map's link,
   * the filter; decision 0081 amended): its rows in materiales_oas, an index-only read, less the
   * hidden materials among them (through materiales_ocultos_idx) unless the reader is an admin.
   * Counted from the materials it took 400 ms at 100x for an OA of 30,000 of them; so, 3.5 ms.
   */
  const comunDeOa = (oa: number, sinOcultos: boolean) => ({
    clave: `oa ${oa}${sinOcultos ? ' sin ocultos' : ''}`,
    async contar() {
      const ocultos = sql` - (select count(*) from ${materiales} m join ${materialesOas} mo on mo.id_material = m.id and mo.id_oa = ${oa} where m.oculto)`;
      const [fila] = await filasDe<{ n: number }>(
        db,
        sql`select ((select count(*) from ${materialesOas} where ${materialesOas.id_oa} = ${oa})${sinOcultos ? ocultos : sql``})::int as n`,
      );
      return Number(fila?.n ?? 0);
    },
  });

  /** Materials by id, each with its OAs and likes, in one prepared statement (issue 36). */
  const leerMateriales = db
    .select({
      m: materiales,
      area: { id: areas.id, nombre: areas.nombre },
      nivel: { codigo: niveles.codigo, nombre: niveles.nombre },
      unidad: { id: unidades.id, codigo: unidades.codigo, nombre: unidades.nombre },
      tipo: { id: tiposMaterial.id, nombre: tiposMaterial.nombre },
      autor: autorColumns,
      oas: oasEnFila(materiales.id),
      likes: likesEnFila('material', materiales.id),
    })
    .from(materiales)
    .innerJoin(areas, eq(areas.id, materiales.id_area))
    .innerJoin(niveles, eq(niveles.codigo, materiales.codigo_nivel))
    .innerJoin(unidades, eq(unidades.id, materiales.id_unidad))
    .innerJoin(tiposMaterial, eq(tiposMaterial.id, materiales.id_tipo_material))
    .innerJoin(usuarios, eq(usuarios.id, materiales.id_usuario))
    .where(unoDe(materiales.id, 'ids'))
    .prepare('leer_materiales');

  async function componer(ids: number[]): Promise<Material[]> {
    if (ids.length === 0) return [];
    const rows = await leerMateriales.execute({ ids });
    const byId = new Map(rows.map((r) => [r.m.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      return [
        {
          id,
          titulo: r.m.titulo,
          descripcion: r.m.descripcion,
          extension: r.m.extension,
          archivo: `/api/bdocente/${id}/descargar/`,
          id_area: r.area,
          id_nivel: r.nivel,
          id_unidad: r.unidad,
          oas: r.oas,
          tipo_material_docente: r.tipo,
          id_usuario: toAutor(r.autor),
          fecha_creacion: r.m.fecha_creacion.toISOString(),
          n_visitas: r.m.n_visitas,
          likes: r.likes,
          comentarios: r.m.n_comentarios,
          tamano: r.m.tamano,
          paginas: r.m.paginas,
          oculto: r.m.oculto,
          licencia: r.m.licencia,
          visibilidad: r.m.visibilidad,
        },
      ];
    });
  }

  /** A PDF's first page as the thumbnails; without them the pages show the type's picture, so the upload stands. */
  async function miniaturas(id: number, pdf: string, jpg: string) {
    try {
      if (!(await miniaturasPdf(pdf, jpg, ctx.herramientas.herramientas.pdf)))
        ctx.log.warn('material thumbnails not made: the PDF reader could not render page 1', { materialId: id });
    } catch (error) {
      ctx.log.warn('material thumbnails failed', { materialId: id, error });
    }
  }

  /** The row, if this person may see it (a hidden one is its author's and admins' only). */
  async function fila(id: number, actor: Actor) {
    const [row] = await db
      .select()
      .from(materiales)
      .where(and(eq(materiales.id, id), visibleA(actor, materiales)));
    if (!row) throw new ErrorDeDominio(404, NO_ENCONTRADO);
    return row;
  }

  return {
    recursos,
    /** Whether the item is public now (issue 34): its files then answer without a session. */
    esPublico: (id: number) => esPublicoAhora(db, 'material', id),

    async listar(f: FiltrosMateriales, actor: Actor): Promise<Esquema<'MaterialLista'>> {
      const otros = and(
        coincideBusqueda(materiales, f.titulo),
        f.tipo_material_docente ? eq(materiales.id_tipo_material, f.tipo_material_docente) : undefined,
        f.id_nivel ? eq(materiales.codigo_nivel, f.id_nivel) : undefined,
        f.id_area ? eq(materiales.id_area, f.id_area) : undefined,
        f.id_unidad ? eq(materiales.id_unidad, f.id_unidad) : undefined,
      );
      const porOa = f.oa
        ? exists(
            db
              .select()
              .from(materialesOas)
              .where(and(eq(materialesOas.id_material, materiales.id), eq(materialesOas.id_oa, f.oa))),
          )
        : undefined;
      const filtro = and(otros, porOa);
      const lector = lectorDe(actor);
      const { ids, num_pages, num_results } = await paginaDeIds(db, materiales, and(visibleA(actor, materiales), filtro), f, () =>
        conteos.total({
          tabla: 'materiales',
          filtro,
          lector,
          ...(f.oa && !otros ? { comun: comunDeOa(f.oa, lector !== undefined) } : {}),
        }),
      );
      return { material: await componer(ids), num_pages, num_results };
    },

    /** An OA by its official code ('MA04 OA 03'); `nivel.codigo` is the one `idDocente` teaches (nivelParaDocente) when named. */
    async oaPorCodigo(codigo: string, idDocente?: number) {
      const [row] = await db
        .select({
          id: oas.id,
          codigo: oas.codigo,
          descripcion: oas.descripcion,
          vigente: sql<boolean>`(${oas.vigente} and ${unidades.vigente})`,
          unidad: { id: unidades.id, nombre: unidades.nombre },
          area: { id: areas.id, nombre: areas.nombre },
          nivel: { codigo: idDocente === undefined ? niveles.codigo : nivelParaDocente(idDocente), nombre: nombreDeNiveles },
        })
        .from(oas)
        .innerJoin(unidades, eq(unidades.id, oas.unidad))
        .innerJoin(areas, eq(areas.id, unidades.id_area))
        .innerJoin(niveles, eq(niveles.codigo, unidades.codigo_nivel))
        .where(eq(oas.codigo, codigo));
      return row ?? null;
    },

    async obtener(id: number, actor: Actor, contarVisita = true): Promise<Material> {
      await fila(id, actor);
      if (contarVisita) await recursos.visitar('material', id, actor.id);
      const [material] = await componer([id]);
      if (!material) throw new ErrorDeDominio(404, NO_ENCONTRADO);
      return material;
    },

    /** Any teacher. The name's extension must be allowed and the bytes must be of that family. */
    async crear(actor: Actor, input: MaterialInput, archivo: UploadedFile | undefined): Promise<Material> {
      if (!archivo || archivo.size === 0) throw new ErrorDeDominio(400, MATERIAL_REQUERIDO, { errors: { archivo: [MATERIAL_REQUERIDO] } });
      const invalido = () => new ErrorDeDominio(400, MATERIAL_INVALIDO, { errors: { archivo: [MATERIAL_INVALIDO] } });
      const extension = extensionDe(archivo.filename);
      if (!extension) throw invalido();
      const familia = EXTENSIONES_MATERIAL[extension];
      const sniffed = await sniffFile(archivo.tmpPath);
      const legacy = extension === 'doc' || extension === 'xls' || extension === 'ppt';
      if (!(sniffed === familia || (legacy && sniffed === 'office-legacy'))) throw invalido();
      const paginas = familia === 'pdf' ? await contarPaginas(archivo.tmpPath, ctx.herramientas.herramientas.pdf) : null;
      if (familia === 'pdf' && paginas === null) {
        // A file the PDF reader refused, or a reader that does not run: only the first is the teacher's.
        await ctx.herramientas.exigir('pdf');
        throw invalido();
      }
      await coherencia(db, input);
      const publica = await publicacion.nueva(input);

      // Files first, under an id taken from the sequence, then the row that names them (reservarId).
      const id = await reservarId(db, materiales);
      const keys = claves(id, extension);
      try {
        // Thumbnails from the upload itself, into a work folder adopted with the file: no storage path is read.
        await conDirectorioTrabajo(storage.tempDir, TRABAJO_MINIATURAS, async (trabajo) => {
          if (familia === 'pdf') await miniaturas(id, archivo.tmpPath, path.join(trabajo, path.posix.basename(keys.miniatura)));
          await storage.adopt(keys.archivo, archivo.tmpPath);
          await storage.adoptDir(keys.carpeta, trabajo);
        });
        await db.transaction(async (tx) => {
          await tx.insert(materiales).values({
            id,
            titulo: input.titulo,
            descripcion: input.descripcion,
            extension,
            archivo: keys.archivo,
            tamano: archivo.size,
            paginas,
            id_area: input.id_area,
            codigo_nivel: input.id_nivel,
            id_unidad: input.id_unidad,
            id_tipo_material: input.tipo_material_docente,
            id_usuario: actor.id,
            ...publica,
          });
          await tx.insert(materialesOas).values(input.oas.map((id_oa) => ({ id_material: id, id_oa })));
        });
      } catch (error) {
        await storage.remove(keys.carpeta);
        throw error;
      }
      ctx.log.info('material created', { materialId: id, userId: actor.id, bytes: archivo.size, extension });
      await avisarNovedad(ctx, { tipo: 'material', id });
      return this.obtener(id, actor, false);
    },

    async editar(actor: Actor, input: MaterialEdicionInput): Promise<void> {
      const row = await fila(input.id, actor);
      exigirAutorOAdmin(actor, row.id_usuario);
      const actuales = await db.select({ id: materialesOas.id_oa }).from(materialesOas).where(eq(materialesOas.id_material, row.id));
      await coherencia(db, input, { id_unidad: row.id_unidad, oas: actuales.map((o) => o.id) });
      const publica = publicacion.editada(input, row);
      await db.transaction(async (tx) => {
        await tx
          .update(materiales)
          .set({
            titulo: input.titulo,
            descripcion: input.descripcion,
            id_area: input.id_area,
            codigo_nivel: input.id_nivel,
            id_unidad: input.id_unidad,
            id_tipo_material: input.tipo_material_docente,
            ...publica,
          })
          .where(eq(materiales.id, row.id));
        await tx.delete(materialesOas).where(eq(materialesOas.id_material, row.id));
        await tx.insert(materialesOas).values(input.oas.map((id_oa) => ({ id_material: row.id, id_oa })));
      });
    },

    async eliminar(actor: Actor, id: number): Promise<string> {
      const row = await fila(id, actor);
      exigirAutorOAdmin(actor, row.id_usuario);
      await db.transaction(async (tx) => {
        await recursos.olvidar('material', id, tx);
        await tx.delete(materiales).where(eq(materiales.id, id));
      });
      await storage.remove(claves(id, row.extension).carpeta);
      ctx.log.info('material deleted', { materialId: id, userId: actor.id });
      return row.titulo;
    },

    async archivo(id: number, actor: Actor) {
      const row = await fila(id, actor);
      return { key: row.archivo, nombre: `${row.titulo}.${row.extension}`, licencia: row.licencia };
    },

    /** The first-page thumbnail of a PDF, or the type picture for Office files. */
    async miniatura(id: number, actor: Actor): Promise<{ key: string } | { etiqueta: Etiqueta }> {
      const row = await fila(id, actor);
      const key = claves(id, row.extension).miniatura;
      return (await storage.size(key)) ? { key } : { etiqueta: etiquetaDe(row.extension) };
    },

    /** Materials by id, in that order. */
    porIds: componer,

    /** The curriculum map's counts for an area (issue 21): what each matching list shows this person. */
    cobertura: (input: CoberturaInput, actor: Actor) => mapa.cobertura(actor, input),

    /** The map's area choices and its default area for this person. */
    areasDelMapa: mapa.areasDelMapa,

    limiteBytes: () => ctx.config.MAX_MATERIAL_MB * 1024 * 1024,
  };
}

export type BibliotecaService = ReturnType<typeof createBibliotecaService>;
