/**
 * A capsule's captions (issue 20): one WebVTT per language, kept in the database (small, and every
 * server has them). The author or an admin adds, replaces and removes them; whoever may see the
 * capsule lists them, gets the file (/streaming/{id}/subtitulos-{idioma}.vtt) and its lines (the
 * transcript). The capsule search also reads their text (`coincideEnSubtitulos`, `menciones`).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import {
  CODIGOS_IDIOMA,
  IDIOMAS_SUBTITULOS,
  type IdiomaSubtitulo,
  idiomaSubtitulo,
  SUBTITULO_INVALIDO,
  SUBTITULO_NO_ENCONTRADO,
  SUBTITULO_REQUERIDO,
} from '../../validation/subtitulos.ts';
import type { UploadedFile } from '../archivo-recibido.server.ts';
import type { Db } from '../db/client.server.ts';
import { capsulas, type LineaSubtitulo, subtitulos } from '../db/schema.server.ts';
import { consultaTs } from '../db/search.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { leerSubtitulo, SubtituloInvalido, type SubtituloLeido } from '../media/subtitulos.server.ts';
import { type Actor, esAdmin, exigirAutorOAdmin } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';
import { capsulaVisible } from './recursos.server.ts';
import { registrarAccion } from './registro.server.ts';

export type Subtitulo = Esquema<'Subtitulo'>;
export type Mencion = Esquema<'Mencion'>;
/** A caption file with its lines, for the transcript the capsule page renders. */
export type SubtituloConLineas = Subtitulo & { lineas: LineaSubtitulo[] };

const NO_ENCONTRADA = 'No se encontró capsula';

export const urlSubtitulo = (id: number, idioma: IdiomaSubtitulo) => `/streaming/${id}/subtitulos-${idioma}.vtt`;
/** The file name under /streaming/{id}/ of a language's captions, or null when it names none. */
export function idiomaDeArchivo(archivo: string): IdiomaSubtitulo | null {
  const idioma = /^subtitulos-([a-z]{2,3})\.vtt$/.exec(archivo)?.[1];
  return CODIGOS_IDIOMA.find((c) => c === idioma) ?? null;
}

/** Spanish first, then the order of IDIOMAS_SUBTITULOS (SQL, for ORDER BY). */
const ordenIdioma = sql.join(
  [sql`case ${subtitulos.idioma}`, ...CODIGOS_IDIOMA.map((c, i) => sql`when ${c} then ${i}`), sql`else ${CODIGOS_IDIOMA.length} end`],
  sql` `,
);
/** The rows in that order, each with a language this code knows. */
const enOrden = <T extends { idioma: string }>(filas: T[]) =>
  CODIGOS_IDIOMA.flatMap((codigo) => filas.filter((f): f is T & { idioma: IdiomaSubtitulo } => f.idioma === codigo));

const aSubtitulo = (id: number, idioma: IdiomaSubtitulo): Subtitulo => ({
  idioma,
  nombre: IDIOMAS_SUBTITULOS[idioma],
  url: urlSubtitulo(id, idioma),
});

const invalido = (motivo: string) => new ErrorDeDominio(400, SUBTITULO_INVALIDO, { errors: { archivo: [SUBTITULO_INVALIDO, motivo] } });

/**
 * Capsules whose title and description (`enTitulo`, the list's title search) or captions (any
 * language) have every word of `q`, with the same accent-free Spanish search: a condition on
 * `capsulas` for the list's where. One list of ids from two index reads (each GIN index of
 * drizzle/0001 and 0011), not an OR: with the captions' side not indexable, both databases read
 * every capsule's title document for each search (issue 36: 2.5 s for 4,000 capsules on PGlite).
 */
export function coincideEnCapsula(enTitulo: SQL | undefined, q: string | undefined): SQL | undefined {
  const consulta = consultaTs(q);
  if (enTitulo === undefined || consulta === undefined) return enTitulo;
  return sql`${capsulas.id} in (select ${capsulas.id} from ${capsulas} where ${enTitulo} union select ${subtitulos.id_capsula} from ${subtitulos} where busqueda_es(${subtitulos.texto}) @@ to_tsquery('spanish', f_unaccent(${consulta})))`;
}

