/**
 * A reported item of any kind as moderation reads it (issue 17): its author, its title, text and
 * link, who may see it (hidden parts are their authors' only), and setting whether it is hidden.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { TipoDenuncia } from '../../../validation/denuncias.ts';
import type { Db } from '../../db/client.server.ts';
import {
  capsulas,
  comentarios,
  foroCategorias,
  foroComentarios,
  foroConversaciones,
  manuales,
  materiales,
  perfilesDocentes,
  usuarios,
} from '../../db/schema.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import { USUARIO_NO_ENCONTRADO } from '../comunidad.server.ts';
import { CONVERSACION_NO_ENCONTRADA } from '../foro/comun.server.ts';
import { COMENTARIO_NO_ENCONTRADO, type TipoRecurso } from '../recursos.server.ts';

/** The title kept for a deleted item whose name nothing remembers. */
export const SIN_TITULO = 'Contenido eliminado';

export const NO_ENCONTRADO: Record<TipoDenuncia, string> = {
  capsula: 'No se encontró capsula',
  material: 'No se encontró material',
  manual: 'No se encontró manual',
  comentario_capsula: COMENTARIO_NO_ENCONTRADO,
  comentario_material: COMENTARIO_NO_ENCONTRADO,
  comentario_manual: COMENTARIO_NO_ENCONTRADO,
  conversacion: CONVERSACION_NO_ENCONTRADA,
  comentario_foro: COMENTARIO_NO_ENCONTRADO,
  usuario: USUARIO_NO_ENCONTRADO,
};

export const RECURSO_DE_COMENTARIO = {
  comentario_capsula: 'capsula',
  comentario_material: 'material',
  comentario_manual: 'manual',
} as const satisfies Partial<Record<TipoDenuncia, TipoRecurso>>;
export type TipoComentario = keyof typeof RECURSO_DE_COMENTARIO;
export const esComentarioRecurso = (tipo: TipoDenuncia): tipo is TipoComentario => tipo in RECURSO_DE_COMENTARIO;

const rutas: Record<TipoRecurso, string> = { capsula: '/capsulas', material: '/biblioteca-docente', manual: '/manuales' };
const enlaceConversacion = (idCategoria: number, id: number) => `/foro/categorias/${idCategoria}/conversacion/${id}`;
/** Comments have no anchor of their own: their section's heading is the nearest one. */
const SECCION_COMENTARIOS = '#titulo-comentarios';

/** A hidden (or not yet ready) part of what a person would see: its author's only. */
interface Guarda {
  oculto: boolean;
  autor: number;
}

/** A reported item as moderation sees it, whatever its kind. */
export interface Item {
  tipo: TipoDenuncia;
  id: number;
  idAutor: number;
  oculto: boolean;
  titulo: string;
  /** The raw text (HTML or Markdown for descriptions and conversations). */
  texto: string;
  enlace: string;
  /** The item and what holds it (a comment's capsule): each hidden one is its author's only. */
  guardas: Guarda[];
  /** Only admins see it whatever else holds (an inactive forum category, a deactivated account). */
  soloAdmins: boolean;
}

/** An admin or someone every guard lets through. */
export function puedeVer(item: Item, actor: Actor): boolean {
  if (esAdmin(actor)) return true;
  return !item.soloAdmins && item.guardas.every((g) => !g.oculto || g.autor === actor.id);
}

const nombreDe = (u: { primer_nombre: string; apellido_paterno: string }) => `${u.primer_nombre} ${u.apellido_paterno}`.trim();

async function contenido(en: Db, tipo: TipoRecurso, id: number): Promise<Item | null> {
  const filas =
    tipo === 'capsula'
      ? await en
          .select({
            t: capsulas.titulo,
            d: capsulas.descripcion,
            u: capsulas.id_usuario,
            o: capsulas.oculto,
            listo: sql<boolean>`${capsulas.estado} = 'listo'`,
          })
          .from(capsulas)
          .where(eq(capsulas.id, id))
      : tipo === 'material'
        ? await en
            .select({
              t: materiales.titulo,
              d: materiales.descripcion,
              u: materiales.id_usuario,
              o: materiales.oculto,
              listo: sql<boolean>`true`,
            })
            .from(materiales)
            .where(eq(materiales.id, id))
        : await en
            .select({
              t: manuales.titulo,
              d: manuales.descripcion,
              u: manuales.id_usuario,
              o: manuales.oculto,
              listo: sql<boolean>`true`,
            })
            .from(manuales)
            .where(eq(manuales.id, id));
  const f = filas[0];
  if (!f) return null;
  return {
    tipo,
    id,
    idAutor: f.u,
    oculto: f.o,
    titulo: f.t,
    texto: f.d,
    enlace: `${rutas[tipo]}/${id}`,
    // A capsule still processing is its author's only, like a hidden one.
    guardas: [{ oculto: f.o || !f.listo, autor: f.u }],
    soloAdmins: false,
  };
}

async function comentarioRecurso(en: Db, tipo: TipoComentario, id: number): Promise<Item | null> {
  const recurso = RECURSO_DE_COMENTARIO[tipo];
  const columna = { capsula: comentarios.id_capsula, material: comentarios.id_material, manual: comentarios.id_manual }[recurso];
  const [c] = await en
    .select({ c: comentarios, idRecurso: columna })
    .from(comentarios)
    .where(and(eq(comentarios.id, id), isNotNull(columna), eq(comentarios.eliminado, false)));
  if (!c || c.idRecurso === null) return null;
  const padre = await contenido(en, recurso, c.idRecurso);
  if (!padre) return null;
  return {
    tipo,
    id,
    idAutor: c.c.id_usuario,
    oculto: c.c.oculto,
    titulo: padre.titulo,
    texto: c.c.contenido,
    enlace: `${padre.enlace}${SECCION_COMENTARIOS}`,
    guardas: [{ oculto: c.c.oculto, autor: c.c.id_usuario }, ...padre.guardas],
    soloAdmins: false,
  };
}

