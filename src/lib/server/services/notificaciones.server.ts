/**
 * Notifications (issue 17): rows written in the transaction of the action that causes them (a
 * reply, a comment, a like, a reaction), listed grouped, marked as read; and their mail, by each
 * person's choice (`usuarios.preferencia_correo`): one mail each ('cada_vez'), one digest a day
 * ('diario', after 08:00 in America/Santiago) of everything still unread, or none. A recurring job
 * sends both under a lock on the person's row: a 'cada vez' notification goes once (`enviada_en`),
 * and the digest once a local day (`usuarios.resumen_enviado`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { PreferenciaCorreo } from '../../validation/notificaciones.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import {
  capsulas,
  comentarios,
  foroComentarios,
  foroConversaciones,
  manuales,
  materiales,
  notificaciones,
  trabajos,
  usuarios,
} from '../db/schema.server.ts';
import { correoNotificacion, resumenDiario } from '../mail/notificaciones.server.ts';
import { encolarCorreo } from '../mail/outbox.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { TipoRecurso } from './recursos.server.ts';
import { fotoUrl } from './usuarios.server.ts';

export type TipoNotificacion = (typeof notificaciones.$inferInsert)['tipo'];
type Nueva = typeof notificaciones.$inferInsert;
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

const tablas = { capsula: capsulas, material: materiales, manual: manuales } as const;
const rutas: Record<TipoRecurso, string> = { capsula: '/capsulas', material: '/biblioteca-docente', manual: '/manuales' };
const enlaceRecurso = (tipo: TipoRecurso, id: number) => `${rutas[tipo]}/${id}#titulo-comentarios`;
const enlaceConversacion = (idCategoria: number, id: number) => `/foro/categorias/${idCategoria}/conversacion/${id}`;

/** Writes notifications, never to the person who acted, at most one per recipient. */
async function insertar(tx: Db, filas: Nueva[]): Promise<void> {
  const vistas = new Set<number>();
  const validas = filas.filter((f) => {
    if (f.id_usuario === f.id_actor || vistas.has(f.id_usuario)) return false;
    vistas.add(f.id_usuario);
    return true;
  });
  if (validas.length > 0) await tx.insert(notificaciones).values(validas);
}

/** Removes the unread notification of a like or reaction taken back. */
async function retirar(tx: Db, f: { tipo: TipoNotificacion; id_actor: number; recurso_tipo: string; id_recurso: number }) {
  await tx
    .delete(notificaciones)
    .where(
      and(
        eq(notificaciones.tipo, f.tipo),
        eq(notificaciones.id_actor, f.id_actor),
        eq(notificaciones.recurso_tipo, f.recurso_tipo),
        eq(notificaciones.id_recurso, f.id_recurso),
        isNull(notificaciones.leida_en),
      ),
    );
}

/** A comment on a capsule, material or manual: 'respuesta' to the parent's author, 'comentario' to the item's. */
export async function notificarComentarioRecurso(
  tx: Db,
  e: { tipo: TipoRecurso; id: number; idActor: number; padre: number | null },
): Promise<void> {
  const tabla = tablas[e.tipo];
  const [item] = await tx.select({ titulo: tabla.titulo, autor: tabla.id_usuario }).from(tabla).where(eq(tabla.id, e.id));
  if (!item) return;
  const base = { id_actor: e.idActor, recurso_tipo: e.tipo, id_recurso: e.id, titulo: item.titulo, enlace: enlaceRecurso(e.tipo, e.id) };
  const filas: Nueva[] = [];
  if (e.padre !== null) {
    const [padre] = await tx.select({ autor: comentarios.id_usuario }).from(comentarios).where(eq(comentarios.id, e.padre));
    if (padre) filas.push({ ...base, tipo: 'respuesta', id_usuario: padre.autor });
  }
  filas.push({ ...base, tipo: 'comentario', id_usuario: item.autor });
  await insertar(tx, filas);
}

/** A forum comment: 'respuesta' to the parent comment's author, 'comentario' to the conversation's. */
export async function notificarComentarioForo(tx: Db, e: { idConversacion: number; idActor: number; padre: number | null }) {
  const [conv] = await tx
    .select({ titulo: foroConversaciones.titulo, autor: foroConversaciones.id_usuario_creador, categoria: foroConversaciones.id_categoria })
    .from(foroConversaciones)
    .where(eq(foroConversaciones.id, e.idConversacion));
  if (!conv) return;
  const base = {
    id_actor: e.idActor,
    recurso_tipo: 'conversacion',
    id_recurso: e.idConversacion,
    titulo: conv.titulo,
    enlace: enlaceConversacion(conv.categoria, e.idConversacion),
  };
  const filas: Nueva[] = [];
  if (e.padre !== null) {
    const [padre] = await tx.select({ autor: foroComentarios.id_usuario }).from(foroComentarios).where(eq(foroComentarios.id, e.padre));
    if (padre) filas.push({ ...base, tipo: 'respuesta', id_usuario: padre.autor });
  }
  filas.push({ ...base, tipo: 'comentario', id_usuario: conv.autor });
  await insertar(tx, filas);
}

