/**
 * 'Mis datos' (issue 31, Ley 21.719's rights of access and portability, docs/decisions/0058):
 * what the platform holds about a person, by category with counts; a copy of it as one ZIP,
 * built by the 'copia-datos' job into storage, told by a notification and a mail, downloadable by
 * its owner alone for 7 days (each download in the audit log), then removed by a clean-up job.
 *
 * Who: the person, for everything; an admin may read the summary (to answer a request that
 * arrives on paper), but neither asks for nor downloads someone else's copy.
 */
import { and, count, desc, eq, gte, lte } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { nombreCompleto } from '../../format/index.ts';
import { copiasDatos, notificaciones, solicitudesDatos, usuarios } from '../db/schema.server.ts';
import { ErrorDeDominio, sinPermisos } from '../errores.server.ts';
import { trabajoPeriodico } from '../jobs/periodico.server.ts';
import type { JobHandler } from '../jobs/runner.server.ts';
import { encolarCorreo } from '../mail/outbox.server.ts';
import { copiaLista } from '../mail/templates.server.ts';
import { type Actor, esAdmin, exigirMismo } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';
import { escribirCopia } from './mis-datos/archivo-zip.server.ts';
import { existe, recolectar } from './mis-datos/recoleccion.server.ts';
import { registrarAccion } from './registro.server.ts';

export type MisDatos = Esquema<'MisDatos'>;
export type CopiaDatos = Esquema<'CopiaDatos'>;

export const TRABAJO_COPIA_DATOS = 'copia-datos';
export const TRABAJO_COPIAS_VENCIDAS = 'copias-datos-vencidas';
/** A ready copy can be downloaded this long. */
export const VIGENCIA_COPIA_DIAS = 7;
/** At most this many copies asked in 24 hours: each reads every file the person stored. */
export const MAX_COPIAS_DIA = 3;
/** The clean-up of expired copies runs this often. */
const CADENCIA_LIMPIEZA_SEGUNDOS = 60 * 60;
/** The page's lines per category; the count says how many there are in all. */
const MAX_LINEAS = 100;

export const COPIA_EN_CURSO = 'Ya estamos preparando una copia de tus datos. Te avisaremos cuando esté lista.';
export const DEMASIADAS_COPIAS = `Ya pediste ${MAX_COPIAS_DIA} copias de tus datos en las últimas 24 horas. Podrás pedir otra más tarde.`;
export const COPIA_NO_DISPONIBLE = 'La copia no existe o ya venció. Puedes pedir una nueva en Mis datos.';
const NO_ENCONTRADO = 'No se encontró el usuario';

const DIA_MS = 24 * 60 * 60 * 1000;
/** Where a copy's ZIP is stored. */
const claveCopia = (idUsuario: number, idCopia: number) => `copias-datos/${idUsuario}/copia-${idCopia}.zip`;
/** The route that streams a ready copy to its owner. */
export const urlDescarga = (idUsuario: number, idCopia: number) => `/api/usuarios/${idUsuario}/copia-datos/${idCopia}/descargar/`;
/** The name the download is saved under: 'mis-datos-2026-11-28.zip'. */
export const nombreDescarga = (lista: Date) => `mis-datos-${lista.toISOString().slice(0, 10)}.zip`;

