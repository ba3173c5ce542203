/**
 * 'Primeros pasos' (issue 33, decision 0055): what a new network still lacks before a teacher's
 * first visit finds something to do, read from the database every time the console's home is
 * opened, so a step ticks as soon as it is done, on any server. The curriculum step is the one
 * the database cannot see by itself: it is done once an admin has opened /admin/curriculo (recorded
 * once in the audit log, which every server shares and which survives restarts) or edited the
 * curriculum there (already in the log).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { capsulas, foroCategorias, manuales, registroAdmin, usuarios } from '../db/schema.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { PrivacidadService } from './privacidad.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

/** The steps, in the order the checklist shows them. */
export const PASOS = ['docentes', 'categorias', 'curriculo', 'manual', 'capsula', 'privacidad'] as const;
export type Paso = (typeof PASOS)[number];
export type EstadoPrimerosPasos = Record<Paso, boolean>;

/** The audit log's record kinds of the curriculum console: any of them means an admin has been there. */
const TIPOS_CURRICULO = ['curriculo', 'unidad', 'oa'];
export const REVISAR_CURRICULO = 'revisar_curriculo';

export function createPrimerosPasosService(ctx: Pick<ServiceContext, 'db'>, deps: { privacidad: Pick<PrivacidadService, 'responsable'> }) {
  const { db } = ctx;
  const alguno = async (consulta: Promise<unknown[]>) => (await consulta).length > 0;
  const curriculoRevisado = () =>
    alguno(db.select({ id: registroAdmin.id }).from(registroAdmin).where(inArray(registroAdmin.tipo, TIPOS_CURRICULO)).limit(1));

  return {
    /** Each step, done or not. */
    async estado(): Promise<EstadoPrimerosPasos> {
      const [docentes, categorias, curriculo, manual, capsula, privacidad] = await Promise.all([
        // An account that is not an admin's: a teacher invited (activated or not) or imported.
        alguno(db.select({ id: usuarios.id }).from(usuarios).where(sql`not ('admin' = any(${usuarios.groups}))`).limit(1)),
        // An active category: an inactive one is invisible to teachers.
        alguno(db.select({ id: foroCategorias.id }).from(foroCategorias).where(eq(foroCategorias.activa, true)).limit(1)),
        curriculoRevisado(),
        alguno(db.select({ id: manuales.id }).from(manuales).limit(1)),
        alguno(db.select({ id: capsulas.id }).from(capsulas).limit(1)),
        // The privacy notice names who is responsible for the data (issue 31).
        deps.privacidad.responsable().then((r) => r !== null),
      ]);
      return { docentes, categorias, curriculo, manual, capsula, privacidad };
    },

    /** An admin opened the curriculum console: the step ticks (recorded once, only while it is not done). */
    async registrarRevisionCurriculo(actor: ActorAdmin): Promise<void> {
      if (await curriculoRevisado()) return;
      await registrarAccion(db, actor, {
        accion: REVISAR_CURRICULO,
        tipo: 'curriculo',
        id_registro: null,
        detalle: 'Abrió el currículum para revisarlo (Primeros pasos)',
      });
    },
  };
}

export type PrimerosPasosService = ReturnType<typeof createPrimerosPasosService>;

/** Whether every step is done. */
export const completos = (estado: EstadoPrimerosPasos): boolean => PASOS.every((p) => estado[p]);
