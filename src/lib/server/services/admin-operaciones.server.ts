/**
 * The admin console's jobs, mail and statistics (issue 16, /admin/trabajos and /admin/estadisticas):
 * background jobs by state with a retry of a failed one, the mail outbox with a retry, and the
 * usage figures. Retries are recorded in the audit log in their own transaction.
 */
import { and, count, desc, eq, gt, gte, inArray, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, unionAll } from 'drizzle-orm/pg-core';
import type { Esquema } from '../../api/contrato.ts';
import { describirTrabajo } from '../../palabras-admin.ts';
import { type FiltrosCorreos, TAMANO_PAGINA_CORREOS } from '../../validation/admin-operaciones.ts';
import { hoyEnChile } from '../../validation/foro.ts';
import { numPaginas } from '../../validation/listas.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import { areas, capsulas, correos, foroConversaciones, ingresos, manuales, materiales, niveles, trabajos } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { REEMPLAZADO } from '../mail/outbox.server.ts';
import { TRABAJO_HLS } from './capsulas.server.ts';
import type { ServiceContext } from './context.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

export type TrabajoAdmin = Esquema<'TrabajoAdmin'>;
export type CorreoAdmin = Esquema<'CorreoAdmin'>;

/** Each job list shows at most this many (the newest). */
const LIMITE_TRABAJOS = 50;
const SEMANAS = 12;
const MESES = 12;
const MAS_VISTOS = 10;
/**
 * How old the statistics may be (issue 36, decision 0077): they group whole tables (every item's
 * views, every material's area and level, a year of uploads), seconds at a region's size on the
 * embedded database, and every view writes the tables they read, so they are read at most once a
 * minute and the page says so.
 */
export const FRESCURA_ESTADISTICAS_MS = 60_000;

/** Weeks, months and 'today' are the users' (Chile's), whatever the server's zone. */
const ZONA = sql.raw(`'America/Santiago'`);
const enChile = (columna: PgColumn) => sql`(${columna} at time zone ${ZONA})`;

const TRABAJO_NO_ENCONTRADO = 'No se encontró el trabajo';
const CORREO_NO_ENCONTRADO = 'No se encontró el correo';
export const SOLO_TRABAJO_FALLIDO = 'Solo se puede reintentar un trabajo fallido';
export const SOLO_CORREO_FALLIDO = 'Solo se puede reintentar un correo fallido';
export const CORREO_REEMPLAZADO = 'Este correo fue reemplazado por uno más reciente; no se puede reintentar';

type FilaTrabajo = typeof trabajos.$inferSelect;