/** A raw query's rows (both drivers answer `{ rows }`); numbers may come as text. */
const filasMencion = z.object({
  rows: z.array(z.object({ id: z.coerce.number(), idioma: idiomaSubtitulo, segundo: z.coerce.number(), texto: z.string() })),
});

/**
 * Where each capsule's captions say the words of `q`: the first line that has them all, or else
 * the first that has any (the words may be said across lines), in Spanish captions first.
 */
export async function menciones(db: Db, ids: number[], q: string | undefined): Promise<Map<number, Mencion>> {
  const todas = consultaTs(q);
  const alguna = consultaTs(q, '|');
  const encontradas = new Map<number, Mencion>();
  if (ids.length === 0 || todas === undefined || alguna === undefined) return encontradas;
  const ts = (consulta: string) => sql`to_tsquery('spanish', f_unaccent(${consulta}))`;
  // Each line's document is made once; only the languages whose whole text has a word are read.
  const resultado: unknown = await db.execute(sql`
    select distinct on (id) id, idioma, segundo, texto from (
      select ${subtitulos.id_capsula} as id, ${subtitulos.idioma} as idioma, ${ordenIdioma} as orden, l.n,
        (l.value->>'inicio')::float8 as segundo, l.value->>'texto' as texto, busqueda_es(l.value->>'texto') as documento
      from ${subtitulos} cross join lateral jsonb_array_elements(${subtitulos.lineas}) with ordinality as l(value, n)
      where ${inArray(subtitulos.id_capsula, ids)} and busqueda_es(${subtitulos.texto}) @@ ${ts(alguna)}
    ) as lineas
    where documento @@ ${ts(alguna)}
    order by id, (documento @@ ${ts(todas)}) desc, orden, n`);
  for (const { id, ...mencion } of filasMencion.parse(resultado).rows) encontradas.set(id, mencion);
  return encontradas;
}

