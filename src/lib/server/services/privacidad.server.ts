/**
 * The privacy notice and the addresses kept by sign-ins (issue 31, Ley 21.719, decision 0057):
 * - the responsible party an admin sets in the console (the `ajustes` row CLAVE_RESPONSABLE);
 * - each person's acceptance of the notice's version (a row in `consentimientos`, and the
 *   version and time on the account, which the pages' middleware compares with
 *   PRIVACIDAD_VERSION);
 * - the daily 'retencion-direcciones' job, which blanks the address and browser of sign-ins,
 *   sessions and acceptances older than RETENCION_DIRECCIONES_DIAS.
 */
import { and, eq, isNotNull, lt, or } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  CLAVE_RESPONSABLE,
  PRIVACIDAD_VERSION,
  RETENCION_DIRECCIONES_DIAS,
  type Responsable,
  responsableSchema,
} from '../../validation/privacidad.ts';
import { consentimientos, ingresos, limitesIntentos, tokensRefresh, usuarios } from '../db/schema.server.ts';
import { trabajoPeriodico } from '../jobs/periodico.server.ts';
import { guardarAjuste, leerAjuste } from './ajustes.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { ActorAdmin } from './registro.server.ts';

export const TRABAJO_RETENCION_DIRECCIONES = 'retencion-direcciones';
const CADENCIA_SEGUNDOS = 24 * 60 * 60;

export interface OpcionesPrivacidad {
  /** Days an address is kept (RETENCION_DIRECCIONES_DIAS). */
  retencionDias?: number;
}

/** What the blanking job changed, table by table. */
export interface Blanqueadas {
  ingresos: number;
  sesiones: number;
  consentimientos: number;
  contadores: number;
}

export function createPrivacidadService(ctx: Pick<ServiceContext, 'db' | 'log' | 'now' | 'jobs'>, opciones: OpcionesPrivacidad = {}) {
  const { db } = ctx;
  const retencionDias = opciones.retencionDias ?? RETENCION_DIRECCIONES_DIAS;

  /** Blanks addresses (and browsers) recorded before the retention period. */
  async function blanquearDirecciones(): Promise<Blanqueadas> {
    const limite = new Date(ctx.now().getTime() - retencionDias * 24 * 60 * 60 * 1000);
    const conDatos = (t: { ip: AnyPgColumn; agente: AnyPgColumn }) => or(isNotNull(t.ip), isNotNull(t.agente));
    const [a, b, c, d] = await Promise.all([
      db
        .update(ingresos)
        .set({ ip: null, agente: null })
        .where(and(lt(ingresos.fecha, limite), conDatos(ingresos)))
        .returning({ id: ingresos.id }),
      db
        .update(tokensRefresh)
        .set({ ip: null, agente: null })
        .where(and(lt(tokensRefresh.fecha_creacion, limite), conDatos(tokensRefresh)))
        .returning({ id: tokensRefresh.id }),
      db
        .update(consentimientos)
        .set({ ip: null })
        .where(and(lt(consentimientos.fecha, limite), isNotNull(consentimientos.ip)))
        .returning({ id: consentimientos.id }),
      // Sign-in counters keyed by an address ('login:ip:…', the 'known address' marks of an email and
      // an address): every window is far shorter than a day, so one this old only keeps the address.
      db.delete(limitesIntentos).where(lt(limitesIntentos.ventana_inicio, limite)).returning({ clave: limitesIntentos.clave }),
    ]);
    return { ingresos: a.length, sesiones: b.length, consentimientos: c.length, contadores: d.length };
  }

  // Every day: the addresses past the retention period are blanked.
  const retencion = trabajoPeriodico(ctx, TRABAJO_RETENCION_DIRECCIONES, CADENCIA_SEGUNDOS, async () => {
    const hechas = await blanquearDirecciones();
    ctx.log.info('old addresses blanked', { ...hechas, dias: retencionDias });
  });

  return {
    trabajos: { [TRABAJO_RETENCION_DIRECCIONES]: retencion.trabajo },
    retencionDias,
    blanquearDirecciones,

    /** The responsible party, or null until an admin sets it (a stored value that no longer validates counts as unset). */
    async responsable(): Promise<Responsable | null> {
      const leido = responsableSchema.safeParse(await leerAjuste(db, CLAVE_RESPONSABLE));
      return leido.success ? leido.data : null;
    },

    /** Sets the responsible party (validated by the caller with responsableSchema), in the audit log. */
    async guardarResponsable(actor: ActorAdmin, datos: Responsable): Promise<Responsable> {
      await guardarAjuste(
        db,
        actor,
        { clave: CLAVE_RESPONSABLE, valor: datos, en: ctx.now() },
        { accion: 'editar_responsable_datos', detalle: `Responsable de los datos: ${datos.nombre} (${datos.correo})` },
      );
      return datos;
    },

    /**
     * Records that the person accepted the current notice: a consent row (with the address, kept
     * for the retention period) and the version and time on the account. `db` may be the caller's
     * transaction (the activation's).
     */
    async aceptar(idUsuario: number, ip: string | null, tx = db): Promise<{ version: string; aceptada_en: string }> {
      const en = ctx.now();
      await tx.insert(consentimientos).values({ id_usuario: idUsuario, version: PRIVACIDAD_VERSION, ip, fecha: en });
      await tx
        .update(usuarios)
        .set({ privacidad_version: PRIVACIDAD_VERSION, privacidad_aceptada_en: en })
        .where(eq(usuarios.id, idUsuario));
      return { version: PRIVACIDAD_VERSION, aceptada_en: en.toISOString() };
    },

    /** Queues the daily job unless one is already queued or running (at start-up). */
    programar: retencion.programar,
  };
}

/** Whether a person must accept the notice before going on (never accepted, or an older version). */
export const debeAceptarPrivacidad = (usuario: { privacidad_version?: string | null }): boolean =>
  usuario.privacidad_version !== PRIVACIDAD_VERSION;

export type PrivacidadService = ReturnType<typeof createPrivacidadService>;
