/**
 * Notification mail (issue 17), by each person's choice (`usuarios.preferencia_correo`): one mail
 * each ('cada_vez'), one digest a day ('diario', after 08:00 in America/Santiago) of everything
 * still unread, or none. A recurring job sends both under a lock on the person's row: a 'cada vez'
 * notification goes once (`enviada_en`), and the digest once a local day (`usuarios.resumen_enviado`).
 */
import { and, desc, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.server.ts';
import { notificaciones, usuarios } from '../../db/schema.server.ts';
import { trabajoPeriodico } from '../../jobs/periodico.server.ts';
import { correoNotificacion, resumenDiario } from '../../mail/notificaciones.server.ts';
import { encolarCorreo } from '../../mail/outbox.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { seguimientoDeNotificacion, urlDejarDeSeguir } from './baja.server.ts';
import { textoNotificacion } from './textos.server.ts';

/** The recurring job that sends notification mail. */
export const TRABAJO_CORREOS = 'notificaciones-correos';
/** How often it runs: 'cada vez' mail goes out within this. */
export const CADENCIA_SEGUNDOS = 60;
/** The digest goes out from this local hour on. */
export const HORA_RESUMEN = 8;
export const ZONA = 'America/Santiago';

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

/**
 * The mail job over the service's own reading of what is unread (`noLeida`) and each person's
 * unsubscribe link (`urlBaja`).
 */
export function createCorreosNotificaciones(
  ctx: ServiceContext,
  f: { noLeida: (idUsuario: number) => SQL | undefined; urlBaja: (idUsuario: number) => string },
) {
  const { db } = ctx;
  const { noLeida, urlBaja } = f;

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
          const m = correoNotificacion(u.primer_nombre, n, `${ctx.config.PUBLIC_URL}${n.enlace}`, urlBaja(id));
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
    const grupos = new Map<string, { ids: number[]; nombres: string[]; cantidad: number; n: (typeof filas)[number]['n'] }>();
    for (const { n, nombre } of filas) {
      const clave = `${n.tipo}|${n.recurso_tipo}|${n.id_recurso}`;
      const g = grupos.get(clave) ?? { ids: [], nombres: [], cantidad: 0, n };
      grupos.set(clave, g);
      g.ids.push(n.id);
      g.cantidad += n.cantidad;
      if (nombre && !g.nombres.includes(nombre)) g.nombres.push(nombre);
    }
    return [...grupos.values()].map((g) => {
      // A follow's line carries its own stop link (issue 35): no sign-in needed.
      const seguimiento = seguimientoDeNotificacion(g.n);
      return {
        ids: g.ids,
        enlace: g.n.enlace,
        texto: textoNotificacion({ ...g.n, cantidad: g.cantidad }, g.nombres),
        ...(seguimiento === null ? {} : { dejar: urlDejarDeSeguir(ctx.config.PUBLIC_URL, ctx.jwtSecret, seguimiento) }),
      };
    });
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
        const m = resumenDiario(u.primer_nombre, lista, `${ctx.config.PUBLIC_URL}/notificaciones`, urlBaja(id));
        await encolarCorreo(tx, { to: u.email, ...m, link: urlBaja(id) });
        await tx.update(usuarios).set({ resumen_enviado: ahora }).where(eq(usuarios.id, id));
        const ids = lista.flatMap((n) => n.ids);
        await tx.update(notificaciones).set({ enviada_en: ahora }).where(inArray(notificaciones.id, ids));
        return 1;
      });
    }
    return enviados;
  }

  /** Each cadence: every 'cada vez' notification, then the digests that are due. */
  const periodico = trabajoPeriodico(ctx, TRABAJO_CORREOS, CADENCIA_SEGUNDOS, async () => {
    await enviarCadaVez();
    await enviarResumenes();
  });

  return {
    enviarCadaVez,
    enviarResumenes,
    /** Makes sure the recurring mail job is queued (at start-up; the job queues its next run). */
    programar: periodico.programar,
    /** The recurring job's handler (registered by the runtime, services.server.ts). */
    trabajo: periodico.trabajo,
  };
}