export function createSubtitulosService(ctx: ServiceContext) {
  const { db } = ctx;

  /** The capsule, if this person may see it (the same rule as the capsule's own routes). */
  async function capsula(id: number, actor: Actor) {
    const [fila] = await db
      .select({ id: capsulas.id, titulo: capsulas.titulo, id_usuario: capsulas.id_usuario, estado: capsulas.estado })
      .from(capsulas)
      .where(and(eq(capsulas.id, id), capsulaVisible(actor)));
    if (!fila) throw new ErrorDeDominio(404, NO_ENCONTRADA);
    return fila;
  }

  /** A capsule this person may change the captions of: seen (else 404), and theirs or an admin's (else 403). */
  async function editable(id: number, actor: Actor) {
    const fila = await capsula(id, actor);
    exigirAutorOAdmin(actor, fila.id_usuario);
    return fila;
  }

  /** The file read into cues; a broken one is refused with the reason. */
  async function leer(archivo: UploadedFile | undefined): Promise<SubtituloLeido> {
    if (!archivo || (archivo.size === 0 && archivo.filename === '')) {
      throw new ErrorDeDominio(400, SUBTITULO_REQUERIDO, { errors: { archivo: [SUBTITULO_REQUERIDO] } });
    }
    let leido: SubtituloLeido;
    try {
      leido = leerSubtitulo(await readFile(archivo.tmpPath), archivo.filename);
    } catch (error) {
      if (error instanceof SubtituloInvalido) throw invalido(error.motivo);
      throw error;
    }
    // PostgreSQL's text search takes at most 1 MB of distinct words per document: a file past it
    // (only a made-up one: an hour of speech is a few kB of words) would break every search.
    try {
      await db.execute(sql`select length(busqueda_es(${leido.texto}))`);
    } catch {
      throw invalido('El archivo tiene demasiadas palabras distintas para la búsqueda.');
    }
    return leido;
  }

  /** An admin changing another person's capsule is moderation: the audit log records it. */
  async function registrar(
    tx: Pick<Db, 'select' | 'insert'>,
    actor: Actor,
    fila: { id: number; titulo: string; id_usuario: number },
    accion: string,
    detalle: string,
  ) {
    if (!esAdmin(actor) || actor.id === fila.id_usuario) return;
    await registrarAccion(tx, { id: actor.id }, { accion, tipo: 'capsula', id_registro: fila.id, detalle });
  }

  return {
    /** Check before receiving an upload: the capsule is seen, and this person may change its captions. */
    async exigirEditable(id: number, actor: Actor): Promise<void> {
      await editable(id, actor);
    },

    /** GET /api/capsulas/{id}/subtitulos/: Spanish first, then IDIOMAS_SUBTITULOS' order. */
    async listar(id: number, actor: Actor): Promise<Esquema<'ListaSubtitulos'>> {
      await capsula(id, actor);
      const filas = await db.select({ idioma: subtitulos.idioma }).from(subtitulos).where(eq(subtitulos.id_capsula, id));
      return { subtitulos: enOrden(filas).map((f) => aSubtitulo(id, f.idioma)) };
    },

    /**
     * The captions with their lines, for the capsule page's transcript (rendered on the server).
     * The same visibility as the list: 404 when this person may not see the capsule.
     */
    async conLineas(id: number, actor: Actor): Promise<SubtituloConLineas[]> {
      await capsula(id, actor);
      const filas = await db
        .select({ idioma: subtitulos.idioma, lineas: subtitulos.lineas })
        .from(subtitulos)
        .where(eq(subtitulos.id_capsula, id));
      return enOrden(filas).map((f) => ({
        ...aSubtitulo(id, f.idioma),
        lineas: f.lineas,
      }));
    },

    /** POST: adds the language's captions, or replaces them. */
    async guardar(actor: Actor, id: number, idioma: IdiomaSubtitulo, archivo: UploadedFile | undefined): Promise<Subtitulo> {
      const fila = await editable(id, actor);
      const leido = await leer(archivo);
      const valores = { vtt: leido.vtt, lineas: leido.lineas, texto: leido.texto, fecha_creacion: ctx.now() };
      await db.transaction(async (tx) => {
        await tx
          .insert(subtitulos)
          .values({ id_capsula: id, idioma, ...valores })
          .onConflictDoUpdate({ target: [subtitulos.id_capsula, subtitulos.idioma], set: valores });
        await registrar(
          tx,
          actor,
          fila,
          'subir_subtitulos',
          `Subió subtítulos en ${IDIOMAS_SUBTITULOS[idioma]} a la cápsula «${fila.titulo}»`,
        );
      });
      ctx.log.info('captions stored', {
        capsulaId: id,
        idioma,
        userId: actor.id,
        format: leido.formato,
        encoding: leido.codificacion,
        cues: leido.lineas.length,
      });
      return aSubtitulo(id, idioma);
    },

    /** DELETE: 404 SUBTITULO_NO_ENCONTRADO when the capsule has none in that language. */
    async eliminar(actor: Actor, id: number, idioma: IdiomaSubtitulo): Promise<void> {
      const fila = await editable(id, actor);
      await db.transaction(async (tx) => {
        const borrados = await tx
          .delete(subtitulos)
          .where(and(eq(subtitulos.id_capsula, id), eq(subtitulos.idioma, idioma)))
          .returning({ idioma: subtitulos.idioma });
        if (borrados.length === 0) throw new ErrorDeDominio(404, SUBTITULO_NO_ENCONTRADO);
        await registrar(
          tx,
          actor,
          fila,
          'eliminar_subtitulos',
          `Eliminó los subtítulos en ${IDIOMAS_SUBTITULOS[idioma]} de la cápsula «${fila.titulo}»`,
        );
      });
      ctx.log.info('captions deleted', { capsulaId: id, idioma, userId: actor.id });
    },

    /** The WebVTT served under /streaming/{id}/, with a tag that changes with its content. */
    async vtt(id: number, idioma: IdiomaSubtitulo, actor: Actor): Promise<{ vtt: string; etag: string }> {
      // Like the other files under /streaming/: none until the video is ready.
      if ((await capsula(id, actor)).estado !== 'listo') throw new ErrorDeDominio(404, NO_ENCONTRADA);
      const [fila] = await db
        .select({ vtt: subtitulos.vtt })
        .from(subtitulos)
        .where(and(eq(subtitulos.id_capsula, id), eq(subtitulos.idioma, idioma)));
      if (!fila) throw new ErrorDeDominio(404, SUBTITULO_NO_ENCONTRADO);
      return { vtt: fila.vtt, etag: `"${createHash('sha256').update(fila.vtt).digest('base64url').slice(0, 27)}"` };
    },
  };
}

export type SubtitulosService = ReturnType<typeof createSubtitulosService>;
