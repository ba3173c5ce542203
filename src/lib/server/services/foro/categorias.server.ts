/**
 * Forum categories (docs/SPEC.md sections 2, 4, 5 and 9): listed with counters that add up their
 * conversations, each with an image served from /miniaturas/categorias/. Admins create and edit
 * them; the image goes through the shared image pipeline and is stored in WebP and JPEG.
 */
import { Readable } from 'node:stream';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import { IMAGEN_INVALIDA, IMAGEN_REQUERIDA, type ListaCategoriasInput, type OrdenCategoria } from '../../../validation/foro.ts';
import { numPaginas } from '../../../validation/listas.ts';
import type { UploadedFile } from '../../archivo-recibido.server.ts';
import { foroCategorias, foroComentarios, foroConversaciones, foroReaccionesConversacion } from '../../db/schema.server.ts';
import { coincideTexto } from '../../db/search.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { type ImagenCategoria, ImagenInvalida, procesarImagenCategoria } from '../../media/imagenes.server.ts';
import { type Actor, exigirAdmin } from '../actor.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { CATEGORIA_NO_ENCONTRADA, codigoError, entero, type ForoComun, iso, porReaccion } from './comun.server.ts';

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

export function createCategoriasForo(ctx: ServiceContext, { categoriaVisible, visitar }: ForoComun) {
  const { db, storage } = ctx;

  const conv = db
    .select({
      id_categoria: foroConversaciones.id_categoria,
      n: sql<number>`count(*)::int`.as('conv_n'),
      primero: sql`min(${foroConversaciones.fecha_creacion})`.as('conv_primero'),
      ultimo: sql`max(${foroConversaciones.fecha_creacion})`.as('conv_ultimo'),
    })
    .from(foroConversaciones)
    // Hidden conversations and comments count for no one (the counters are the same for everyone).
    .where(eq(foroConversaciones.oculto, false))
    .groupBy(foroConversaciones.id_categoria)
    .as('conv');
  const com = db
    .select({ id_categoria: foroConversaciones.id_categoria, n: sql<number>`count(*)::int`.as('com_n') })
    .from(foroComentarios)
    .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroComentarios.id_conversacion))
    // Placeholders of deleted comments ('Comentario eliminado') are not comments any more.
    .where(and(eq(foroComentarios.eliminado, false), eq(foroComentarios.oculto, false), eq(foroConversaciones.oculto, false)))
    .groupBy(foroConversaciones.id_categoria)
    .as('com');
  const rc = foroReaccionesConversacion.id_like;
  const reac = db
    .select({
      id_categoria: foroConversaciones.id_categoria,
      g: porReaccion(rc, 1).as('reac_g'),
      i: porReaccion(rc, 2).as('reac_i'),
      m: porReaccion(rc, 3).as('reac_m'),
      u: porReaccion(rc, 4).as('reac_u'),
      a: porReaccion(rc, 5).as('reac_a'),
      t: sql<number>`count(*)::int`.as('reac_t'),
    })
    .from(foroReaccionesConversacion)
    .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroReaccionesConversacion.id_conversacion))
    .where(eq(foroConversaciones.oculto, false))
    .groupBy(foroConversaciones.id_categoria)
    .as('reac');

  const orden: Record<OrdenCategoria, SQL[]> = {
    fecha: [sql`${foroCategorias.fecha_creacion} desc`],
    fecha_primer_post: [sql`${conv.primero} desc nulls last`],
    fecha_ultimo_post: [sql`${conv.ultimo} desc nulls last`],
    n_conversaciones: [sql`${entero(sql`${conv.n}`)} desc`],
    n_comentarios: [sql`${entero(sql`${com.n}`)} desc`],
    n_visitas: [sql`${foroCategorias.n_visitas} desc`],
    n_total_reacciones: [sql`${entero(sql`${reac.t}`)} desc`],
  };

  function consulta(where: SQL | undefined) {
    return db
      .select({
        c: foroCategorias,
        fecha_primer_post: iso(sql`${conv.primero}`),
        fecha_ultimo_post: iso(sql`${conv.ultimo}`),
        n_conversaciones: entero(sql`${conv.n}`),
        n_comentarios: entero(sql`${com.n}`),
        n_total_reacciones: entero(sql`${reac.t}`),
        n_me_gusta: entero(sql`${reac.g}`),
        n_gran_idea: entero(sql`${reac.i}`),
        n_me_interesa: entero(sql`${reac.m}`),
        n_lo_utilizare: entero(sql`${reac.u}`),
        n_me_asombra: entero(sql`${reac.a}`),
      })
      .from(foroCategorias)
      .leftJoin(conv, eq(conv.id_categoria, foroCategorias.id))
      .leftJoin(com, eq(com.id_categoria, foroCategorias.id))
      .leftJoin(reac, eq(reac.id_categoria, foroCategorias.id))
      .where(where);
  }

  const aCategoria = ({ c, ...n }: Awaited<ReturnType<typeof consulta>>[number]): CategoriaForo => ({
    id: c.id,
    nombre: c.nombre,
    descripcion: c.descripcion,
    activa: c.activa,
    archivo: urlImagen(c.id, c.archivo),
    fecha_creacion: c.fecha_creacion.toISOString(),
    n_visitas: c.n_visitas,
    ...n,
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
    const [fila] = await consulta(eq(foroCategorias.id, id));
    if (!fila) throw new ErrorDeDominio(404, CATEGORIA_NO_ENCONTRADA);
    return aCategoria(fila);
  }

  return {
    obtener,

    async listar(actor: Actor, f: ListaCategoriasInput): Promise<Esquema<'CategoriaLista'>> {
      if (f.get_for_edit) exigirAdmin(actor);
      // The normal view is what teachers see, for admins too; the edit view lists every category.
      const visible = f.get_for_edit ? undefined : eq(foroCategorias.activa, true);
      const where = and(visible, coincideTexto([foroCategorias.nombre, foroCategorias.descripcion], f.nombre));
      const [[total], filas, todas] = await Promise.all([
        db.select({ n: count() }).from(foroCategorias).where(where),
        consulta(where)
          .orderBy(...orden[f.order], desc(foroCategorias.fecha_creacion), desc(foroCategorias.id))
          .limit(f.tamano_pagina)
          .offset((f.pagina - 1) * f.tamano_pagina),
        db.select({ nombre: foroCategorias.nombre }).from(foroCategorias).where(visible).orderBy(asc(foroCategorias.nombre)),
      ]);
      const num_results = total?.n ?? 0;
      return {
        categorias: filas.map(aCategoria),
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