async function conversacion(en: Db, id: number): Promise<Item | null> {
  const [c] = await en
    .select({ c: foroConversaciones, activa: foroCategorias.activa })
    .from(foroConversaciones)
    .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
    .where(eq(foroConversaciones.id, id));
  if (!c) return null;
  return {
    tipo: 'conversacion',
    id,
    idAutor: c.c.id_usuario_creador,
    oculto: c.c.oculto,
    titulo: c.c.titulo,
    texto: c.c.contenido,
    enlace: enlaceConversacion(c.c.id_categoria, id),
    guardas: [{ oculto: c.c.oculto, autor: c.c.id_usuario_creador }],
    soloAdmins: !c.activa,
  };
}

async function comentarioForo(en: Db, id: number): Promise<Item | null> {
  const [c] = await en
    .select({ c: foroComentarios })
    .from(foroComentarios)
    .where(and(eq(foroComentarios.id, id), eq(foroComentarios.eliminado, false)));
  if (!c) return null;
  const conv = await conversacion(en, c.c.id_conversacion);
  if (!conv) return null;
  return {
    tipo: 'comentario_foro',
    id,
    idAutor: c.c.id_usuario,
    oculto: c.c.oculto,
    titulo: conv.titulo,
    texto: c.c.contenido,
    enlace: `${conv.enlace}${SECCION_COMENTARIOS}`,
    guardas: [{ oculto: c.c.oculto, autor: c.c.id_usuario }, ...conv.guardas],
    soloAdmins: conv.soloAdmins,
  };
}

async function perfil(en: Db, id: number): Promise<Item | null> {
  const [u] = await en
    .select({
      u: {
        primer_nombre: usuarios.primer_nombre,
        apellido_paterno: usuarios.apellido_paterno,
        oculto: usuarios.oculto,
        activo: usuarios.activo,
        desactivada_en: usuarios.desactivada_en,
      },
      titulo: perfilesDocentes.titulo_profesional,
    })
    .from(usuarios)
    .leftJoin(perfilesDocentes, eq(perfilesDocentes.id_usuario, usuarios.id))
    .where(eq(usuarios.id, id));
  if (!u) return null;
  return {
    tipo: 'usuario',
    id,
    idAutor: id,
    oculto: u.u.oculto,
    titulo: nombreDe(u.u),
    texto: u.titulo ?? '',
    enlace: `/perfil/${id}`,
    guardas: [{ oculto: u.u.oculto, autor: id }],
    // A deactivated (or never activated) account's page is for admins only.
    soloAdmins: !u.u.activo || u.u.desactivada_en !== null,
  };
}

/** The item, or null when it does not exist (a comment left as 'Comentario eliminado' counts as deleted). */
export function leerItem(en: Db, tipo: TipoDenuncia, id: number): Promise<Item | null> {
  if (esComentarioRecurso(tipo)) return comentarioRecurso(en, tipo, id);
  switch (tipo) {
    case 'capsula':
    case 'material':
    case 'manual':
      return contenido(en, tipo, id);
    case 'conversacion':
      return conversacion(en, id);
    case 'comentario_foro':
      return comentarioForo(en, id);
    default:
      return perfil(en, id);
  }
}

/** Sets the item's `oculto`; true when it changed (a concurrent change is not counted twice). */
export async function marcarOculto(tx: Db, tipo: TipoDenuncia, id: number, oculto: boolean): Promise<boolean> {
  const set = { oculto };
  const filas = await (() => {
    if (esComentarioRecurso(tipo))
      return tx
        .update(comentarios)
        .set(set)
        .where(and(eq(comentarios.id, id), eq(comentarios.oculto, !oculto)))
        .returning({ id: comentarios.id });
    switch (tipo) {
      case 'capsula':
        return tx
          .update(capsulas)
          .set(set)
          .where(and(eq(capsulas.id, id), eq(capsulas.oculto, !oculto)))
          .returning({ id: capsulas.id });
      case 'material':
        return tx
          .update(materiales)
          .set(set)
          .where(and(eq(materiales.id, id), eq(materiales.oculto, !oculto)))
          .returning({ id: materiales.id });
      case 'manual':
        return tx
          .update(manuales)
          .set(set)
          .where(and(eq(manuales.id, id), eq(manuales.oculto, !oculto)))
          .returning({ id: manuales.id });
      case 'conversacion':
        return tx
          .update(foroConversaciones)
          .set(set)
          .where(and(eq(foroConversaciones.id, id), eq(foroConversaciones.oculto, !oculto)))
          .returning({ id: foroConversaciones.id });
      case 'comentario_foro':
        return tx
          .update(foroComentarios)
          .set(set)
          .where(and(eq(foroComentarios.id, id), eq(foroComentarios.oculto, !oculto)))
          .returning({ id: foroComentarios.id });
      default:
        return tx
          .update(usuarios)
          .set(set)
          .where(and(eq(usuarios.id, id), eq(usuarios.oculto, !oculto)))
          .returning({ id: usuarios.id });
    }
  })();
  return filas.length > 0;
}