export function createMisDatosService(ctx: ServiceContext) {
  const { db, log, storage, jobs } = ctx;

  async function exigirCuenta(id: number): Promise<void> {
    if (!(await existe(db, id))) throw new ErrorDeDominio(404, NO_ENCONTRADO);
  }

  function aCopia(fila: typeof copiasDatos.$inferSelect): CopiaDatos {
    const lista = fila.estado === 'lista' && fila.lista_en !== null;
    return {
      id: fila.id,
      estado: fila.estado,
      fecha_creacion: fila.fecha_creacion.toISOString(),
      lista_en: fila.lista_en?.toISOString() ?? null,
      expira: fila.expira?.toISOString() ?? null,
      bytes: lista ? fila.bytes : null,
      url: lista ? urlDescarga(fila.id_usuario, fila.id) : null,
    };
  }

  /** The person's copies, newest first. */
  async function listar(actor: Actor, id: number): Promise<CopiaDatos[]> {
    exigirMismo(actor, id);
    const filas = await db
      .select()
      .from(copiasDatos)
      .where(eq(copiasDatos.id_usuario, id))
      .orderBy(desc(copiasDatos.fecha_creacion), desc(copiasDatos.id));
    return filas.map(aCopia);
  }

  /** Builds a pending copy (the job's datos: { id_copia, id_solicitud }); marks it 'fallida' on the last failed attempt. */
  const construir: JobHandler = async (datos, job) => {
    const { id_copia, id_solicitud } = (datos ?? {}) as { id_copia?: number; id_solicitud?: number };
    const [copia] = await db
      .select()
      .from(copiasDatos)
      .where(and(eq(copiasDatos.id, Number(id_copia)), eq(copiasDatos.estado, 'pendiente')));
    if (!copia) return;
    const [persona] = await db.select().from(usuarios).where(eq(usuarios.id, copia.id_usuario));
    if (!persona) return;
    const clave = claveCopia(copia.id_usuario, copia.id);
    const started = performance.now();
    let bytes: number;
    try {
      const categorias = await recolectar(db, copia.id_usuario);
      bytes = await escribirCopia(storage, clave, { nombre: nombreCompleto(persona), fecha: ctx.now(), categorias }, job.signal);
    } catch (error) {
      log.error('data copy failed', { id_copia: copia.id, intento: job.intento, error });
      if (job.ultimo) await db.update(copiasDatos).set({ estado: 'fallida' }).where(eq(copiasDatos.id, copia.id));
      throw error;
    }
    const ahora = ctx.now();
    const expira = new Date(ahora.getTime() + VIGENCIA_COPIA_DIAS * DIA_MS);
    const hecha = await db.transaction(async (tx) => {
      const [sigue] = await tx
        .update(copiasDatos)
        .set({ estado: 'lista', clave, bytes, lista_en: ahora, expira })
        .where(and(eq(copiasDatos.id, copia.id), eq(copiasDatos.estado, 'pendiente')))
        .returning({ id: copiasDatos.id });
      // Gone while it was built (the account erased): nobody to tell.
      if (!sigue) return false;
      if (id_solicitud) {
        await tx
          .update(solicitudesDatos)
          .set({ estado: 'completada', fecha_resolucion: ahora })
          .where(eq(solicitudesDatos.id, Number(id_solicitud)));
      }
      // Told by its own mail below: `enviada_en` keeps the notifications' mail from sending it again.
      await tx.insert(notificaciones).values({
        id_usuario: copia.id_usuario,
        tipo: 'copia_lista',
        id_actor: null,
        recurso_tipo: 'copia_datos',
        id_recurso: copia.id,
        titulo: '',
        enlace: '/perfil/mis-datos',
        enviada_en: ahora,
      });
      const url = `${ctx.config.PUBLIC_URL}/perfil/mis-datos`;
      await encolarCorreo(tx, { to: persona.email, ...copiaLista(persona.primer_nombre, url, expira), link: url });
      return true;
    });
    if (!hecha) {
      await storage.remove(clave);
      return;
    }
    log.info('data copy made', { id_copia: copia.id, bytes, ms: Math.round(performance.now() - started) });
  };

  /** Marks expired copies 'expirada' and removes their ZIP from storage. */
  async function limpiar(): Promise<void> {
    const vencidas = await db
      .select({ id: copiasDatos.id, clave: copiasDatos.clave })
      .from(copiasDatos)
      .where(and(eq(copiasDatos.estado, 'lista'), lte(copiasDatos.expira, ctx.now())));
    for (const copia of vencidas) {
      if (copia.clave) await storage.remove(copia.clave);
      await db.update(copiasDatos).set({ estado: 'expirada', clave: '' }).where(eq(copiasDatos.id, copia.id));
    }
    if (vencidas.length > 0) log.info('expired data copies removed', { n: vencidas.length });
  }
  const limpieza = trabajoPeriodico(ctx, TRABAJO_COPIAS_VENCIDAS, CADENCIA_LIMPIEZA_SEGUNDOS, limpiar);

  return {
    /** The copy's job and the clean-up (registered by the runtime, services.server.ts). */
    trabajos: { [TRABAJO_COPIA_DATOS]: construir, [TRABAJO_COPIAS_VENCIDAS]: limpieza.trabajo },
    programar: limpieza.programar,

    /** What is held about `id`, by category with counts: the person, or an admin answering a request. */
    async resumen(actor: Actor, id: number): Promise<MisDatos> {
      if (actor.id !== id && !esAdmin(actor)) throw sinPermisos();
      await exigirCuenta(id);
      const categorias = await recolectar(db, id);
      return {
        id_usuario: id,
        categorias: categorias.map((c) => ({
          clave: c.clave,
          nombre: c.nombre,
          cantidad: c.cantidad,
          detalle: c.lineas.slice(0, MAX_LINEAS),
          archivos: c.archivos.length,
        })),
      };
    },

    listar,

    /** Asks for a copy (registered as a request of the person): refused while one is being made, or after MAX_COPIAS_DIA a day. */
    async solicitar(actor: Actor, id: number): Promise<CopiaDatos> {
      exigirMismo(actor, id);
      await exigirCuenta(id);
      const { copia, solicitud } = await db.transaction(async (tx) => {
        // The person's row, locked: two requests at once are one after the other.
        await tx.select({ id: usuarios.id }).from(usuarios).where(eq(usuarios.id, id)).for('update');
        const [pendiente] = await tx
          .select({ id: copiasDatos.id })
          .from(copiasDatos)
          .where(and(eq(copiasDatos.id_usuario, id), eq(copiasDatos.estado, 'pendiente')));
        if (pendiente) throw new ErrorDeDominio(409, COPIA_EN_CURSO);
        const desde = new Date(ctx.now().getTime() - DIA_MS);
        const [hoy] = await tx
          .select({ n: count() })
          .from(copiasDatos)
          .where(and(eq(copiasDatos.id_usuario, id), gte(copiasDatos.fecha_creacion, desde)));
        if ((hoy?.n ?? 0) >= MAX_COPIAS_DIA) throw new ErrorDeDominio(429, DEMASIADAS_COPIAS, {}, { 'retry-after': String(DIA_MS / 1000) });
        const [copia] = await tx.insert(copiasDatos).values({ id_usuario: id, fecha_creacion: ctx.now() }).returning();
        const [solicitud] = await tx
          .insert(solicitudesDatos)
          .values({ id_usuario: id, tipo: 'copia', origen: 'persona', fecha_creacion: ctx.now() })
          .returning({ id: solicitudesDatos.id });
        if (!copia || !solicitud) throw new Error('data copy insert returned nothing');
        return { copia, solicitud };
      });
      await jobs.enqueue(TRABAJO_COPIA_DATOS, { id_copia: copia.id, id_solicitud: solicitud.id }, { maxIntentos: 3 });
      return aCopia(copia);
    },

    /**
     * A ready copy's storage key for its owner's download, recorded in the audit log; 404 for
     * anyone else's copy, one not ready, or one expired.
     */
    async abrir(actor: Actor, id: number, idCopia: number, registrar = true): Promise<{ clave: string; nombre: string }> {
      exigirMismo(actor, id);
      const [copia] = await db
        .select()
        .from(copiasDatos)
        .where(and(eq(copiasDatos.id, idCopia), eq(copiasDatos.id_usuario, id), eq(copiasDatos.estado, 'lista')));
      if (!copia?.lista_en || !copia.expira || copia.expira <= ctx.now() || !copia.clave)
        throw new ErrorDeDominio(404, COPIA_NO_DISPONIBLE);
      if (registrar) {
        await registrarAccion(
          db,
          { id },
          {
            accion: 'descargar_copia_datos',
            tipo: 'copia_datos',
            id_registro: copia.id,
            detalle: `Descargó su copia de datos personales n.º ${copia.id}`,
          },
        );
      }
      return { clave: copia.clave, nombre: nombreDescarga(copia.lista_en) };
    },
  };
}

export type MisDatosService = ReturnType<typeof createMisDatosService>;