/** A like given (`add`) or taken back on a capsule, material or manual. */
export async function notificarMeGusta(tx: Db, e: { tipo: TipoRecurso; id: number; idActor: number; add: boolean }) {
  if (!e.add) return retirar(tx, { tipo: 'me_gusta', id_actor: e.idActor, recurso_tipo: e.tipo, id_recurso: e.id });
  const tabla = tablas[e.tipo];
  const [item] = await tx.select({ titulo: tabla.titulo, autor: tabla.id_usuario }).from(tabla).where(eq(tabla.id, e.id));
  if (!item) return;
  await insertar(tx, [
    {
      tipo: 'me_gusta',
      id_usuario: item.autor,
      id_actor: e.idActor,
      recurso_tipo: e.tipo,
      id_recurso: e.id,
      titulo: item.titulo,
      enlace: enlaceRecurso(e.tipo, e.id),
    },
  ]);
}

/**
 * A reaction given or taken back on a conversation or forum comment. One notification per person
 * and target however many reactions they give; it goes when their last reaction there goes
 * (`quedan`: how many of theirs remain).
 */
export async function notificarReaccion(
  tx: Db,
  e: { objetivo: 'conversacion' | 'comentario'; id: number; idActor: number; add: boolean; quedan: number },
) {
  const recurso_tipo = e.objetivo === 'conversacion' ? 'conversacion' : 'comentario_foro';
  const clave = { tipo: 'reaccion' as const, id_actor: e.idActor, recurso_tipo, id_recurso: e.id };
  if (!e.add) {
    if (e.quedan === 0) await retirar(tx, clave);
    return;
  }
  const [ya] = await tx
    .select({ id: notificaciones.id })
    .from(notificaciones)
    .where(
      and(
        eq(notificaciones.tipo, 'reaccion'),
        eq(notificaciones.id_actor, e.idActor),
        eq(notificaciones.recurso_tipo, recurso_tipo),
        eq(notificaciones.id_recurso, e.id),
      ),
    );
  if (ya) return; // Already notified for an earlier reaction of theirs.
  const [t] =
    e.objetivo === 'conversacion'
      ? await tx
          .select({
            autor: foroConversaciones.id_usuario_creador,
            titulo: foroConversaciones.titulo,
            conv: foroConversaciones.id,
            cat: foroConversaciones.id_categoria,
          })
          .from(foroConversaciones)
          .where(eq(foroConversaciones.id, e.id))
      : await tx
          .select({
            autor: foroComentarios.id_usuario,
            titulo: foroConversaciones.titulo,
            conv: foroConversaciones.id,
            cat: foroConversaciones.id_categoria,
          })
          .from(foroComentarios)
          .innerJoin(foroConversaciones, eq(foroConversaciones.id, foroComentarios.id_conversacion))
          .where(eq(foroComentarios.id, e.id));
  if (!t) return;
  await insertar(tx, [{ ...clave, id_usuario: t.autor, titulo: t.titulo, enlace: enlaceConversacion(t.cat, t.conv) }]);
}

/**
 * Forgets the notifications about an item that is deleted (pass the deleting transaction), so no
 * entry links to a page that is gone. `recurso_tipo`: 'capsula', 'material', 'manual',
 * 'conversacion' or 'comentario_foro'. Called by the deletions of content, conversations and forum comments.
 */
export async function olvidarNotificaciones(tx: Db, recurso_tipo: string, ids: number | number[]): Promise<void> {
  const lista = Array.isArray(ids) ? ids : [ids];
  if (lista.length === 0) return;
  await tx.delete(notificaciones).where(and(eq(notificaciones.recurso_tipo, recurso_tipo), inArray(notificaciones.id_recurso, lista)));
}

/**
 * A decision of the moderation team (issue 17) told to the people it concerns: the author
 * ('oculto', 'restaurado', 'eliminado') or those who reported it ('denuncia_resuelta'). No actor:
 * nobody is named, and nobody is skipped as the one who acted.
 */
