/**
 * Forum categories (docs/SPEC.md sections 2, 4, 5 and 9): listed with counters that add up their
 * conversations, each with an image served from /miniaturas/categorias/. Admins create and edit
 * them; the image goes through the shared image pipeline and is stored in WebP and JPEG.
 */
import { Readable } from 'node:stream';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import { IMAGEN_INVALIDA, IMAGEN_REQUERIDA, type ListaCategoriasInput, type OrdenCategoria } from '../../../validation/foro.ts';
import { numPaginas } from '../../../validation/listas.ts';
import type { UploadedFile } from '../../archivo-recibido.server.ts';
import { cacheDeLecturas } from '../../db/cache.server.ts';
import { foroCategorias, foroComentarios, foroConversaciones, foroReaccionesConversacion } from '../../db/schema.server.ts';
import { coincideTexto } from '../../db/search.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { type ImagenCategoria, ImagenInvalida, procesarImagenCategoria } from '../../media/imagenes.server.ts';
import { type Actor, exigirAdmin } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { CATEGORIA_NO_ENCONTRADA, codigoError, type ForoComun, iso, porReaccion } from './comun.server.ts';

type CategoriaForo = Esquema<'CategoriaForo'>;
/** The multipart fields; the image arrives apart as an UploadedFile. */
type CategoriaNueva = Omit<Esquema<'CategoriaNueva'>, 'archivo'>;
type CategoriaEdicion = Omit<Esquema<'CategoriaEdicion'>, 'archivo'>;

const NOMBRE_USADO = 'Ya existe una categoria con ese nombre';
const nombreUsado = () => new ErrorDeDominio(400, NOMBRE_USADO, { errors: { nombre: [NOMBRE_USADO] } });
const imagenInvalida = () => new ErrorDeDominio(400, IMAGEN_INVALIDA, { errors: { archivo: [IMAGEN_INVALIDA] } });

/** A category's images live under one folder; each upload gets a new name, so caches refresh. */
const carpetaImagenes = (id: number) => `foro/categorias/${id}`;
const urlImagen = (id: number, base: string) => `/miniaturas/categorias/${id}/?v=${base.split('/').at(-1) ?? ''}`;

/** What a category's counters add up (leerCifras); a category without conversations has these. */
type Cifras = Pick<
  CategoriaForo,
  | 'fecha_primer_post'
  | 'fecha_ultimo_post'
  | 'n_conversaciones'
  | 'n_comentarios'
  | 'n_total_reacciones'
  | 'n_me_gusta'
  | 'n_gran_idea'
  | 'n_me_interesa'
  | 'n_lo_utilizare'
  | 'n_me_asombra'
>;
const SIN_CIFRAS: Cifras = {
  fecha_primer_post: null,
  fecha_ultimo_post: null,
  n_conversaciones: 0,
  n_comentarios: 0,
  n_total_reacciones: 0,
  n_me_gusta: 0,
  n_gran_idea: 0,
  n_me_interesa: 0,
  n_lo_utilizare: 0,
  n_me_asombra: 0,
};

