/**
 * What the protected pages share on the server: the user and actor, path ids, the 404 of a
 * service, the data saver.
 */
import { pedidoAhorro } from '../../lib/conexion.ts';
import { puedeEditar } from '../../lib/permisos.ts';
import { ApiError } from '../../lib/server/api/errors.server.ts';
import { getRuntime } from '../../lib/server/runtime.server.ts';
import type { Actor } from '../../lib/server/services/foro.server.ts';
import type { UsuarioPagina } from '../../lib/server/services/usuario-actual.server.ts';
import type { NuevoSeguimiento } from '../../lib/validation/seguimientos.ts';

/**
 * The signed-in user of a protected page. The middleware redirects to /ingresar/?siguiente=…
 * before such a page renders without a session, so a missing user here is a bug, not a visitor.
 */
export function usuarioDe(locals: App.Locals): UsuarioPagina {
  if (!locals.usuario) throw new Error('protected page rendered without a session');
  return locals.usuario;
}

export const actorDe = (usuario: { id: number; groups: string[] }): Actor => ({ id: usuario.id, groups: usuario.groups });

/**
 * Whether this person follows `objetivo`: the state a page's 'Seguir' button (BotonSeguir) is
 * drawn in. Looked up in the page's frontmatter, before any of its markup is sent: a lookup inside
 * the button paused the streamed page in the middle of its header (on PostgreSQL every time, the
 * answer coming after the compressor's flush; on a busy PGlite at times), so a browser could paint
 * the header without the button and move the others aside when it came (a layout shift). Null,
 * a page with nothing to follow (an item not found, an OA no longer current): false.
 */
export async function sigue(actor: Actor, objetivo: NuevoSeguimiento | null): Promise<boolean> {
  return objetivo !== null && (await getRuntime().api.services.seguimientos.buscar(actor, objetivo)) !== null;
}

/** A path id, or null when it is not one (the page answers 404). */
export function idDe(valor: string | undefined): number | null {
  return valor && /^[1-9]\d{0,8}$/.test(valor) ? Number(valor) : null;
}

/** The service's answer, or null when it says 404 (missing, or hidden from this person). */
export async function oNoEncontrado<T>(carga: Promise<T>): Promise<T | null> {
  try {
    return await carga;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Whether the person sees Editar and Eliminar on a capsule, material or manual: its author, or an
 * admin (who moderates). The services apply the same rule to every change.
 */
export function puedeModificar(usuario: { id: number; groups: string[] }, contenido: { id_usuario: { id: number } } | null): boolean {
  return contenido !== null && puedeEditar(usuario, contenido.id_usuario.id);
}

/** The status of an edit page: 404 when the item is not there, 403 when the person may not edit it. */
export const estadoEdicion = (contenido: object | null, permitido: boolean): number => (!contenido ? 404 : permitido ? 200 : 403);

/** The Aviso of a capsule, manual, material or teacher that is not there (or, for a teacher, not active). */
export const NO_ENCONTRADO = {
  capsula: {
    titulo: 'No se encontró capsula',
    texto: 'La cápsula no existe o fue eliminada.',
    volver: { href: '/capsulas/', texto: 'Volver a Cápsulas Docentes' },
  },
  manual: {
    titulo: 'No se encontró manual',
    texto: 'El manual no existe o fue eliminado.',
    volver: { href: '/manuales/', texto: 'Volver a Manuales Pedagógicos' },
  },
  material: {
    titulo: 'No se encontró material',
    texto: 'El material no existe o fue eliminado.',
    volver: { href: '/biblioteca-docente/', texto: 'Volver a la Biblioteca Docente' },
  },
  docente: {
    titulo: 'Docente no encontrado',
    texto: 'La persona que buscas no existe o su cuenta no está activa.',
    volver: { href: '/comunidad/', texto: 'Ir a la Comunidad Docente' },
  },
};

/**
 * 'Ahorro de datos' for this request (issue 20): the person's preference, or the browser's
 * Save-Data or slow-connection hints. Pictures then come in their smallest size only.
 */
export const ahorroDatos = (astro: { locals: App.Locals; request: Request }): boolean =>
  astro.locals.usuario?.ahorro_datos === true || pedidoAhorro(astro.request.headers);