export async function notificarModeracion(
  tx: Db,
  e: {
    tipo: Extract<TipoNotificacion, 'oculto' | 'restaurado' | 'eliminado' | 'denuncia_resuelta'>;
    para: number[];
    recurso_tipo: string;
    id_recurso: number;
    titulo: string;
    enlace: string;
    detalle: string;
  },
): Promise<void> {
  const { para, ...fila } = e;
  await insertar(
    tx,
    para.map((id_usuario) => ({ ...fila, id_usuario, id_actor: null })),
  );
}

const NOMBRES: Record<string, string> = {
  capsula: 'cápsula',
  material: 'material',
  manual: 'manual',
  conversacion: 'conversación',
  comentario_foro: 'comentario',
  comentario_capsula: 'comentario',
  comentario_material: 'comentario',
  comentario_manual: 'comentario',
  usuario: 'perfil',
};
/** Kinds named by a feminine noun: the participle agrees ('Tu cápsula … fue ocultada'). */
const FEMENINOS = new Set(['capsula', 'conversacion']);
/** A comment's `titulo` is the title of what it is on ('Tu comentario en «…»'). */
const esComentario = (recurso_tipo: string) => recurso_tipo.startsWith('comentario_');

/** The Spanish sentence of a (grouped) notification. */
export function textoNotificacion(n: { tipo: string; recurso_tipo: string; titulo: string; detalle?: string }, actores: string[]): string {
  const uno = actores.length <= 1;
  const quien = actores.length === 0 ? 'Alguien' : uno ? actores[0] : `${actores[0]} y ${actores.length - 1} más`;
  const cosa = NOMBRES[n.recurso_tipo] ?? 'publicación';
  const titulo = `«${n.titulo}»`;
  const motivo = n.detalle ? ` Motivo: ${n.detalle}` : '';
  const queEs = esComentario(n.recurso_tipo) ? `comentario en ${titulo}` : `${cosa} ${titulo}`;
  const participio = (raiz: string) => `${raiz}${FEMENINOS.has(n.recurso_tipo) ? 'a' : 'o'}`;
  switch (n.tipo) {
    case 'respuesta':
      return `${quien} ${uno ? 'respondió' : 'respondieron'} a tu comentario en ${titulo}`;
    case 'comentario':
      return `${quien} ${uno ? 'comentó' : 'comentaron'} tu ${cosa} ${titulo}`;
    case 'me_gusta':
      return `${quien} ${uno ? 'marcó' : 'marcaron'} «Me gusta» en tu ${cosa} ${titulo}`;
    case 'reaccion':
      return n.recurso_tipo === 'comentario_foro'
        ? `${quien} ${uno ? 'reaccionó' : 'reaccionaron'} a tu comentario en ${titulo}`
        : `${quien} ${uno ? 'reaccionó' : 'reaccionaron'} a tu ${cosa} ${titulo}`;
    case 'oculto':
      return `Tu ${queEs} fue ${participio('ocultad')} por moderación.${motivo}`;
    case 'restaurado':
      return `Tu ${queEs} fue ${participio('restaurad')}.${motivo}`;
    case 'eliminado':
      return `Tu ${queEs} fue ${participio('eliminad')} por moderación.${motivo}`;
    case 'denuncia_resuelta':
      return `Tu denuncia sobre ${esComentario(n.recurso_tipo) ? `un comentario en ${titulo}` : titulo} fue resuelta.${motivo}`;
    default:
      return `Novedad en ${titulo}`;
  }
}

// ── Unsubscribe tokens ───────────────────────────────────────────────────────────────────────

const firma = (secret: string, id: number) => createHmac('sha256', secret).update(`baja-correo:${id}`).digest('base64url');

/** A token naming the person, signed with the app's secret: it does not expire (RFC 8058 links stay valid). */
export function tokenBaja(secret: string, idUsuario: number): string {
  return `${idUsuario}.${firma(secret, idUsuario)}`;
}

/** The person a token names, or null when it is not ours. */
export function usuarioDeTokenBaja(secret: string, token: string): number | null {
  const m = /^([1-9]\d{0,9})\.([\w-]{43})$/.exec(token);
  if (!m) return null;
  const id = Number(m[1]);
  const esperada = Buffer.from(firma(secret, id));
  const dada = Buffer.from(m[2] ?? '');
  return dada.length === esperada.length && timingSafeEqual(dada, esperada) ? id : null;
}

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

  ctx.jobs.register(TRABAJO_CORREOS, async (_datos, job) => {
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
  });

  return {
    noLeidas,

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
