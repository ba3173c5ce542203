/**
 * The forum (SPEC.md sections 2 to 9): categories with an image, conversations, comments nested
 * to any depth, and reactions (one row per person, reaction and target, so a double click or two
 * tabs never count twice). Every counter is derived from the rows in the same query that reads
 * it, so it is always true. Admins create and edit categories; inactive categories are hidden
 * from everyone else. Posting is rate limited per account.
 */
import { Readable } from 'node:stream';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import sharp from 'sharp';
import {
  type CategoriaEdicionInput,
  type CategoriaInput,
  type ConversacionInput,
  IMAGEN_INVALIDA,
  IMAGEN_REQUERIDA,
  type ListaCategoriasInput,
  type ListaConversacionesInput,
  type OrdenCategoria,
} from '../../validation/foro.ts';
import { numPaginas } from '../../validation/listas.ts';
import { ApiError } from '../api/errors.server.ts';
import { createRateLimiter, type Limit } from '../auth/rate-limit.server.ts';
import {
  foroCategorias,
  foroComentarios,
  foroConversaciones,
  foroReaccionesComentario,
  foroReaccionesConversacion,
  usuarios,
} from '../db/schema.server.ts';
import { coincideTexto } from '../db/search.server.ts';
import type { UploadedFile } from '../http/upload.server.ts';
import { renderMarkdown } from '../markdown.server.ts';
import { sniffFile } from '../media/sniff.server.ts';
import { type Actor, esAdmin, exigirAdmin } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';
import { type Autor, autorColumns, createRecursosService, toAutor } from './recursos.server.ts';
import { fotoUrl } from './usuarios.server.ts';

const CATEGORIA_NO_ENCONTRADA = 'No se encontró categoria';
const CONVERSACION_NO_ENCONTRADA = 'No se encontró conversación';
const COMENTARIO_NO_ENCONTRADO = 'No se encontró comentario';

/** Posting limits per account: enough for a lively discussion, too few to flood a category. */
const LIMITE_CONVERSACIONES: Limit = { max: 5, windowSeconds: 60 * 60 };
const LIMITE_COMENTARIOS: Limit = { max: 40, windowSeconds: 60 * 60 };

/** Category images are stored as a 640x360 crop (16:9), in WebP and in JPEG for old browsers. */
const IMAGEN = { ancho: 640, alto: 360, maxPixeles: 40_000_000 };

export type IdReaccion = 1 | 2 | 3 | 4 | 5;
export type IdReaccionComentario = 1 | 3;
export type Accion = 'like' | 'remove_like';

// Pages take the actor type from here.
export type { Actor };

export interface CategoriaForo {
  id: number;
  nombre: string;
  descripcion: string;
  activa: boolean;
  archivo: string;
  fecha_creacion: string;
  fecha_primer_post: string | null;
  fecha_ultimo_post: string | null;
  n_conversaciones: number;
  n_comentarios: number;
  n_total_reacciones: number;
  n_visitas: number;
  n_me_gusta: number;
  n_gran_idea: number;
  n_me_interesa: number;
  n_lo_utilizare: number;
  n_me_asombra: number;
}

interface Reacciones {
  n_me_gusta: number;
  n_gran_idea: number;
  n_me_interesa: number;
  n_lo_utilizare: number;
  n_me_asombra: number;
  n_total_reacciones: number;
}

export interface Conversacion extends Reacciones {
  id: number;
  id_categoria: number;
  titulo: string;
  contenido: string;
  n_visitas: number;
  n_comentarios: number;
  fecha_creacion: string;
  autor: { id: number; nombre: string; foto_perfil: string };
  id_usuario_creador: number;
}

export interface ComentarioForo {
  id: number;
  contenido: string;
  fecha_creacion: string;
  id_usuario: Autor;
  n_me_gusta: number;
  n_me_interesa: number;
  respuestas: ComentarioForo[];
}

export interface NuevaConversacion extends ConversacionInput {
  id_categoria: number;
}

export interface NuevoComentario {
  id_conversacion: number;
  id_categoria: number;
  contenido: string;
  comentario_padre: number | null;
}

const entero = (sqlText: SQL) => sql<number>`coalesce(${sqlText}, 0)::int`;
/** ISO 8601 in UTC, the same text on PGlite and PostgreSQL (drivers differ on timestamps). */
const iso = (column: SQL | typeof foroConversaciones.fecha_creacion) =>
  sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const porReaccion = (columna: AnyPgColumn, id: number) => sql<number>`(count(*) filter (where ${columna} = ${id}))::int`;