/** The capsule a video job works on, if `datos` names one. */
function capsulaDe(fila: Pick<FilaTrabajo, 'tipo' | 'datos'>): number | null {
  if (fila.tipo !== TRABAJO_HLS) return null;
  const id = Number((fila.datos as { id?: unknown } | null)?.id);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** 'YYYY-MM-DD' of a UTC calendar date. */
const dia = (d: Date) => d.toISOString().slice(0, 10);

/** The Mondays of the last `n` ISO weeks up to `hoy` (YYYY-MM-DD), oldest first. */
export function ultimasSemanas(hoy: string, n = SEMANAS): string[] {
  const d = new Date(`${hoy}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return Array.from({ length: n }, (_, i) => {
    const lunes = new Date(d);
    lunes.setUTCDate(d.getUTCDate() - 7 * (n - 1 - i));
    return dia(lunes);
  });
}

/** The last `n` months up to `hoy` (YYYY-MM-DD) as 'YYYY-MM', oldest first. */
export function ultimosMeses(hoy: string, n = MESES): string[] {
  const [y, m] = [Number(hoy.slice(0, 4)), Number(hoy.slice(5, 7))];
  return Array.from({ length: n }, (_, i) => dia(new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1))).slice(0, 7));
}

export function createAdminOperacionesService(ctx: ServiceContext) {
  const { db } = ctx;

  /** The jobs as the console shows them, with their capsules' titles (one query for all). */
  async function componer(conexion: Pick<Db, 'select'>, filas: FilaTrabajo[]): Promise<TrabajoAdmin[]> {
    const ids = [...new Set(filas.map(capsulaDe).filter((id): id is number => id !== null))];
    const titulos = new Map(
      ids.length === 0
        ? []
        : (await conexion.select({ id: capsulas.id, titulo: capsulas.titulo }).from(capsulas).where(inArray(capsulas.id, ids))).map(
            (c) => [c.id, c.titulo] as const,
          ),
    );
    return filas.map((f) => ({
      id: f.id,
      tipo: f.tipo,
      descripcion: describir(f, titulos),
      estado: f.estado,
      intentos: f.intentos,
      max_intentos: f.max_intentos,
      ultimo_error: f.ultimo_error,
      fecha_creacion: f.fecha_creacion.toISOString(),
      actualizado: f.actualizado?.toISOString() ?? null,
    }));
  }

  /** What a job does, in a coordinator's words (palabras-admin.ts): never its type's name. */
  function describir(f: FilaTrabajo, titulos: Map<number, string>): string {
    const capsula = capsulaDe(f);
    if (capsula !== null) {
      const titulo = titulos.get(capsula);
      return titulo === undefined ? `Procesar video de la cápsula n.º ${capsula} (eliminada)` : `Procesar video de la cápsula «${titulo}»`;
    }
    // Mail is not a job: the outbox (GET /api/admin/correos/) sends it.
    return describirTrabajo(f.tipo);
  }

  const lista = (where: SQL | undefined, ...orden: SQL[]) =>
    db
      .select()
      .from(trabajos)
      .where(where)
      .orderBy(...orden)
      .limit(LIMITE_TRABAJOS);

  async function trabajosAdmin(): Promise<Esquema<'TrabajosAdmin'>> {
    const ahora = ctx.now().toISOString();
    const medianoche = sql`(date_trunc('day', ${ahora}::timestamptz at time zone ${ZONA}) at time zone ${ZONA})`;
    const recientes = [desc(trabajos.fecha_creacion), desc(trabajos.id)];
    const porCambio = [sql`${trabajos.actualizado} desc nulls last`, desc(trabajos.id)];
    const [enCola, enCurso, fallidos, hechos] = [
      await lista(eq(trabajos.estado, 'pendiente'), ...recientes),
      await lista(eq(trabajos.estado, 'en_curso'), ...recientes),
      await lista(eq(trabajos.estado, 'fallido'), ...porCambio),
      await lista(and(eq(trabajos.estado, 'hecho'), gte(trabajos.actualizado, medianoche)), ...porCambio),
    ];
    const todos = await componer(db, [...enCola, ...enCurso, ...fallidos, ...hechos]);
    const de = (estado: FilaTrabajo['estado']) => todos.filter((t) => t.estado === estado);
    return { en_cola: de('pendiente'), en_curso: de('en_curso'), fallidos: de('fallido'), hechos_hoy: de('hecho') };
  }

  /** A failed job goes back to the queue, due now, with its attempts reset; its capsule shows as processing again. */
  async function reintentarTrabajo(actor: ActorAdmin, id: number): Promise<TrabajoAdmin> {
    return db.transaction(async (tx) => {
      const [fila] = await tx.select().from(trabajos).where(eq(trabajos.id, id)).for('update');
      if (!fila) throw new ErrorDeDominio(404, TRABAJO_NO_ENCONTRADO);
      if (fila.estado !== 'fallido') throw new ErrorDeDominio(409, SOLO_TRABAJO_FALLIDO);
      const [nueva] = await tx
        .update(trabajos)
        .set({ estado: 'pendiente', intentos: 0, ejecutar_desde: sql`now()`, bloqueado_hasta: null, actualizado: sql`now()` })
        .where(eq(trabajos.id, id))
        .returning();
      if (!nueva) throw new Error('job vanished while locked');
      const capsula = capsulaDe(fila);
      if (capsula !== null) {
        await tx
          .update(capsulas)
          .set({ estado: 'procesando', mensaje_error: null })
          .where(and(eq(capsulas.id, capsula), eq(capsulas.estado, 'error')));
      }
      const [trabajo] = await componer(tx, [nueva]);
      if (!trabajo) throw new Error('job not composed');
      await registrarAccion(tx, actor, {
        accion: 'reintentar_trabajo',
        tipo: 'trabajo',
        id_registro: id,
        detalle: `Reintentó el trabajo n.º ${id}: ${trabajo.descripcion}`,
      });
      ctx.log.info('job retried by an admin', { jobId: id, jobType: fila.tipo, adminId: actor.id });
      return trabajo;
    });
  }

  const columnasCorreo = {
    id: correos.id,
    para: correos.para,
    asunto: correos.asunto,
    estado: correos.estado,
    intentos: correos.intentos,
    ultimo_error: correos.ultimo_error,
    fecha_creacion: correos.fecha_creacion,
    fecha_envio: correos.fecha_envio,
  };
  type FilaCorreo = { [K in keyof typeof columnasCorreo]: (typeof correos.$inferSelect)[K] };

  /** Never the body or the link: they carry account tokens. */
  const correoAdmin = (f: FilaCorreo): CorreoAdmin => ({
    ...f,
    fecha_creacion: f.fecha_creacion.toISOString(),
    fecha_envio: f.fecha_envio?.toISOString() ?? null,
  });

  async function correosAdmin(f: FiltrosCorreos): Promise<Esquema<'CorreosAdmin'>> {
    const porEstado = await db.select({ estado: correos.estado, n: count() }).from(correos).groupBy(correos.estado);
    const totales = { pendiente: 0, enviado: 0, fallido: 0 };
    for (const fila of porEstado) totales[fila.estado] = Number(fila.n);
    const num_results = f.estado ? totales[f.estado] : totales.pendiente + totales.enviado + totales.fallido;
    const filas = await db
      .select(columnasCorreo)
      .from(correos)
      .where(f.estado ? eq(correos.estado, f.estado) : undefined)
      .orderBy(desc(correos.fecha_creacion), desc(correos.id))
      .limit(TAMANO_PAGINA_CORREOS)
      .offset((f.pagina - 1) * TAMANO_PAGINA_CORREOS);
    return { correos: filas.map(correoAdmin), num_pages: numPaginas(num_results, TAMANO_PAGINA_CORREOS), num_results, totales };
  }

  /** A failed mail is sent again (same Message-ID), due now; not one a newer mail replaced. */
  async function reintentarCorreo(actor: ActorAdmin, id: number): Promise<CorreoAdmin> {
    return db.transaction(async (tx) => {
      const [fila] = await tx
        .select({ estado: correos.estado, para: correos.para, ultimo_error: correos.ultimo_error })
        .from(correos)
        .where(eq(correos.id, id))
        .for('update');
      if (!fila) throw new ErrorDeDominio(404, CORREO_NO_ENCONTRADO);
      if (fila.estado !== 'fallido') throw new ErrorDeDominio(409, SOLO_CORREO_FALLIDO);
      // Its link was replaced by a newer one and no longer works.
      if (fila.ultimo_error === REEMPLAZADO) throw new ErrorDeDominio(409, CORREO_REEMPLAZADO);
      const [nueva] = await tx
        .update(correos)
        .set({ estado: 'pendiente', intentos: 0, proximo_intento: sql`now()` })
        .where(eq(correos.id, id))
        .returning(columnasCorreo);
      if (!nueva) throw new Error('mail vanished while locked');
      await registrarAccion(tx, actor, {
        accion: 'reintentar_correo',
        tipo: 'correo',
        id_registro: id,
        detalle: `Reintentó el envío del correo n.º ${id} a ${fila.para}`,
      });
      ctx.log.info('mail retried by an admin', { mailId: id, adminId: actor.id });
      return correoAdmin(nueva);
    });
  }

  /** Distinct people who signed in, per ISO week (date_trunc('week') starts on Monday). */
  async function activosPorSemana(semanas: string[]): Promise<Esquema<'EstadisticasAdmin'>['activos_por_semana']> {
    const semana = sql<string>`to_char(date_trunc('week', ${enChile(ingresos.fecha)}), 'YYYY-MM-DD')`;
    const filas = await db
      .select({ semana, docentes: sql<number>`count(distinct ${ingresos.id_usuario})::int` })
      .from(ingresos)
      // UTC midnight of the first Monday comes before Chile's: the extra hours fall in an earlier week, left out below.
      .where(gte(ingresos.fecha, new Date(`${semanas[0]}T00:00:00Z`)))
      .groupBy(semana);
    const por = new Map(filas.map((f) => [f.semana, Number(f.docentes)]));
    return semanas.map((s) => ({ semana: s, docentes: por.get(s) ?? 0 }));
  }

  async function subidasPorMes(meses: string[]): Promise<Esquema<'EstadisticasAdmin'>['subidas_por_mes']> {
    const desde = new Date(`${meses[0]}-01T00:00:00Z`);
    const porMes = (tabla: typeof capsulas | typeof materiales | typeof manuales, seccion: string) => {
      const mes = sql<string>`to_char(${enChile(tabla.fecha_creacion)}, 'YYYY-MM')`;
      return db
        .select({
          seccion: sql<string>`${sql.raw(`'${seccion}'`)}`.as('seccion'),
          mes: mes.as('mes'),
          total: sql<number>`count(*)::int`.as('total'),
        })
        .from(tabla)
        .where(gte(tabla.fecha_creacion, desde))
        .groupBy(mes);
    };
    const filas = await unionAll(porMes(capsulas, 'capsulas'), porMes(materiales, 'materiales'), porMes(manuales, 'manuales'));
    const filasMes = new Map(meses.map((m) => [m, { mes: m, capsulas: 0, materiales: 0, manuales: 0 }]));
    for (const f of filas) {
      const fila = filasMes.get(f.mes);
      if (fila && (f.seccion === 'capsulas' || f.seccion === 'materiales' || f.seccion === 'manuales')) fila[f.seccion] = Number(f.total);
    }
    return [...filasMes.values()];
  }

  /** The sums of the view counters, one row per section. */
  async function visitasPorSeccion(): Promise<Esquema<'EstadisticasAdmin'>['visitas_por_seccion']> {
    const suma = (tabla: typeof capsulas | typeof materiales | typeof manuales | typeof foroConversaciones, seccion: string) =>
      db
        .select({
          seccion: sql<string>`${sql.raw(`'${seccion}'`)}`.as('seccion'),
          visitas: sql<string>`coalesce(sum(${tabla.n_visitas}), 0)::bigint`.as('visitas'),
        })
        .from(tabla);
    const filas = await unionAll(
      suma(capsulas, 'capsulas'),
      suma(materiales, 'biblioteca'),
      suma(manuales, 'manuales'),
      suma(foroConversaciones, 'foro'),
    );
    const por = new Map(filas.map((f) => [f.seccion, Number(f.visitas)]));
    return (['capsulas', 'biblioteca', 'manuales', 'foro'] as const).map((seccion) => ({ seccion, visitas: por.get(seccion) ?? 0 }));
  }

  async function masVistos(): Promise<Esquema<'ItemMasVisto'>[]> {
    const de = (tabla: typeof capsulas | typeof materiales | typeof manuales, tipo: 'capsula' | 'material' | 'manual', where?: SQL) =>
      db
        .select({
          tipo: sql<string>`${sql.raw(`'${tipo}'`)}`.as('tipo'),
          id: tabla.id,
          titulo: tabla.titulo,
          visitas: tabla.n_visitas,
        })
        .from(tabla)
        .where(and(gt(tabla.n_visitas, 0), where));
    const filas = await unionAll(de(capsulas, 'capsula', eq(capsulas.estado, 'listo')), de(materiales, 'material'), de(manuales, 'manual'))
      .orderBy(sql`4 desc`, sql`1`, sql`2`)
      .limit(MAS_VISTOS);
    const ruta = { capsula: '/capsulas', material: '/biblioteca-docente', manual: '/manuales' } as const;
    return filas.flatMap((f) =>
      f.tipo === 'capsula' || f.tipo === 'material' || f.tipo === 'manual'
        ? [{ tipo: f.tipo, id: f.id, titulo: f.titulo, visitas: f.visitas, href: `${ruta[f.tipo]}/${f.id}` }]
        : [],
    );
  }

  /** Every area and level, and one cell per pair: a heat map shows where nothing was shared yet. */
  async function materialesPorAreaNivel(): Promise<Esquema<'EstadisticasAdmin'>['materiales_por_area_nivel']> {
    const listaAreas = await db.select({ id: areas.id, nombre: areas.nombre }).from(areas).orderBy(areas.id);
    const listaNiveles = await db.select({ codigo: niveles.codigo, nombre: niveles.nombre }).from(niveles).orderBy(niveles.orden);
    const cuentas = await db
      .select({ area: materiales.id_area, nivel: materiales.codigo_nivel, total: count() })
      .from(materiales)
      .groupBy(materiales.id_area, materiales.codigo_nivel);
    const total = new Map(cuentas.map((c) => [`${c.area}|${c.nivel}`, Number(c.total)]));
    return {
      areas: listaAreas.map((a) => a.nombre),
      niveles: listaNiveles.map((n) => n.nombre),
      celdas: listaAreas.flatMap((a) =>
        listaNiveles.map((n) => ({ area: a.nombre, nivel: n.nombre, total: total.get(`${a.id}|${n.codigo}`) ?? 0 })),
      ),
    };
  }

  async function calcular(hoy: string): Promise<Esquema<'EstadisticasAdmin'>> {
    const [activos_por_semana, subidas_por_mes, visitas_por_seccion, mas_vistos, materiales_por_area_nivel] = await Promise.all([
      activosPorSemana(ultimasSemanas(hoy)),
      subidasPorMes(ultimosMeses(hoy)),
      visitasPorSeccion(),
      masVistos(),
      materialesPorAreaNivel(),
    ]);
    return { activos_por_semana, subidas_por_mes, visitas_por_seccion, mas_vistos, materiales_por_area_nivel };
  }

  /**
   * The latest figures, read at most FRESCURA_ESTADISTICAS_MS ago, by age alone (every view writes
   * the tables they read), and kept under the day in Chile: a new day is another key, read at once.
   */
  const cacheEstadisticas = cacheDeLecturas<Esquema<'EstadisticasAdmin'>>(db, {
    tablas: null,
    segundos: FRESCURA_ESTADISTICAS_MS / 1000,
    max: 1,
    now: ctx.now,
  });
  function estadisticas(): Promise<Esquema<'EstadisticasAdmin'>> {
    const hoy = hoyEnChile(ctx.now());
    return cacheEstadisticas.leer(hoy, () => calcular(hoy));
  }

  return {
    trabajos: trabajosAdmin,
    reintentarTrabajo,
    correos: correosAdmin,
    reintentarCorreo,
    estadisticas,
  };
}

export type AdminOperacionesService = ReturnType<typeof createAdminOperacionesService>;
