/**
 * Notifications (issue 17): rows written in the transaction of the action that causes them (a
 * reply, a comment, a like, a reaction), listed grouped, marked as read; and their mail, by each
 * person's choice (`usuarios.preferencia_correo`): one mail each ('cada_vez'), one digest a day
 * ('diario', after 08:00 in America/Santiago) of everything still unread, or none. A recurring job
 * sends both under a lock on the person's row: a 'cada vez' notification goes once (`enviada_en`),
 * and the digest once a local day (`usuarios.resumen_enviado`).
 */
import { and, count, desc, eq, inArray, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { PreferenciaCorreo } from '../../validation/notificaciones.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import { notificaciones, usuarios } from '../db/schema.server.ts';
import type { ServiceContext } from './context.server.ts';
import { tokenBaja, usuarioDeTokenBaja } from './notificaciones/baja.server.ts';
import { createCorreosNotificaciones, TRABAJO_CORREOS } from './notificaciones/correos.server.ts';
import { textoNotificacion } from './notificaciones/textos.server.ts';
import { fotoUrl } from './usuarios.server.ts';

// The hooks other services call in their transactions, the sentences, the unsubscribe tokens
// and the mail job live in notificaciones/; their importers keep this one name.
export { tokenBaja, usuarioDeTokenBaja } from './notificaciones/baja.server.ts';
export { CADENCIA_SEGUNDOS, HORA_RESUMEN, horaLocal, TRABAJO_CORREOS, ZONA } from './notificaciones/correos.server.ts';
export {
  notificarComentarioForo,
  notificarComentarioRecurso,
  notificarMeGusta,
  notificarModeracion,
  notificarReaccion,
  olvidarNotificaciones,
  type TipoNotificacion,
} from './notificaciones/hooks.server.ts';
export { textoNotificacion } from './notificaciones/textos.server.ts';

export type EntradaNotificacion = Esquema<'Notificacion'>;

export const TAMANO_PAGINA = 20;
/** The newest this many of a person's notifications are listed (older ones are history). */
const LIMITE_LISTA = 500;

/** Who acted, as an Autor (not imported from recursos.server.ts, which imports this module). */
const autorColumns = {
  id: usuarios.id,
  primer_nombre: usuarios.primer_nombre,
  apellido_paterno: usuarios.apellido_paterno,
  foto_perfil: usuarios.foto_perfil,
};
const toAutor = (u: { id: number; primer_nombre: string; apellido_paterno: string; foto_perfil: string }) => ({
  id: u.id,
  primer_nombre: u.primer_nombre,
  apellido_paterno: u.apellido_paterno,
  foto_perfil: fotoUrl(u),
});

export function createNotificacionesService(ctx: ServiceContext) {
  const { db } = ctx;
  const noLeida = (idUsuario: number | SQLWrapper) => and(eq(notificaciones.id_usuario, idUsuario), isNull(notificaciones.leida_en));
  /** The person of the statements prepared once below (every page's bell, the home's first opening). */
  const ID = sql.placeholder('id');
  const urlBaja = (idUsuario: number) => `${ctx.config.PUBLIC_URL}/api/notificaciones/baja/${tokenBaja(ctx.jwtSecret, idUsuario)}/`;

  /** Unread entries as the list counts them: one per (tipo, recurso_tipo, id_recurso). */
  /**
   * The bell's number, asked by every page the person opens: kept per person until the table
   * changes (any notification written or read) or, with other processes on the database, for
   * two seconds (decision 0040: it was a quarter of a signed-in page's time).
   */
  const cuentas = cacheDeLecturas<number>(db, { tablas: [notificaciones], segundos: 2, max: 5_000, now: ctx.now });
  const grupos = db
    .selectDistinct({ t: notificaciones.tipo, r: notificaciones.recurso_tipo, i: notificaciones.id_recurso })
    .from(notificaciones)
    .where(noLeida(ID))
    .as('grupos');
  const contarNoLeidas = db.select({ n: count() }).from(grupos).prepare('notificaciones_no_leidas');
  function noLeidas(idUsuario: number): Promise<number> {
    return cuentas.leer(String(idUsuario), async () => (await contarNoLeidas.execute({ id: idUsuario }))[0]?.n ?? 0);
  }

  /** A person's newest notifications, or their newest unread ones: prepared once each. */
  const listaDe = (soloNoLeidas: boolean) =>
    db
      .select({ n: notificaciones, actor: autorColumns })
      .from(notificaciones)
      .leftJoin(usuarios, eq(usuarios.id, notificaciones.id_actor))
      .where(soloNoLeidas ? noLeida(ID) : eq(notificaciones.id_usuario, ID))
      .orderBy(desc(notificaciones.fecha), desc(notificaciones.id))
      .limit(LIMITE_LISTA)
      .prepare(soloNoLeidas ? 'notificaciones_lista_no_leidas' : 'notificaciones_lista');
  const [listaNoLeidas, listaTodas] = [listaDe(true), listaDe(false)];

  /**
   * The entries (grouped: unread ones of one kind on one item are one entry), newest first, and
   * whether they are all of them (fewer rows than the list's limit).
   */
  async function agrupadas(idUsuario: number, soloNoLeidas: boolean): Promise<{ entradas: EntradaNotificacion[]; completas: boolean }> {
    const filas = await (soloNoLeidas ? listaNoLeidas : listaTodas).execute({ id: idUsuario });
    type Grupo = { e: EntradaNotificacion; nombres: string[]; titulo: string; detalle: string; cantidad: number };
    const entradas: Grupo[] = [];
    const grupos = new Map<string, Grupo>();
    for (const { n, actor } of filas) {
      const leida = n.leida_en !== null;
      const clave = `${n.tipo}|${n.recurso_tipo}|${n.id_recurso}`;
      let g = leida ? undefined : grupos.get(clave);
      if (!g) {
        g = {
          e: {
            id: n.id,
            ids: [],
            tipo: n.tipo,
            recurso_tipo: n.recurso_tipo,
            id_recurso: n.id_recurso,
            texto: '',
            enlace: n.enlace,
            fecha: n.fecha.toISOString(),
            leida,
            actores: [],
          },
          nombres: [],
          titulo: n.titulo,
          detalle: n.detalle,
          cantidad: 0,
        };
        entradas.push(g);
        if (!leida) grupos.set(clave, g);
      }
      g.e.ids.push(n.id);
      g.cantidad += n.cantidad;
      if (actor && !g.e.actores.some((a) => a.id === actor.id)) {
        g.e.actores.push(toAutor(actor));
        g.nombres.push(actor.primer_nombre);
      }
    }
    return {
      entradas: entradas.map((g) => ({
        ...g.e,
        texto: textoNotificacion({ ...g.e, titulo: g.titulo, detalle: g.detalle, cantidad: g.cantidad }, g.nombres),
      })),
      completas: filas.length < LIMITE_LISTA,
    };
  }

  const correo = createCorreosNotificaciones(ctx, { noLeida, urlBaja });

  return {
    noLeidas,
    /** The recurring mail (registered by the runtime, services.server.ts). */
    trabajos: { [TRABAJO_CORREOS]: correo.trabajo },

    async listar(idUsuario: number, f: { no_leidas: boolean; pagina: number }) {
      const version = cuentas.version();
      const { entradas: todas, completas } = await agrupadas(idUsuario, f.no_leidas);
      const num_results = todas.length;
      // Every unread one listed, grouped as the count groups them: the count is the list's length,
      // and the bell's too (the home's first opening and the unread tab save the count's
      // statement, in the list and again in the page's header).
      const contadas = f.no_leidas && completas;
      if (contadas) cuentas.poner(String(idUsuario), version, num_results);
      return {
        notificaciones: todas.slice((f.pagina - 1) * TAMANO_PAGINA, f.pagina * TAMANO_PAGINA),
        num_results,
        num_pages: Math.max(1, Math.ceil(num_results / TAMANO_PAGINA)),
        no_leidas: contadas ? num_results : await noLeidas(idUsuario),
      };
    },

    /** Marks the given ones (the person's own only; others are ignored), or all. */
    async marcarLeidas(idUsuario: number, ids?: number[]): Promise<number> {
      if (ids && ids.length === 0) return noLeidas(idUsuario);
      await db
        .update(notificaciones)
        .set({ leida_en: ctx.now() })
        .where(and(noLeida(idUsuario), ids ? inArray(notificaciones.id, ids) : undefined));
      return noLeidas(idUsuario);
    },

    /**
     * Opening an entry of the list: marks it read with the unread ones it groups (same kind, same
     * item) and answers where it leads; null when it is not the person's.
     */
    async abrir(idUsuario: number, id: number): Promise<string | null> {
      const [n] = await db
        .select()
        .from(notificaciones)
        .where(and(eq(notificaciones.id, id), eq(notificaciones.id_usuario, idUsuario)));
      if (!n) return null;
      await db
        .update(notificaciones)
        .set({ leida_en: ctx.now() })
        .where(
          and(
            noLeida(idUsuario),
            eq(notificaciones.tipo, n.tipo),
            eq(notificaciones.recurso_tipo, n.recurso_tipo),
            eq(notificaciones.id_recurso, n.id_recurso),
          ),
        );
      return n.enlace;
    },

    async preferencias(idUsuario: number): Promise<Esquema<'Preferencias'>> {
      const [u] = await db
        .select({
          preferencia_correo: usuarios.preferencia_correo,
          ahorro_datos: usuarios.ahorro_datos,
          oculto_directorio: usuarios.oculto_directorio,
        })
        .from(usuarios)
        .where(eq(usuarios.id, idUsuario));
      return {
        preferencia_correo: (u?.preferencia_correo ?? 'diario') as PreferenciaCorreo,
        ahorro_datos: u?.ahorro_datos ?? false,
        oculto_directorio: u?.oculto_directorio ?? false,
      };
    },

    /** Changes the preferences given (at least one); the others stay as they were. */
    async cambiarPreferencias(idUsuario: number, cambio: Esquema<'CambioPreferencias'>): Promise<Esquema<'Preferencias'>> {
      const { preferencia_correo, ahorro_datos, oculto_directorio } = cambio;
      const valores = {
        ...(preferencia_correo === undefined ? {} : { preferencia_correo }),
        ...(ahorro_datos === undefined ? {} : { ahorro_datos }),
        ...(oculto_directorio === undefined ? {} : { oculto_directorio }),
      };
      if (Object.keys(valores).length > 0) await db.update(usuarios).set(valores).where(eq(usuarios.id, idUsuario));
      return this.preferencias(idUsuario);
    },

    /** The person an unsubscribe token names, or null. */
    usuarioDeBaja: (token: string) => usuarioDeTokenBaja(ctx.jwtSecret, token),

    /** One-click unsubscribe: no more notification mail. */
    async darDeBaja(idUsuario: number): Promise<void> {
      await db.update(usuarios).set({ preferencia_correo: 'nunca' }).where(eq(usuarios.id, idUsuario));
    },

    urlBaja,
    enviarCadaVez: correo.enviarCadaVez,
    enviarResumenes: correo.enviarResumenes,
    programar: correo.programar,
  };
}

export type NotificacionesService = ReturnType<typeof createNotificacionesService>;
