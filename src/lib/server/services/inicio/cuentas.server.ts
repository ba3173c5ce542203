/**
 * The home's 'Desde tu última visita' (issue 21): how many capsules, materials and manuals others
 * published since the person's previous visit that they may open, and the forum's new
 * conversations and comments. Their own work is not news to them.
 */
import { and, desc, eq, gt, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { cacheDeLecturas } from '../../db/cache.server.ts';
import { type Db, filasDe } from '../../db/client.server.ts';
import {
  type capsulas,
  foroCategorias,
  foroComentarios,
  foroConversaciones,
  type manuales,
  type materiales,
} from '../../db/schema.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import { visibleA } from '../recursos.server.ts';
import { conversacionesVisibles, NADIE } from './actividad.server.ts';
import { type Contenido, contarDesde, type createRecientes, type FilaContada } from './recientes.server.ts';

/**
 * The counts stop past this (issue 36): 'Más de 99' says as much as the exact figure, and each
 * count reads at most CUENTA_TOPE + 1 rows, newest first along its date index, instead of every row
 * since a visit months ago.
 */
export const CUENTA_TOPE = 99;

/** Each up to CUENTA_TOPE + 1 (more than CUENTA_TOPE). */
export interface Cuentas {
  capsulas: number;
  materiales: number;
  manuales: number;
  conversaciones: number;
  comentarios: number;
}

/** Rows per shared forum list: the counts stop at CUENTA_TOPE + 1, and the person's own rows are skipped. */
export const RECIENTES_FORO = 200;

/** The newest conversations and counted comments everyone sees (as nobody's), for the forum's counts. */
interface ForoReciente {
  conversaciones: FilaContada[];
  comentarios: FilaContada[];
}

interface Dependencias {
  db: Db;
  now: () => Date;
  /** Who has a hidden conversation of their own: they see what others do not, and are counted on their own. */
  foroOcultos: () => Promise<Set<number>>;
  /** Each kind's table and what a person may open of it, as the home's blocks read them. */
  contenidos: Record<
    Contenido,
    { tabla: typeof capsulas | typeof materiales | typeof manuales; visibles: (actor: Actor) => SQL | undefined }
  >;
  /** The shared lists of the newest items, which answer most counts without a statement. */
  recientes: Pick<ReturnType<typeof createRecientes>, 'cuenta'>;
}

export function createCuentas({ db, now, foroOcultos, contenidos, recientes }: Dependencias) {
  /** How many rows each query gives (each brings its own limit), in one statement. */
  async function contarFilas<K extends string>(consultas: Record<K, SQLWrapper>): Promise<Record<K, number>> {
    const nombres = Object.keys(consultas) as K[];
    const columnas = nombres.map((k) => sql`(select count(*) from (${consultas[k]}) as filas) as ${sql.identifier(k)}`);
    const [fila] = await filasDe<Record<K, unknown>>(db, sql`select ${sql.join(columnas, sql`, `)}`);
    return Object.fromEntries(nombres.map((k) => [k, Number(fila?.[k] ?? 0)])) as Record<K, number>;
  }

  /** How many of a kind others published since `desde` that this person may open, up to CUENTA_TOPE + 1. */
  async function contarContenido(tipo: Contenido, actor: Actor, desde: Date): Promise<number> {
    const compartida = await recientes.cuenta(tipo, actor, desde, CUENTA_TOPE + 1);
    if (compartida !== undefined) return compartida;
    const { tabla, visibles } = contenidos[tipo];
    const { n } = await contarFilas({
      n: db
        .select({ id: tabla.id })
        .from(tabla)
        .where(and(gt(tabla.fecha_creacion, desde), visibles(actor), ne(tabla.id_usuario, actor.id)))
        .orderBy(desc(tabla.fecha_creacion))
        .limit(CUENTA_TOPE + 1),
    });
    return n;
  }

  /**
   * The forum's rows this person may see that others wrote, newest first, since `desde` when given:
   * the new conversations, and the comments anyone may see as activity (not deleted, not hidden from
   * them). As nobody's (NADIE), every author's.
   */
  function delForo(actor: Actor, limite: number, desde?: Date) {
    const conversaciones = db
      .select({ fecha: foroConversaciones.fecha_creacion, id_usuario: foroConversaciones.id_usuario_creador })
      .from(foroConversaciones)
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(
        and(
          desde && gt(foroConversaciones.fecha_creacion, desde),
          conversacionesVisibles(actor),
          ne(foroConversaciones.id_usuario_creador, actor.id),
        ),
      )
      .orderBy(desc(foroConversaciones.fecha_creacion))
      .limit(limite);
    const comentarios = db
      .select({ fecha: foroComentarios.fecha_creacion, id_usuario: foroComentarios.id_usuario })
      .from(foroComentarios)
      .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroComentarios.id_conversacion))
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(
        and(
          desde && gt(foroComentarios.fecha_creacion, desde),
          eq(foroComentarios.eliminado, false),
          visibleA(actor, foroComentarios),
          conversacionesVisibles(actor),
          ne(foroComentarios.id_usuario, actor.id),
        ),
      )
      .orderBy(desc(foroComentarios.fecha_creacion))
      .limit(limite);
    return { conversaciones, comentarios };
  }

  /** Read once until the forum changes (2 s for another server's writes), not once per person. */
  const foroComun = cacheDeLecturas<ForoReciente>(db, {
    segundos: 2,
    now,
    tablas: [foroCategorias, foroConversaciones, foroComentarios],
    max: 1,
  });
  const leerForoComun = async (): Promise<ForoReciente> => {
    const { conversaciones, comentarios } = delForo(NADIE, RECIENTES_FORO);
    const [c, m] = await Promise.all([conversaciones, comentarios]);
    const filas = (l: typeof c) => l.map((f) => ({ fecha: f.fecha.toISOString(), id_usuario: f.id_usuario }));
    return { conversaciones: filas(c), comentarios: filas(m) };
  };

  /**
   * The forum's two counts since `desde`: from the shared lists when this person sees what everyone
   * does (their own hidden comments are never counted, their own hidden conversations would be),
   * else in one statement of their own.
   */
  async function contarForo(actor: Actor, desde: Date): Promise<Pick<Cuentas, 'conversaciones' | 'comentarios'>> {
    if (!esAdmin(actor) && !(await foroOcultos()).has(actor.id)) {
      const l = await foroComun.leer('', leerForoComun);
      const contar = (filas: FilaContada[]) => contarDesde(filas, desde, actor.id, CUENTA_TOPE + 1, filas.length < RECIENTES_FORO);
      const [conversaciones, comentarios] = [contar(l.conversaciones), contar(l.comentarios)];
      if (conversaciones !== undefined && comentarios !== undefined) return { conversaciones, comentarios };
    }
    return contarFilas(delForo(actor, CUENTA_TOPE + 1, desde));
  }

  return {
    /** What others published since `desde` that this person may open. */
    async contar(actor: Actor, desde: Date): Promise<Cuentas> {
      const [c, mat, man, foro] = await Promise.all([
        contarContenido('capsulas', actor, desde),
        contarContenido('materiales', actor, desde),
        contarContenido('manuales', actor, desde),
        contarForo(actor, desde),
      ]);
      return { capsulas: c, materiales: mat, manuales: man, ...foro };
    },
  };
}
