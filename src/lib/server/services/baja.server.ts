/**
 * Leaving the platform (issue 31, Ley 21.719, decision 0059): a person schedules the deletion of
 * their account with their password, or an admin does it from a written request with a reason;
 * 14 days later the 'baja-cuenta' job erases it. Signing in meanwhile cancels. Erasing keeps the
 * `usuarios` row as an anonymous author ('Docente retirado/a'), so kept contributions and others'
 * replies under a deleted comment still have one, and removes or blanks everything else that
 * names the person. Also the console's view of the register of requests (`solicitudes_datos`).
 */
import { and, asc, desc, eq, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { formatearFecha, nombreCompleto } from '../../format/index.ts';
import {
  CONTRASENA_REQUERIDA,
  DIAS_PARA_ELIMINAR,
  type EliminarCuentaAdminInput,
  type EliminarCuentaInput,
  MINUTOS_INGRESO_RECIENTE,
} from '../../validation/baja.ts';
import { verifyPassword } from '../auth/password.server.ts';
import { type Backoff, backoffWait, createAttemptStore } from '../auth/rate-limit.server.ts';
import type { Db } from '../db/client.server.ts';
import { copiasDatos, solicitudesDatos, tokensRefresh, usuarios } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { trabajoPeriodico } from '../jobs/periodico.server.ts';
import { createBorrado } from './baja/borrado.server.ts';
import type { BibliotecaService } from './biblioteca.server.ts';
import type { CapsulasService } from './capsulas.server.ts';
import type { ServiceContext } from './context.server.ts';
import { type CuentasService, demasiadosIntentos } from './cuentas.server.ts';
import type { ForoService } from './foro.server.ts';
import type { ManualesService } from './manuales.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';
import type { SubidasService } from './subidas.server.ts';

/** The periodic job that erases the accounts whose 14 days have passed. */
export const TRABAJO_BAJA = 'baja-cuenta';
const CADENCIA_SEGUNDOS = 60 * 60;

export const CONTRASENA_INCORRECTA = 'La contraseña no es correcta. Tu cuenta no se eliminará.';
export const INGRESO_REQUERIDO = `Tu cuenta no tiene contraseña: para confirmar, vuelve a ingresar con la cuenta de tu establecimiento y elimina tu cuenta dentro de los ${MINUTOS_INGRESO_RECIENTE} minutos siguientes.`;
export const ELIMINARSE = 'No puedes eliminar tu propia cuenta desde la consola: hazlo desde tu perfil, en «Eliminar mi cuenta»';
export const ULTIMA_ADMINISTRACION =
  'Eres la única persona que administra la red: antes de eliminar tu cuenta, da el rol de administrador a otra persona en «Usuarios»';
export const BAJA_CANCELADA = 'Cancelamos la eliminación de tu cuenta porque volviste a ingresar. Tu cuenta sigue activa.';
/** Where a sign-in that cannot carry a notice in its answer (a school account's) lands when it cancelled: the page says it. */
export const BAJA_CANCELADA_AL_INGRESAR = '/perfil/eliminar-cuenta?cancelada=ingreso';
const NO_ENCONTRADO = 'Usuario no encontrado';
const SIN_BAJA = 'Esta cuenta no tiene una eliminación programada';
/** A wrong password counts as a failed sign-in would (decision 0023): a growing delay per account. */
const BAJA_POR_CUENTA: Backoff = { free: 5, maxSeconds: 60, windowSeconds: 15 * 60 };

type Db_ = Pick<Db, 'select' | 'update' | 'insert'>;

const titularDe = (u: typeof usuarios.$inferSelect) => `${nombreCompleto(u)} <${u.email}>`;

/**
 * Cancels a scheduled deletion (the person's 'Cancelar', a sign-in, an admin): its request in the
 * register marked 'cancelada'. True when there was one to cancel.
 */
export async function cancelarBaja(db: Db_, idUsuario: number, now: Date, idAdmin: number | null = null): Promise<boolean> {
  const cambiadas = await db
    .update(usuarios)
    .set({ baja_programada: null })
    .where(and(eq(usuarios.id, idUsuario), isNotNull(usuarios.baja_programada), isNull(usuarios.eliminada_en)))
    .returning({ id: usuarios.id });
  await db
    .update(solicitudesDatos)
    .set({ estado: 'cancelada', fecha_resolucion: now, ...(idAdmin !== null ? { id_admin: idAdmin } : {}) })
    .where(
      and(eq(solicitudesDatos.id_usuario, idUsuario), eq(solicitudesDatos.tipo, 'eliminacion'), eq(solicitudesDatos.estado, 'pendiente')),
    );
  return cambiadas.length > 0;
}

export interface BajaDeps {
  cuentas: CuentasService;
  capsulas: CapsulasService;
  biblioteca: BibliotecaService;
  manuales: ManualesService;
  foro: ForoService;
  /** Its upload store, the one tus writes to: an erasure removes the person's unfinished uploads' bytes. */
  subidas: Pick<SubidasService, 'almacen'>;
}

export function createBajaService(ctx: ServiceContext, deps: BajaDeps) {
  const { db, now } = ctx;
  const { sesiones } = deps.cuentas;
  const intentos = createAttemptStore(db, now);
  const { borrar } = createBorrado(ctx, deps);

  async function fila(id: number) {
    const [u] = await db.select().from(usuarios).where(eq(usuarios.id, id));
    if (!u || u.eliminada_en) throw new ErrorDeDominio(404, NO_ENCONTRADO);
    return u;
  }

  /** Sets the date and the choice, and records the request (one pending per person: a new one replaces it). */
  async function agendar(
    tx: Db_,
    u: typeof usuarios.$inferSelect,
    conservar: boolean,
    origen: { origen: 'persona' | 'admin'; motivo?: string; id_admin?: number | null },
  ): Promise<Date> {
    const fecha = new Date(now().getTime() + DIAS_PARA_ELIMINAR * 24 * 60 * 60 * 1000);
    await tx.update(usuarios).set({ baja_programada: fecha, baja_conservar_aportes: conservar }).where(eq(usuarios.id, u.id));
    await tx
      .update(solicitudesDatos)
      .set({ estado: 'cancelada', fecha_resolucion: now() })
      .where(
        and(eq(solicitudesDatos.id_usuario, u.id), eq(solicitudesDatos.tipo, 'eliminacion'), eq(solicitudesDatos.estado, 'pendiente')),
      );
    await tx.insert(solicitudesDatos).values({
      id_usuario: u.id,
      titular: titularDe(u),
      tipo: 'eliminacion',
      origen: origen.origen,
      motivo: origen.motivo ?? '',
      id_admin: origen.id_admin ?? null,
      fecha_creacion: now(),
    });
    return fecha;
  }

  /** Whether the open session `familia` of the person began with a sign-in of the last MINUTOS_INGRESO_RECIENTE minutes. */
  async function ingresoReciente(id: number, familia: string | undefined): Promise<boolean> {
    const sesion = familia ? (await sesiones.abiertas(id)).find((s) => s.familia === familia) : undefined;
    return !!sesion && now().getTime() - sesion.iniciada.getTime() <= MINUTOS_INGRESO_RECIENTE * 60 * 1000;
  }

  /**
   * Whether another active admin would remain, not on their way out: the network is never left
   * without someone to run it (the local key, `npm run usuarios`, can still act in an emergency).
   */
  async function quedaOtraAdministracion(id: number): Promise<boolean> {
    const [otra] = await db
      .select({ id: usuarios.id })
      .from(usuarios)
      .where(
        and(
          ne(usuarios.id, id),
          eq(usuarios.activo, true),
          isNull(usuarios.eliminada_en),
          isNull(usuarios.baja_programada),
          sql`'admin' = any(${usuarios.groups})`,
        ),
      )
      .limit(1);
    return otra !== undefined;
  }

  /** Erases every account whose date has passed, one after another. */
  async function borrarVencidas(): Promise<number> {
    const vencidas = await db
      .select({ id: usuarios.id })
      .from(usuarios)
      .where(and(lte(usuarios.baja_programada, now()), isNull(usuarios.eliminada_en)))
      .orderBy(asc(usuarios.baja_programada));
    for (const u of vencidas) await borrar(u.id);
    return vencidas.length;
  }

  const periodico = trabajoPeriodico(ctx, TRABAJO_BAJA, CADENCIA_SEGUNDOS, borrarVencidas);

  return {
    trabajos: { [TRABAJO_BAJA]: periodico.trabajo },

    /** Makes sure the periodic job is queued (at start-up; each run queues the next). */
    programar: periodico.programar,

    /**
     * What /perfil/eliminar-cuenta shows, from one read of the account: the scheduled deletion (or
     * null), and whether the account has no password (a school account's), which then confirms
     * with a fresh sign-in instead.
     */
    async estado(
      id: number,
    ): Promise<{ programada: { baja_programada: string; conservar_aportes: boolean } | null; sinContrasena: boolean }> {
      const u = await fila(id);
      return {
        programada: u.baja_programada
          ? { baja_programada: u.baja_programada.toISOString(), conservar_aportes: u.baja_conservar_aportes }
          : null,
        sinContrasena: !u.password_hash,
      };
    },

    /**
     * The person asks, with their password: the deletion is scheduled in 14 days. A wrong password
     * changes nothing and is counted as a failed sign-in is. The person's other sessions end (the
     * one that asked, `sesionActual`, stays, to see the date and cancel).
     */
    async solicitar(id: number, input: EliminarCuentaInput, sesionActual?: string): Promise<Esquema<'BajaProgramada'>> {
      const clave = `baja:cuenta:${id}`;
      const espera = backoffWait((await intentos.read([clave])).get(clave), BAJA_POR_CUENTA, now());
      if (espera > 0) throw demasiadosIntentos(espera);
      const u = await fila(id);
      if (u.password_hash) {
        if (!input.password) throw new ErrorDeDominio(400, CONTRASENA_REQUERIDA, { errors: { password: [CONTRASENA_REQUERIDA] } });
        if (!(await verifyPassword(input.password, u.password_hash))) {
          await intentos.fail(clave, BAJA_POR_CUENTA);
          throw new ErrorDeDominio(400, CONTRASENA_INCORRECTA, { errors: { password: [CONTRASENA_INCORRECTA] } });
        }
        await intentos.reset(clave);
      } else if (!(await ingresoReciente(id, sesionActual))) {
        // An account without a password (a school account's): a sign-in of the last minutes confirms instead.
        throw new ErrorDeDominio(400, INGRESO_REQUERIDO, { errors: { password: [INGRESO_REQUERIDO] } });
      }
      if (u.groups.includes('admin') && !(await quedaOtraAdministracion(id))) throw new ErrorDeDominio(409, ULTIMA_ADMINISTRACION);
      const fecha = await db.transaction(async (tx) => {
        const f = await agendar(tx, u, input.conservar_aportes, { origen: 'persona' });
        await tx
          .update(tokensRefresh)
          .set({ revocado: now() })
          .where(
            and(
              eq(tokensRefresh.id_usuario, id),
              isNull(tokensRefresh.revocado),
              sesionActual ? ne(tokensRefresh.familia, sesionActual) : undefined,
            ),
          );
        return f;
      });
      sesiones.olvidarUsuario(id);
      ctx.log.info('account deletion scheduled', { userId: id });
      return {
        detail: `Tu cuenta se eliminará el ${formatearFecha(fecha)}. Puedes cancelarlo antes de esa fecha.`,
        baja_programada: fecha.toISOString(),
        conservar_aportes: input.conservar_aportes,
      };
    },

    /** After a sign-in: a scheduled deletion is cancelled, and the notice the person sees says so. */
    async alIngresar(id: number): Promise<string | undefined> {
      return (await db.transaction((tx) => cancelarBaja(tx, id, now()))) ? BAJA_CANCELADA : undefined;
    },

    /** The person cancels. */
    async cancelar(id: number): Promise<void> {
      await fila(id);
      const hubo = await db.transaction((tx) => cancelarBaja(tx, id, now()));
      if (!hubo) throw new ErrorDeDominio(404, SIN_BAJA);
    },

    /**
     * An admin acts on a written request: schedules the deletion (14 days), or with `inmediato`
     * erases now. Written to the audit log; an admin's own account is refused (they use their profile).
     */
    async solicitarAdmin(actor: ActorAdmin, id: number, input: EliminarCuentaAdminInput): Promise<Esquema<'BajaAdmin'>> {
      if (actor.id === id) throw new ErrorDeDominio(409, ELIMINARSE);
      const u = await fila(id);
      const fecha = await db.transaction(async (tx) => {
        const f = await agendar(tx, u, input.conservar_aportes, { origen: 'admin', motivo: input.motivo, id_admin: actor.id });
        const aportes = input.conservar_aportes ? 'conservando sus aportes' : 'eliminando también sus aportes';
        await registrarAccion(tx, actor, {
          accion: input.inmediato ? 'eliminar_cuenta' : 'programar_eliminacion',
          tipo: 'usuario',
          id_registro: id,
          detalle: `${input.inmediato ? 'Eliminó de inmediato' : 'Programó la eliminación de'} la cuenta n.º ${id}, ${aportes}. Motivo: ${input.motivo}`,
        });
        return f;
      });
      if (input.inmediato) {
        await borrar(id);
        return { detail: `La cuenta n.º ${id} fue eliminada`, eliminada: true, baja_programada: null };
      }
      sesiones.olvidarUsuario(id);
      return {
        detail: `La cuenta n.º ${id} se eliminará en ${DIAS_PARA_ELIMINAR} días`,
        eliminada: false,
        baja_programada: fecha.toISOString(),
      };
    },

    /**
     * An admin answers a written request of access (the console shows what is held, from Mis
     * datos): recorded in the register as completed, with its reason, and in the audit log.
     */
    async registrarAcceso(actor: ActorAdmin, id: number, motivo: string): Promise<void> {
      const u = await fila(id);
      await db.transaction(async (tx) => {
        await tx.insert(solicitudesDatos).values({
          id_usuario: id,
          titular: titularDe(u),
          tipo: 'acceso',
          origen: 'admin',
          estado: 'completada',
          motivo,
          id_admin: actor.id,
          fecha_creacion: now(),
          fecha_resolucion: now(),
        });
        await registrarAccion(tx, actor, {
          accion: 'ver_datos_cuenta',
          tipo: 'usuario',
          id_registro: id,
          detalle: `Vio los datos que se guardan de la cuenta n.º ${id}. Motivo: ${motivo}`,
        });
      });
    },

    /** The account a written request names, by its address (the console's form): its id, or 404. */
    async cuentaPorCorreo(email: string): Promise<number> {
      const [u] = await db
        .select({ id: usuarios.id })
        .from(usuarios)
        .where(and(eq(usuarios.email, email.trim().toLowerCase()), isNull(usuarios.eliminada_en)));
      if (!u) throw new ErrorDeDominio(404, 'No hay una cuenta con ese correo');
      return u.id;
    },

    /** An admin cancels a scheduled deletion. */
    async cancelarAdmin(actor: ActorAdmin, id: number): Promise<void> {
      await fila(id);
      await db.transaction(async (tx) => {
        if (!(await cancelarBaja(tx, id, now(), actor.id))) throw new ErrorDeDominio(404, SIN_BAJA);
        await registrarAccion(tx, actor, {
          accion: 'cancelar_eliminacion',
          tipo: 'usuario',
          id_registro: id,
          detalle: `Canceló la eliminación programada de la cuenta n.º ${id}`,
        });
      });
    },

    borrar,
    borrarVencidas,

    /** The console's requests: deletions waiting for their date, copies of data, and the whole register. */
    async consola(): Promise<Esquema<'SolicitudesAdmin'>> {
      const pendientes = await db
        .select({
          id: usuarios.id,
          primer_nombre: usuarios.primer_nombre,
          apellido_paterno: usuarios.apellido_paterno,
          email: usuarios.email,
          baja_programada: usuarios.baja_programada,
          conservar_aportes: usuarios.baja_conservar_aportes,
        })
        .from(usuarios)
        .where(and(isNotNull(usuarios.baja_programada), isNull(usuarios.eliminada_en)))
        .orderBy(asc(usuarios.baja_programada));
      const copias = await db
        .select({
          id: copiasDatos.id,
          id_usuario: copiasDatos.id_usuario,
          primer_nombre: usuarios.primer_nombre,
          apellido_paterno: usuarios.apellido_paterno,
          email: usuarios.email,
          estado: copiasDatos.estado,
          fecha_creacion: copiasDatos.fecha_creacion,
          expira: copiasDatos.expira,
        })
        .from(copiasDatos)
        .innerJoin(usuarios, eq(usuarios.id, copiasDatos.id_usuario))
        .orderBy(desc(copiasDatos.fecha_creacion))
        .limit(200);
      return {
        eliminaciones: pendientes.map((p) => ({
          id_usuario: p.id,
          nombre: `${p.primer_nombre} ${p.apellido_paterno}`.trim(),
          email: p.email,
          baja_programada: p.baja_programada?.toISOString() ?? '',
          conservar_aportes: p.conservar_aportes,
        })),
        copias: copias.map((c) => ({
          id: c.id,
          id_usuario: c.id_usuario,
          nombre: `${c.primer_nombre} ${c.apellido_paterno}`.trim(),
          email: c.email,
          estado: c.estado,
          fecha_creacion: c.fecha_creacion.toISOString(),
          expira: c.expira?.toISOString() ?? null,
        })),
        registro: await this.registro(),
      };
    },

    /** The register of requests, newest first: erased people only by their label ('Cuenta n.º 12'). */
    async registro(): Promise<Esquema<'SolicitudDatos'>[]> {
      const filas = await db.select().from(solicitudesDatos).orderBy(desc(solicitudesDatos.fecha_creacion), desc(solicitudesDatos.id));
      return filas.map((f) => ({
        id: f.id,
        id_usuario: f.id_usuario,
        titular: f.titular,
        tipo: f.tipo,
        origen: f.origen,
        estado: f.estado,
        motivo: f.motivo,
        fecha_creacion: f.fecha_creacion.toISOString(),
        fecha_resolucion: f.fecha_resolucion?.toISOString() ?? null,
      }));
    },
  };
}

export type BajaService = ReturnType<typeof createBajaService>;