/** The PostgreSQL error code of a failed query (drivers and Drizzle wrap it in `cause`). */
function codigoError(error: unknown): string | undefined {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = 'cause' in e ? e.cause : undefined) {
    if ('code' in e && typeof e.code === 'string') return e.code;
  }
  return undefined;
}

export function createForoService(ctx: ServiceContext) {
  const { db, storage } = ctx;
  const recursos = createRecursosService(db, ctx.now);
  const limiter = createRateLimiter(db, ctx.now);

  // ── Categories ────────────────────────────────────────────────────────────────────────────────

  const conv = db
    .select({
      id_categoria: foroConversaciones.id_categoria,
      n: sql<number>`count(*)::int`.as('conv_n'),
      primero: sql`min(${foroConversaciones.fecha_creacion})`.as('conv_primero'),
      ultimo: sql`max(${foroConversaciones.fecha_creacion})`.as('conv_ultimo'),
    })
    .from(foroConversaciones)
    .groupBy(foroConversaciones.id_categoria)
    .as('conv');
  const com = db
    .select({ id_categoria: foroConversaciones.id_categoria, n: sql<number>`count(*)::int`.as('com_n') })
    .from(foroComentarios)
    .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroComentarios.id_conversacion))
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
    .groupBy(foroConversaciones.id_categoria)
    .as('reac');

  const ordenCategorias: Record<OrdenCategoria, SQL[]> = {
    fecha: [sql`${foroCategorias.fecha_creacion} desc`],
    fecha_primer_post: [sql`${conv.primero} desc nulls last`],
    fecha_ultimo_post: [sql`${conv.ultimo} desc nulls last`],
    n_conversaciones: [sql`${entero(sql`${conv.n}`)} desc`],
    n_comentarios: [sql`${entero(sql`${com.n}`)} desc`],
    n_visitas: [sql`${foroCategorias.n_visitas} desc`],
    n_total_reacciones: [sql`${entero(sql`${reac.t}`)} desc`],
  };

  function consultaCategorias(where: SQL | undefined) {
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

  type FilaCategoria = Awaited<ReturnType<typeof consultaCategorias>>[number];

  const aCategoria = ({ c, ...n }: FilaCategoria): CategoriaForo => ({
    id: c.id,
    nombre: c.nombre,
    descripcion: c.descripcion,
    activa: c.activa,
    archivo: `/miniaturas/categorias/${c.id}/?v=${c.archivo.split('/').at(-1) ?? ''}`,
    fecha_creacion: c.fecha_creacion.toISOString(),
    n_visitas: c.n_visitas,
    ...n,
  });

  /** Teachers see active categories only; admins see every one. */
  const visibles = (actor: Actor) => (esAdmin(actor) ? undefined : eq(foroCategorias.activa, true));

  async function categoriaVisible(actor: Actor, id: number) {
    const [row] = await db
      .select()
      .from(foroCategorias)
      .where(and(eq(foroCategorias.id, id), visibles(actor)));
    if (!row) throw new ApiError(404, CATEGORIA_NO_ENCONTRADA);
    return row;
  }

  async function nombreLibre(nombre: string, excepto?: number) {
    const [row] = await db
      .select({ id: foroCategorias.id })
      .from(foroCategorias)
      .where(sql`lower(${foroCategorias.nombre}) = lower(${nombre})`);
    if (row && row.id !== excepto) throw nombreUsado();
  }
  const nombreUsado = () =>
    new ApiError(400, 'Ya existe una categoria con ese nombre', { errors: { nombre: ['Ya existe una categoria con ese nombre'] } });

  /** The uploaded image, checked from its bytes and decoded, as the stored WebP and JPEG. */
  async function procesarImagen(archivo: UploadedFile): Promise<{ webp: Buffer; jpg: Buffer }> {
    const invalida = () => new ApiError(400, IMAGEN_INVALIDA, { errors: { archivo: [IMAGEN_INVALIDA] } });
    const tipo = await sniffFile(archivo.tmpPath);
    if (tipo !== 'jpeg' && tipo !== 'png') throw invalida();
    const recorte = () =>
      sharp(archivo.tmpPath, { limitInputPixels: IMAGEN.maxPixeles, failOn: 'error', animated: false })
        .rotate()
        .resize(IMAGEN.ancho, IMAGEN.alto, { fit: 'cover', position: 'attention' })
        .flatten({ background: '#ffffff' });
    try {
      const [webp, jpg] = await Promise.all([
        recorte().webp({ quality: 78 }).toBuffer(),
        recorte().jpeg({ quality: 80, mozjpeg: true }).toBuffer(),
      ]);
      return { webp, jpg };
    } catch {
      throw invalida();
    }
  }

  async function guardarImagen(id: number, imagen: { webp: Buffer; jpg: Buffer }): Promise<string> {
    const base = `foro/categorias/${id}/${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    await storage.write(`${base}.webp`, Readable.from(imagen.webp));
    await storage.write(`${base}.jpg`, Readable.from(imagen.jpg));
    return base;
  }

  async function borrarImagen(base: string) {
    await Promise.all([storage.remove(`${base}.webp`), storage.remove(`${base}.jpg`)]);
  }

  const categorias = {
    async listar(actor: Actor, f: ListaCategoriasInput) {
      if (f.get_for_edit) exigirAdmin(actor);
      // The normal view is what teachers see, for admins too; the edit view lists every category.
      const visible = f.get_for_edit ? undefined : eq(foroCategorias.activa, true);
      const where = and(visible, coincideTexto([foroCategorias.nombre, foroCategorias.descripcion], f.nombre));
      const [[total], filas, todas] = await Promise.all([
        db.select({ n: count() }).from(foroCategorias).where(where),
        consultaCategorias(where)
          .orderBy(...ordenCategorias[f.order], desc(foroCategorias.fecha_creacion), desc(foroCategorias.id))
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

    /** One category; with `visitar`, the view is counted (once per person per visit). */
    async obtener(actor: Actor, id: number, opciones: { visitar?: boolean } = {}): Promise<CategoriaForo> {
      await categoriaVisible(actor, id);
      if (opciones.visitar) await recursos.visitar('categoria', id, actor.id);
      const [fila] = await consultaCategorias(eq(foroCategorias.id, id));
      if (!fila) throw new ApiError(404, CATEGORIA_NO_ENCONTRADA);
      return aCategoria(fila);
    },

    /** Admins only; the image must be a JPEG or PNG that decodes. Nothing stays behind on failure. */
    async crear(actor: Actor, input: CategoriaInput, archivo: UploadedFile | undefined): Promise<CategoriaForo> {
      exigirAdmin(actor);
      if (!archivo || archivo.size === 0) throw new ApiError(400, IMAGEN_REQUERIDA, { errors: { archivo: [IMAGEN_REQUERIDA] } });
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
        await storage.remove(`foro/categorias/${id}`);
        throw error;
      }
      ctx.log.info('forum category created', { categoriaId: id, userId: actor.id });
      return this.obtener(actor, id);
    },

    /** Admins only. A new image replaces the old one; without one the image stays. */
    async editar(actor: Actor, id: number, input: CategoriaEdicionInput, archivo: UploadedFile | undefined): Promise<void> {
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

  // ── Conversations ─────────────────────────────────────────────────────────────────────────────

  async function conversacionVisible(actor: Actor, id: number) {
    const [row] = await db
      .select({ id: foroConversaciones.id, id_categoria: foroConversaciones.id_categoria })
      .from(foroConversaciones)
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(and(eq(foroConversaciones.id, id), visibles(actor)));
    if (!row) throw new ApiError(404, CONVERSACION_NO_ENCONTRADA);
    return row;
  }

  async function componerConversaciones(ids: number[]): Promise<Conversacion[]> {
    if (ids.length === 0) return [];
    const rc2 = foroReaccionesConversacion.id_like;
    const [filas, comentarios, reacciones] = await Promise.all([
      db
        .select({ c: foroConversaciones, autor: autorColumns })
        .from(foroConversaciones)
        .innerJoin(usuarios, eq(usuarios.id, foroConversaciones.id_usuario_creador))
        .where(inArray(foroConversaciones.id, ids)),
      db
        .select({ id: foroComentarios.id_conversacion, n: sql<number>`count(*)::int` })
        .from(foroComentarios)
        .where(inArray(foroComentarios.id_conversacion, ids))
        .groupBy(foroComentarios.id_conversacion),
      db
        .select({
          id: foroReaccionesConversacion.id_conversacion,
          g: porReaccion(rc2, 1),
          i: porReaccion(rc2, 2),
          m: porReaccion(rc2, 3),
          u: porReaccion(rc2, 4),
          a: porReaccion(rc2, 5),
        })
        .from(foroReaccionesConversacion)
        .where(inArray(foroReaccionesConversacion.id_conversacion, ids))
        .groupBy(foroReaccionesConversacion.id_conversacion),
    ]);
    const porId = new Map(filas.map((f) => [f.c.id, f]));
    return ids.flatMap((id) => {
      const f = porId.get(id);
      if (!f) return [];
      const r = reacciones.find((x) => x.id === id) ?? { g: 0, i: 0, m: 0, u: 0, a: 0 };
      return [
        {
          id,
          id_categoria: f.c.id_categoria,
          titulo: f.c.titulo,
          contenido: f.c.contenido,
          n_visitas: f.c.n_visitas,
          n_comentarios: comentarios.find((x) => x.id === id)?.n ?? 0,
          n_me_gusta: r.g,
          n_gran_idea: r.i,
          n_me_interesa: r.m,
          n_lo_utilizare: r.u,
          n_me_asombra: r.a,
          n_total_reacciones: r.g + r.i + r.m + r.u + r.a,
          fecha_creacion: f.c.fecha_creacion.toISOString(),
          autor: { id: f.autor.id, nombre: `${f.autor.primer_nombre} ${f.autor.apellido_paterno}`.trim(), foto_perfil: fotoUrl(f.autor) },
          id_usuario_creador: f.c.id_usuario_creador,
        },
      ];
    });
  }

  /** Counts one post against the account's limit; 429 with a Spanish sentence when it is over. */
  async function limitar(tipo: 'conversacion' | 'comentario', idUsuario: number) {
    const limite = tipo === 'conversacion' ? LIMITE_CONVERSACIONES : LIMITE_COMENTARIOS;
    const clave = `foro:${tipo}:${idUsuario}`;
    await limiter.hit(clave, limite);
    // The hit is atomic, so two posts at once cannot both slip under the limit.
    const segundos = await limiter.blockedFor(clave, { ...limite, max: limite.max + 1 });
    if (segundos === 0) return;
    const minutos = Math.max(1, Math.ceil(segundos / 60));
    const espera = `${minutos} ${minutos === 1 ? 'minuto' : 'minutos'}`;
    const detalle =
      tipo === 'conversacion'
        ? `Ha publicado demasiadas conversaciones en poco tiempo. Espere ${espera} antes de publicar otra.`
        : `Ha publicado demasiados comentarios en poco tiempo. Espere ${espera} antes de volver a comentar.`;
    throw new ApiError(429, detalle, {}, { 'Retry-After': String(segundos) });
  }

  const conversaciones = {
    async listar(actor: Actor, idCategoria: number, f: ListaConversacionesInput) {
      await categoriaVisible(actor, idCategoria);
      // Dates are days in Chile, inclusive at both ends.
      const dia = sql`(${foroConversaciones.fecha_creacion} at time zone 'America/Santiago')::date`;
      const where = and(
        eq(foroConversaciones.id_categoria, idCategoria),
        coincideTexto([foroConversaciones.titulo, foroConversaciones.contenido], f.palabra_clave),
        f.fecha_desde ? sql`${dia} >= ${f.fecha_desde}::date` : undefined,
        f.fecha_hasta ? sql`${dia} <= ${f.fecha_hasta}::date` : undefined,
      );
      const [[total], pagina] = await Promise.all([
        db.select({ n: count() }).from(foroConversaciones).where(where),
        db
          .select({ id: foroConversaciones.id })
          .from(foroConversaciones)
          .where(where)
          .orderBy(
            ...(f.order === 'n_visitas' ? [desc(foroConversaciones.n_visitas)] : []),
            desc(foroConversaciones.fecha_creacion),
            desc(foroConversaciones.id),
          )
          .limit(f.tamano_pagina)
          .offset((f.pagina - 1) * f.tamano_pagina),
      ]);
      const num_results = total?.n ?? 0;
      return {
        conversaciones: await componerConversaciones(pagina.map((p) => p.id)),
        num_pages: numPaginas(num_results, f.tamano_pagina),
        num_results,
      };
    },

    async crear(actor: Actor, input: NuevaConversacion): Promise<Conversacion> {
      const categoria = await categoriaVisible(actor, input.id_categoria);
      await limitar('conversacion', actor.id);
      const [row] = await db
        .insert(foroConversaciones)
        .values({
          id_categoria: categoria.id,
          id_usuario_creador: actor.id,
          titulo: input.titulo,
          contenido: renderMarkdown(input.contenido),
          fecha_creacion: ctx.now(),
        })
        .returning({ id: foroConversaciones.id });
      if (!row) throw new Error('conversation not stored');
      ctx.log.info('forum conversation created', { conversacionId: row.id, categoriaId: categoria.id, userId: actor.id });
      const [creada] = await componerConversaciones([row.id]);
      if (!creada) throw new Error('conversation not stored');
      return creada;
    },

    /** One conversation; with `visitar`, the view is counted (once per person per visit). */
    async obtener(actor: Actor, id: number, opciones: { visitar?: boolean } = {}): Promise<Conversacion> {
      await conversacionVisible(actor, id);
      if (opciones.visitar) await recursos.visitar('conversacion', id, actor.id);
      const [conversacion] = await componerConversaciones([id]);
      if (!conversacion) throw new ApiError(404, CONVERSACION_NO_ENCONTRADA);
      return conversacion;
    },

    async reaccionesUsuario(actor: Actor, id: number): Promise<number[]> {
      await conversacionVisible(actor, id);
      const filas = await db
        .select({ id_like: foroReaccionesConversacion.id_like })
        .from(foroReaccionesConversacion)
        .where(and(eq(foroReaccionesConversacion.id_conversacion, id), eq(foroReaccionesConversacion.id_usuario, actor.id)))
        .orderBy(asc(foroReaccionesConversacion.id_like));
      return filas.map((f) => f.id_like);
    },

    /** Idempotent: 'like' twice leaves one row. `contador` is that reaction's count afterwards. */
    async reaccionar(actor: Actor, id: number, idLike: IdReaccion, accion: Accion) {
      await conversacionVisible(actor, id);
      const t = foroReaccionesConversacion;
      const fila = and(eq(t.id_conversacion, id), eq(t.id_usuario, actor.id), eq(t.id_like, idLike));
      if (accion === 'like')
        await db.insert(t).values({ id_conversacion: id, id_usuario: actor.id, id_like: idLike }).onConflictDoNothing();
      else await db.delete(t).where(fila);
      const [total] = await db
        .select({ n: count() })
        .from(t)
        .where(and(eq(t.id_conversacion, id), eq(t.id_like, idLike)));
      return { id_like: idLike, contador: total?.n ?? 0 };
    },
  };

  // ── Comments ──────────────────────────────────────────────────────────────────────────────────

  async function comentarioVisible(actor: Actor, id: number) {
    const [row] = await db
      .select({ id: foroComentarios.id, id_conversacion: foroComentarios.id_conversacion })
      .from(foroComentarios)
      .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroComentarios.id_conversacion))
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(and(eq(foroComentarios.id, id), visibles(actor)));
    if (!row) throw new ApiError(404, COMENTARIO_NO_ENCONTRADO);
    return row;
  }

  const comentarios = {
    /** The conversation's comments as a tree, each level oldest first. */
    async arbol(actor: Actor, idConversacion: number): Promise<ComentarioForo[]> {
      await conversacionVisible(actor, idConversacion);
      const rcc = foroReaccionesComentario.id_like;
      const conteos = db
        .select({
          id: foroReaccionesComentario.id_comentario,
          g: porReaccion(rcc, 1).as('conteo_g'),
          m: porReaccion(rcc, 3).as('conteo_m'),
        })
        .from(foroReaccionesComentario)
        .innerJoin(foroComentarios, eq(foroComentarios.id, foroReaccionesComentario.id_comentario))
        .where(eq(foroComentarios.id_conversacion, idConversacion))
        .groupBy(foroReaccionesComentario.id_comentario)
        .as('conteos');
      const filas = await db
        .select({ c: foroComentarios, autor: autorColumns, g: entero(sql`${conteos.g}`), m: entero(sql`${conteos.m}`) })
        .from(foroComentarios)
        .innerJoin(usuarios, eq(usuarios.id, foroComentarios.id_usuario))
        .leftJoin(conteos, eq(conteos.id, foroComentarios.id))
        .where(eq(foroComentarios.id_conversacion, idConversacion))
        .orderBy(asc(foroComentarios.fecha_creacion), asc(foroComentarios.id));
      const nodos = new Map<number, ComentarioForo>();
      for (const f of filas) {
        nodos.set(f.c.id, {
          id: f.c.id,
          contenido: f.c.contenido,
          fecha_creacion: f.c.fecha_creacion.toISOString(),
          id_usuario: toAutor(f.autor),
          n_me_gusta: f.g,
          n_me_interesa: f.m,
          respuestas: [],
        });
      }
      const raices: ComentarioForo[] = [];
      for (const f of filas) {
        const nodo = nodos.get(f.c.id);
        if (!nodo) continue;
        const padre = f.c.comentario_padre === null ? undefined : nodos.get(f.c.comentario_padre);
        (padre ? padre.respuestas : raices).push(nodo);
      }
      return raices;
    },

    async comentar(actor: Actor, input: NuevoComentario): Promise<ComentarioForo> {
      const conversacion = await conversacionVisible(actor, input.id_conversacion);
      if (conversacion.id_categoria !== input.id_categoria) {
        const detalle = 'La conversación no pertenece a la categoria indicada';
        throw new ApiError(400, detalle, { errors: { id_categoria: [detalle] } });
      }
      if (input.comentario_padre !== null) {
        const [padre] = await db
          .select({ id: foroComentarios.id })
          .from(foroComentarios)
          .where(and(eq(foroComentarios.id, input.comentario_padre), eq(foroComentarios.id_conversacion, conversacion.id)));
        if (!padre) {
          const detalle = 'El comentario que responde no existe';
          throw new ApiError(400, detalle, { errors: { comentario_padre: [detalle] } });
        }
      }
      await limitar('comentario', actor.id);
      const [row] = await db
        .insert(foroComentarios)
        .values({
          id_conversacion: conversacion.id,
          id_usuario: actor.id,
          comentario_padre: input.comentario_padre,
          contenido: input.contenido,
          fecha_creacion: ctx.now(),
        })
        .returning();
      const [autor] = await db.select(autorColumns).from(usuarios).where(eq(usuarios.id, actor.id));
      if (!row || !autor) throw new Error('forum comment not stored');
      return {
        id: row.id,
        contenido: row.contenido,
        fecha_creacion: row.fecha_creacion.toISOString(),
        id_usuario: toAutor(autor),
        n_me_gusta: 0,
        n_me_interesa: 0,
        respuestas: [],
      };
    },

    async reaccionesUsuario(actor: Actor, id: number): Promise<number[]> {
      await comentarioVisible(actor, id);
      const t = foroReaccionesComentario;
      const filas = await db
        .select({ id_like: t.id_like })
        .from(t)
        .where(and(eq(t.id_comentario, id), eq(t.id_usuario, actor.id)))
        .orderBy(asc(t.id_like));
      return filas.map((f) => f.id_like);
    },

    /** The actor's reactions on every comment of a conversation (for the page, in one query). */
    async reaccionesUsuarioEnConversacion(actor: Actor, idConversacion: number): Promise<Record<number, number[]>> {
      await conversacionVisible(actor, idConversacion);
      const t = foroReaccionesComentario;
      const filas = await db
        .select({ id: t.id_comentario, id_like: t.id_like })
        .from(t)
        .innerJoin(foroComentarios, eq(foroComentarios.id, t.id_comentario))
        .where(and(eq(foroComentarios.id_conversacion, idConversacion), eq(t.id_usuario, actor.id)))
        .orderBy(asc(t.id_comentario), asc(t.id_like));
      const mias: Record<number, number[]> = {};
      for (const f of filas) mias[f.id] = [...(mias[f.id] ?? []), f.id_like];
      return mias;
    },

    async reaccionar(actor: Actor, id: number, idLike: IdReaccionComentario, accion: Accion) {
      await comentarioVisible(actor, id);
      const t = foroReaccionesComentario;
      if (accion === 'like') await db.insert(t).values({ id_comentario: id, id_usuario: actor.id, id_like: idLike }).onConflictDoNothing();
      else await db.delete(t).where(and(eq(t.id_comentario, id), eq(t.id_usuario, actor.id), eq(t.id_like, idLike)));
      const [total] = await db
        .select({ n: count() })
        .from(t)
        .where(and(eq(t.id_comentario, id), eq(t.id_like, idLike)));
      return { id_like: idLike, contador: total?.n ?? 0 };
    },
  };

  return { categorias, conversaciones, comentarios };
}

export type ForoService = ReturnType<typeof createForoService>;
