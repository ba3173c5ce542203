/**
 * Notifications (issue 17): rows written in the transaction of the action that causes them (a
 * reply, a comment, a like, a reaction), listed grouped, marked as read; and their mail, by each
 * person's choice (`usuarios.preferencia_correo`): one mail each ('cada_vez'), one digest a day
 * ('diario', after 08:00 in America/Santiago) of everything still unread, or none. A recurring job
 * sends both under a lock on the person's row: a 'cada vez' notification goes once (`enviada_en`),
 * and the digest once a local day (`usuarios.resumen_enviado`).
 */
import { and, count, desc, eq, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { PreferenciaCorreo } from '../../validation/notificaciones.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import { notificaciones, trabajos, usuarios } from '../db/schema.server.ts';
import type { JobHandler } from '../jobs/runner.server.ts';
import { correoNotificacion, resumenDiario } from '../mail/notificaciones.server.ts';
import { encolarCorreo } from '../mail/outbox.server.ts';
import type { ServiceContext } from './context.server.ts';
import { tokenBaja, usuarioDeTokenBaja } from './notificaciones/baja.server.ts';
import { textoNotificacion } from './notificaciones/textos.server.ts';
import { fotoUrl } from './usuarios.server.ts';

// The hooks other services call in their transactions, the sentences and the unsubscribe tokens
// live in notificaciones/; their importers keep this one name.
export { tokenBaja, usuarioDeTokenBaja } from './notificaciones/baja.server.ts';
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

/** The recurring job that sends notification mail. */
export const TRABAJO_CORREOS = 'notificaciones-correos';
/** How often it runs: 'cada vez' mail goes out within this. */
export const CADENCIA_SEGUNDOS = 60;
/** The digest goes out from this local hour on. */
export const HORA_RESUMEN = 8;
export const ZONA = 'America/Santiago';
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

/** The local date (YYYY-MM-DD) and hour in America/Santiago. */
export function horaLocal(d: Date): { fecha: string; hora: number } {
  const partes = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONA,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const p = (t: string) => partes.find((x) => x.type === t)?.value ?? '';
  return { fecha: `${p('year')}-${p('month')}-${p('day')}`, hora: Number(p('hour')) };
}

export function createNotificacionesService(ctx: ServiceContext) {
  const { db } = ctx;
  const noLeida = (idUsuario: number) => and(eq(notificaciones.id_usuario, idUsuario), isNull(notificaciones.leida_en));
  const urlBaja = (idUsuario: number) => `${ctx.config.PUBLIC_URL}/api/notificaciones/baja/${tokenBaja(ctx.jwtSecret, idUsuario)}/`;

  /** Unread entries as the list counts them: one per (tipo, recurso_tipo, id_recurso). */
  /**
   * The bell's number, asked by every page the person opens: kept per person until the table
   * changes (any notification written or read) or, with other processes on the database, for
   * two seconds (decision 0040: it was a quarter of a signed-in page's time).
   */
  const cuentas = cacheDeLecturas<number>(db, { tablas: [notificaciones], segundos: 2, max: 5_000, now: ctx.now });
  function noLeidas(idUsuario: number): Promise<number> {
    return cuentas.leer(String(idUsuario), async () => {
      const grupos = db
        .selectDistinct({ t: notificaciones.tipo, r: notificaciones.recurso_tipo, i: notificaciones.id_recurso })
        .from(notificaciones)
        .where(noLeida(idUsuario))
        .as('grupos');
      const [fila] = await db.select({ n: count() }).from(grupos);
      return fila?.n ?? 0;
    });
  }

  /** The entries (grouped: unread ones of one kind on one item are one entry), newest first. */
  async function agrupadas(idUsuario: number, soloNoLeidas: boolean): Promise<EntradaNotificacion[]> {
    const filas = await db
      .select({ n: notificaciones, actor: autorColumns })
      .from(notificaciones)
      .leftJoin(usuarios, eq(usuarios.id, notificaciones.id_actor))
      .where(soloNoLeidas ? noLeida(idUsuario) : eq(notificaciones.id_usuario, idUsuario))
      .orderBy(desc(notificaciones.fecha), desc(notificaciones.id))
      .limit(LIMITE_LISTA);
    type Grupo = { e: EntradaNotificacion; nombres: string[]; titulo: string; detalle: string };
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
        };
        entradas.push(g);
        if (!leida) grupos.set(clave, g);
      }
      g.e.ids.push(n.id);
      if (actor && !g.e.actores.some((a) => a.id === actor.id)) {
        g.e.actores.push(toAutor(actor));
        g.nombres.push(actor.primer_nombre);
      }
    }
    return entradas.map((g) => ({ ...g.e, texto: textoNotificacion({ ...g.e, titulo: g.titulo, detalle: g.detalle }, g.nombres) }));
  }

  /** The active people with this mail preference who have unread notifications that pass `cuales`. */
  function conPendientes(preferencia: 'cada_vez' | 'diario', cuales: SQL | undefined) {
    return db
      .selectDistinct({ id: notificaciones.id_usuario })
      .from(notificaciones)
      .innerJoin(usuarios, eq(usuarios.id, notificaciones.id_usuario))
      .where(and(isNull(notificaciones.leida_en), eq(usuarios.preferencia_correo, preferencia), eq(usuarios.activo, true), cuales));
  }

  /** The instant the local (Santiago) day of `ahora` began. */
  const inicioDelDia = (ahora: Date): SQL =>
    sql`date_trunc('day', ${ahora.toISOString()}::timestamptz at time zone ${ZONA}) at time zone ${ZONA}`;

  /** Mails the 'cada vez' people's new notifications, one each. */
  async function enviarCadaVez(): Promise<number> {
    const pendientes = await conPendientes('cada_vez', isNull(notificaciones.enviada_en));
    let enviados = 0;
    for (const { id } of pendientes) {
      enviados += await db.transaction(async (tx) => {
        // The person's row locked: a second runner waits here and then finds nothing left to send.
        const [u] = await tx.select().from(usuarios).where(eq(usuarios.id, id)).for('update');
        if (u?.preferencia_correo !== 'cada_vez') return 0;
        const lista = await porEnviar(tx, id, { soloNuevas: true });
        for (const n of lista) {
          const m = correoNotificacion(u.primer_nombre, n.texto, `${ctx.config.PUBLIC_URL}${n.enlace}`, urlBaja(id));
          await encolarCorreo(tx, { to: u.email, ...m, link: urlBaja(id) });
        }
        const ids = lista.flatMap((n) => n.ids);
        if (ids.length > 0) await tx.update(notificaciones).set({ enviada_en: ctx.now() }).where(inArray(notificaciones.id, ids));
        return lista.length;
      });
    }
    return enviados;
  }

  /**
   * A person's unread notifications (`soloNuevas`: only those never mailed), grouped as the list
   * groups them, with their sentence (for mail).
   */
  async function porEnviar(tx: Db, idUsuario: number, f: { soloNuevas: boolean }) {
    const filas = await tx
      .select({ n: notificaciones, nombre: usuarios.primer_nombre })
      .from(notificaciones)
      .leftJoin(usuarios, eq(usuarios.id, notificaciones.id_actor))
      .where(and(noLeida(idUsuario), f.soloNuevas ? isNull(notificaciones.enviada_en) : undefined))
      .orderBy(desc(notificaciones.fecha), desc(notificaciones.id));
    const grupos = new Map<string, { ids: number[]; nombres: string[]; n: (typeof filas)[number]['n'] }>();
    for (const { n, nombre } of filas) {
      const clave = `${n.tipo}|${n.recurso_tipo}|${n.id_recurso}`;
      const g = grupos.get(clave) ?? { ids: [], nombres: [], n };
      grupos.set(clave, g);
      g.ids.push(n.id);
      if (nombre && !g.nombres.includes(nombre)) g.nombres.push(nombre);
    }
    return [...grupos.values()].map((g) => ({ ids: g.ids, enlace: g.n.enlace, texto: textoNotificacion(g.n, g.nombres) }));
  }

  /**
   * From 08:00 local time, one digest a local day per 'diario' person with anything unread: all of
   * it, mailed before or not (what stays unread comes again the next day); read ones never.
   */
  async function enviarResumenes(): Promise<number> {
    const ahora = ctx.now();
    if (horaLocal(ahora).hora < HORA_RESUMEN) return 0;
    const hoy = inicioDelDia(ahora);
    // Whoever has not had today's digest yet.
    const candidatos = await conPendientes('diario', or(isNull(usuarios.resumen_enviado), lt(usuarios.resumen_enviado, hoy)));
    let enviados = 0;
    for (const { id } of candidatos) {
      enviados += await db.transaction(async (tx) => {
        // The person's row locked: a second runner waits here and then finds today's digest marked.
        const [u] = await tx.select().from(usuarios).where(eq(usuarios.id, id)).for('update');
        if (u?.preferencia_correo !== 'diario') return 0;
        if (u.resumen_enviado && horaLocal(u.resumen_enviado).fecha === horaLocal(ahora).fecha) return 0;
        const lista = await porEnviar(tx, id, { soloNuevas: false });
        if (lista.length === 0) return 0;
        const m = resumenDiario(
          u.primer_nombre,
          lista.map((n) => n.texto),
          `${ctx.config.PUBLIC_URL}/notificaciones`,
          urlBaja(id),
        );
        await encolarCorreo(tx, { to: u.email, ...m, link: urlBaja(id) });
        await tx.update(usuarios).set({ resumen_enviado: ahora }).where(eq(usuarios.id, id));
        const ids = lista.flatMap((n) => n.ids);
        await tx.update(notificaciones).set({ enviada_en: ahora }).where(inArray(notificaciones.id, ids));
        return 1;
      });
    }
    return enviados;
  }

  /** Makes sure the recurring mail job is queued (at start-up; the job queues its next run). */
  async function programar(): Promise<void> {
    const [vivo] = await db
      .select({ id: trabajos.id })
      .from(trabajos)
      .where(and(eq(trabajos.tipo, TRABAJO_CORREOS), inArray(trabajos.estado, ['pendiente', 'en_curso'])));
    if (!vivo) await ctx.jobs.enqueue(TRABAJO_CORREOS, {}, { maxIntentos: 1 });
  }

  const correos: JobHandler = async (_datos, job) => {
    try {
      await enviarCadaVez();
      await enviarResumenes();
    } finally {
      // The next run, unless another runner already queued one; finished runs are only noise.
      await db.delete(trabajos).where(and(eq(trabajos.tipo, TRABAJO_CORREOS), eq(trabajos.estado, 'hecho'), ne(trabajos.id, job.id)));
      const [otro] = await db
        .select({ id: trabajos.id })
        .from(trabajos)
        .where(and(eq(trabajos.tipo, TRABAJO_CORREOS), eq(trabajos.estado, 'pendiente')));
      if (!otro) await ctx.jobs.enqueue(TRABAJO_CORREOS, {}, { maxIntentos: 1, enSegundos: CADENCIA_SEGUNDOS });
    }
  };

  return {
    noLeidas,
    /** The recurring mail (registered by the runtime, services.server.ts). */
    trabajos: { [TRABAJO_CORREOS]: correos },

    async listar(idUsuario: number, f: { no_leidas: boolean; pagina: number }) {
      const todas = await agrupadas(idUsuario, f.no_leidas);
      const num_results = todas.length;
      return {
        notificaciones: todas.slice((f.pagina - 1) * TAMANO_PAGINA, f.pagina * TAMANO_PAGINA),
        num_results,
        num_pages: Math.max(1, Math.ceil(num_results / TAMANO_PAGINA)),
        no_leidas: await noLeidas(idUsuario),
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
        .select({ preferencia_correo: usuarios.preferencia_correo, ahorro_datos: usuarios.ahorro_datos })
        .from(usuarios)
        .where(eq(usuarios.id, idUsuario));
      return { preferencia_correo: (u?.preferencia_correo ?? 'diario') as PreferenciaCorreo, ahorro_datos: u?.ahorro_datos ?? false };
    },

    /** Changes the preferences given (at least one); the others stay as they were. */
    async cambiarPreferencias(idUsuario: number, cambio: Esquema<'CambioPreferencias'>): Promise<Esquema<'Preferencias'>> {
      const { preferencia_correo, ahorro_datos } = cambio;
      const valores = {
        ...(preferencia_correo === undefined ? {} : { preferencia_correo }),
        ...(ahorro_datos === undefined ? {} : { ahorro_datos }),
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
    enviarCadaVez,
    enviarResumenes,
    programar,
  };
}

export type NotificacionesService = ReturnType<typeof createNotificacionesService>;