/** Each order's key, largest (or newest) first; ties go to the newest category, then the highest id. Dates are ISO, so they compare as text. */
const ORDEN: Record<OrdenCategoria, (c: CategoriaForo) => number | string | null> = {
  fecha: (c) => c.fecha_creacion,
  fecha_primer_post: (c) => c.fecha_primer_post,
  fecha_ultimo_post: (c) => c.fecha_ultimo_post,
  n_conversaciones: (c) => c.n_conversaciones,
  n_comentarios: (c) => c.n_comentarios,
  n_visitas: (c) => c.n_visitas,
  n_total_reacciones: (c) => c.n_total_reacciones,
};
/** Ascending, null before anything (so last when descending, as 'desc nulls last'). */
const comparar = (a: number | string | null, b: number | string | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;

export function createCategoriasForo(ctx: ServiceContext, { categoriaVisible, visitar }: ForoComun) {
  const { db, storage } = ctx;

  /**
   * Each category's counters, the same for everyone: hidden conversations and comments count for no
   * one, nor do placeholders of deleted comments ('Comentario eliminado'). Two grouped reads of the
   * whole forum (issue 36: 130 ms at 20,000 conversations and 60,000 comments on PostgreSQL with a
   * third over every comment, before the conversations kept their count, drizzle/0020), so they
   * are kept until one of their tables is written (db/cambios; within 2 s for another server's).
   */
  async function leerCifras(): Promise<Map<number, Cifras>> {
    const rc = foroReaccionesConversacion.id_like;
    const visibles = eq(foroConversaciones.oculto, false);
    const [conv, reac] = await Promise.all([
      db
        .select({
          id: foroConversaciones.id_categoria,
          n: sql<number>`count(*)::int`,
          comentarios: sql<number>`coalesce(sum(${foroConversaciones.n_comentarios}), 0)::int`,
          primero: iso(sql`min(${foroConversaciones.fecha_creacion})`),
          ultimo: iso(sql`max(${foroConversaciones.fecha_creacion})`),
        })
        .from(foroConversaciones)
        .where(visibles)
        .groupBy(foroConversaciones.id_categoria),
      db
        .select({
          id: foroConversaciones.id_categoria,
          g: porReaccion(rc, 1),
          i: porReaccion(rc, 2),
          m: porReaccion(rc, 3),
          u: porReaccion(rc, 4),
          a: porReaccion(rc, 5),
          t: sql<number>`count(*)::int`,
        })
        .from(foroReaccionesConversacion)
        .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroReaccionesConversacion.id_conversacion))
        .where(visibles)
        .groupBy(foroConversaciones.id_categoria),
    ]);
    const cifras = new Map<number, Cifras>();
    const de = (id: number) => {
      const c = cifras.get(id) ?? { ...SIN_CIFRAS };
      cifras.set(id, c);
      return c;
    };
    for (const f of conv)
      Object.assign(de(f.id), {
        n_conversaciones: f.n,
        n_comentarios: f.comentarios,
        fecha_primer_post: f.primero,
        fecha_ultimo_post: f.ultimo,
      });
    for (const f of reac)
      Object.assign(de(f.id), {
        n_total_reacciones: f.t,
        n_me_gusta: f.g,
        n_gran_idea: f.i,
        n_me_interesa: f.m,
        n_lo_utilizare: f.u,
        n_me_asombra: f.a,
      });
    return cifras;
  }
  const cacheCifras = cacheDeLecturas<Map<number, Cifras>>(db, {
    tablas: [foroConversaciones, foroComentarios, foroReaccionesConversacion],
    segundos: 2,
    max: 1,
    now: ctx.now,
  });
  const cifras = () => cacheCifras.leer('todas', leerCifras);

  const aCategoria = (c: typeof foroCategorias.$inferSelect, todas: Map<number, Cifras>): CategoriaForo => ({
    id: c.id,
    nombre: c.nombre,
    descripcion: c.descripcion,
    activa: c.activa,
    archivo: urlImagen(c.id, c.archivo),
    fecha_creacion: c.fecha_creacion.toISOString(),
    n_visitas: c.n_visitas,
    ...(todas.get(c.id) ?? SIN_CIFRAS),
  });

  async function nombreLibre(nombre: string, excepto?: number) {
    const [row] = await db
      .select({ id: foroCategorias.id })
      .from(foroCategorias)
      .where(sql`lower(${foroCategorias.nombre}) = lower(${nombre})`);
    if (row && row.id !== excepto) throw nombreUsado();
  }

  async function procesarImagen(archivo: UploadedFile): Promise<ImagenCategoria> {
    try {
      return await procesarImagenCategoria(archivo.tmpPath);
    } catch (error) {
      if (error instanceof ImagenInvalida) throw imagenInvalida();
      throw error;
    }
  }

  /** Answers the stored images' common key (without extension), as kept in `archivo`. */
  async function guardarImagen(id: number, imagen: ImagenCategoria): Promise<string> {
    const base = `${carpetaImagenes(id)}/${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    await storage.write(`${base}.webp`, Readable.from(imagen.webp));
    await storage.write(`${base}.jpg`, Readable.from(imagen.jpg));
    return base;
  }

  async function borrarImagen(base: string) {
    await Promise.all([storage.remove(`${base}.webp`), storage.remove(`${base}.jpg`)]);
  }

  /** One category; with `visitar`, the view is counted (once per person per visit). */
  async function obtener(actor: Actor, id: number, opciones: { visitar?: boolean } = {}): Promise<CategoriaForo> {
    await categoriaVisible(actor, id);
    if (opciones.visitar) await visitar('categoria', id, actor);
    const [[fila], todas] = await Promise.all([db.select().from(foroCategorias).where(eq(foroCategorias.id, id)), cifras()]);
    if (!fila) throw new ErrorDeDominio(404, CATEGORIA_NO_ENCONTRADA);
    return aCategoria(fila, todas);
  }

  return {
    obtener,

    async listar(actor: Actor, f: ListaCategoriasInput): Promise<Esquema<'CategoriaLista'>> {
      if (f.get_for_edit) exigirAdmin(actor);
      // The normal view is what teachers see, for admins too; the edit view lists every category.
      const visible = f.get_for_edit ? undefined : eq(foroCategorias.activa, true);
      const where = and(visible, coincideTexto([foroCategorias.nombre, foroCategorias.descripcion], f.nombre));
      // Categories are few (an admin makes each): they are ordered and paged here, with their counters.
      const [filas, cuentas, todas] = await Promise.all([
        db.select().from(foroCategorias).where(where),
        cifras(),
        db.select({ nombre: foroCategorias.nombre }).from(foroCategorias).where(visible).orderBy(asc(foroCategorias.nombre)),
      ]);
      const clave = ORDEN[f.order];
      const categorias = filas
        .map((c) => aCategoria(c, cuentas))
        .sort((a, b) => comparar(clave(b), clave(a)) || comparar(b.fecha_creacion, a.fecha_creacion) || b.id - a.id);
      const num_results = categorias.length;
      return {
        categorias: categorias.slice((f.pagina - 1) * f.tamano_pagina, f.pagina * f.tamano_pagina),
        todas: todas.map((t) => t.nombre),
        num_pages: numPaginas(num_results, f.tamano_pagina),
        num_results,
      };
    },

    /** Admins only; the image must be a JPEG or PNG that decodes. Nothing stays behind on failure. */
    async crear(actor: Actor, input: CategoriaNueva, archivo: UploadedFile | undefined): Promise<CategoriaForo> {
      exigirAdmin(actor);
      if (!archivo || archivo.size === 0) throw new ErrorDeDominio(400, IMAGEN_REQUERIDA, { errors: { archivo: [IMAGEN_REQUERIDA] } });
      await nombreLibre(input.nombre);
      const imagen = await procesarImagen(archivo);
      let id: number;
      try {
        const [row] = await db
          .insert(foroCategorias)
          .values({ nombre: input.nombre, descripcion: input.descripcion, activa: input.activa, archivo: '', fecha_creacion: ctx.now() })
          .returning({ id: foroCategorias.id });
        if (!row) throw new Error('category not stored');
        id = row.id;
      } catch (error) {
        if (codigoError(error) === '23505') throw nombreUsado();
        throw error;
      }
      try {
        const base = await guardarImagen(id, imagen);
        await db.update(foroCategorias).set({ archivo: base }).where(eq(foroCategorias.id, id));
      } catch (error) {
        await db.delete(foroCategorias).where(eq(foroCategorias.id, id));
        await storage.remove(carpetaImagenes(id));
        throw error;
      }
      ctx.log.info('forum category created', { categoriaId: id, userId: actor.id });
      return obtener(actor, id);
    },

    /** Admins only. A new image replaces the old one; without one the image stays. */
    async editar(actor: Actor, id: number, input: CategoriaEdicion, archivo: UploadedFile | undefined): Promise<void> {
      exigirAdmin(actor);
      const actual = await categoriaVisible(actor, id);
      await nombreLibre(input.nombre, id);
      const imagen = archivo && archivo.size > 0 ? await procesarImagen(archivo) : undefined;
      const base = imagen ? await guardarImagen(id, imagen) : undefined;
      try {
        await db
          .update(foroCategorias)
          .set({
            nombre: input.nombre,
            activa: input.activa,
            ...(input.descripcion !== undefined ? { descripcion: input.descripcion } : {}),
            ...(base ? { archivo: base } : {}),
          })
          .where(eq(foroCategorias.id, id));
      } catch (error) {
        if (base) await borrarImagen(base);
        if (codigoError(error) === '23505') throw nombreUsado();
        throw error;
      }
      if (base && actual.archivo) await borrarImagen(actual.archivo);
      ctx.log.info('forum category edited', { categoriaId: id, userId: actor.id, image: Boolean(base) });
    },

    /** The storage key of the image in the asked format, for categories the actor may see. */
    async imagen(actor: Actor, id: number, formato: 'webp' | 'jpg'): Promise<string> {
      const row = await categoriaVisible(actor, id);
      return `${row.archivo}.${formato}`;
    },

    limiteImagenBytes: () => ctx.config.MAX_IMAGEN_MB * 1024 * 1024,
  };
}
