/**
 * Accounts created by admins: one at a time or from a school roster. Each new account gets an
 * activation email; an email that already has an account is reported, never duplicated.
 */
import { eq } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { Invitacion } from '../../validation/invitacion.ts';
import type { Db } from '../db/client.server.ts';
import { colegios, perfilColegios, perfilesDocentes, usuarios } from '../db/schema.server.ts';
import { mismoNombre } from '../db/search.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { CuentasService } from './cuentas.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';
import { obtenerUsuario } from './usuarios.server.ts';

export const EMAIL_EXISTENTE = 'Ya existe una cuenta con ese correo';
export const CUENTA_ACTIVA = 'La cuenta ya está activa';
export const CUENTA_DESACTIVADA = 'La cuenta está desactivada';
/** An erased account (issue 31) keeps its row, anonymised, for what it wrote: it takes no change. */
export const CUENTA_ELIMINADA = 'La cuenta fue eliminada';

/**
 * The 409 for an invitation to an address that has an account waiting for activation, with the
 * way to resend its link where the person is: the console's 'Reenviar activación' for an admin
 * signed in, the command for the local admin key (`npm run usuarios`).
 */
export function cuentaSinActivar(email: string, id: number, actor?: ActorAdmin): ErrorDeDominio {
  const como =
    actor?.id == null
      ? `usa «npm run usuarios -- reenviar --email ${email}» o POST /api/admin/usuarios/${id}/reenviar-activacion/`
      : 'usa «Reenviar activación» en su fila de la lista de usuarios';
  const mensaje = `Ya existe una cuenta sin activar con ese correo. Para enviarle un nuevo enlace de activación ${como}.`;
  return new ErrorDeDominio(409, EMAIL_EXISTENTE, { errors: { email: [mensaje] } });
}

async function yaExiste(db: Db, email: string, actor?: ActorAdmin): Promise<ErrorDeDominio> {
  const [row] = await db.select({ id: usuarios.id, activo: usuarios.activo }).from(usuarios).where(eq(usuarios.email, email));
  if (row && !row.activo) return cuentaSinActivar(email, row.id, actor);
  return new ErrorDeDominio(409, EMAIL_EXISTENTE, { errors: { email: [EMAIL_EXISTENTE] } });
}

function partir(texto: string): [string, string] {
  const [first = '', ...rest] = texto.trim().split(/\s+/);
  return [first, rest.join(' ')];
}

/** Finds a school by name ignoring case and accents; creates it when the roster names a new one. */
export async function colegioPorNombre(db: Db, nombre: string): Promise<{ id: number; creado: boolean }> {
  const [found] = await db.select({ id: colegios.id }).from(colegios).where(mismoNombre(colegios.nombre, nombre));
  if (found) return { id: found.id, creado: false };
  const [created] = await db.insert(colegios).values({ nombre }).onConflictDoNothing().returning({ id: colegios.id });
  if (created) return { id: created.id, creado: true };
  return colegioPorNombre(db, nombre);
}

export function createInvitacionesService(ctx: ServiceContext, cuentas: CuentasService) {
  const { db } = ctx;
  return {
    /** With `actor`, the invitation is written to the audit log (an import logs itself once). */
    async invitar(input: Invitacion, actor?: ActorAdmin): Promise<Esquema<'UsuarioCreado'>> {
      const [primer_nombre, segundo_nombre] = partir(input.nombres);
      const [apellido_paterno, apellido_materno] = partir(input.apellidos);
      const colegio = input.colegio ? await colegioPorNombre(db, input.colegio) : undefined;
      // The account, its profile, its activation token and its mail are committed together.
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(usuarios)
          .values({
            email: input.email,
            primer_nombre,
            segundo_nombre,
            apellido_paterno,
            apellido_materno,
            rut: input.rut,
            rol: input.admin ? 'Administrador' : 'Profesor',
            groups: input.admin ? ['admin'] : [],
          })
          .onConflictDoNothing()
          .returning();
        if (!created) throw await yaExiste(tx, input.email, actor);
        if (!input.admin) {
          await tx.insert(perfilesDocentes).values({ id_usuario: created.id });
          if (colegio) await tx.insert(perfilColegios).values({ id_usuario: created.id, id_colegio: colegio.id });
        }
        await cuentas.enviarActivacion(created, tx);
        if (actor) {
          const detalle = `Invitó a ${created.email}${input.admin ? ' como administrador' : ''}${input.colegio ? ` (colegio «${input.colegio}»)` : ''}`;
          await registrarAccion(tx, actor, { accion: 'invitar', tipo: 'usuario', id_registro: created.id, detalle });
        }
        return created;
      });
      ctx.log.info('account invited', { userId: row.id, admin: input.admin });
      const usuario = await obtenerUsuario(db, row.id);
      if (!usuario) throw new Error('invited user vanished');
      return { usuario, activacion_enviada: true, colegio_creado: colegio?.creado ?? false };
    },

    /**
     * A fresh activation link for an account that has not been activated (by id, or by email for
     * the CLI); the previous link stops working.
     */
    async reenviar(cual: { id: number } | { email: string }, actor: ActorAdmin = { id: null }): Promise<{ email: string }> {
      const where = 'id' in cual ? eq(usuarios.id, cual.id) : eq(usuarios.email, cual.email.trim().toLowerCase());
      const [row] = await db.select().from(usuarios).where(where);
      if (!row) throw new ErrorDeDominio(404, 'Usuario no encontrado');
      if (row.eliminada_en) throw new ErrorDeDominio(409, CUENTA_ELIMINADA);
      if (row.desactivada_en) throw new ErrorDeDominio(409, CUENTA_DESACTIVADA);
      if (row.activo) throw new ErrorDeDominio(409, CUENTA_ACTIVA);
      await db.transaction(async (tx) => {
        await cuentas.enviarActivacion(row, tx);
        const detalle = `Reenvió el enlace de activación a ${row.email}`;
        await registrarAccion(tx, actor, { accion: 'reenviar_activacion', tipo: 'usuario', id_registro: row.id, detalle });
      });
      ctx.log.info('activation re-sent', { userId: row.id });
      return { email: row.email };
    },
  };
}
