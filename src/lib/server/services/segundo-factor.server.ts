/**
 * Two-factor sign-in (issue 32, decision 0065). The one decision every way of signing in takes
 * once the person proved who they are (a password, an OpenID Connect provider):
 * `trasVerificarIdentidad` answers either a session, or a short-lived single-use challenge
 * (`desafio`) that `completarDesafio` turns into a session with a TOTP or recovery code.
 * Enrolment, removal and the admins' reset live in segundo-factor/inscripcion.server.ts.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { SegundoFactorInput } from '../../validation/segundo-factor.ts';
import { tokensCuenta, usuarios } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { Sesion } from './cuentas.server.ts';
import { tieneSegundoFactor, verificarCodigo } from './segundo-factor/codigos.server.ts';
import { auditar, createInscripcion, limiteCodigos } from './segundo-factor/inscripcion.server.ts';
import { gastarToken, nuevoTokenCuenta, tokenVivo } from './tokens-cuenta.server.ts';

/** A challenge lives five minutes and is spent by its first right code. */
export const DESAFIO_SEGUNDOS = 5 * 60;
/** 'Recordar este equipo 30 días'. */
export const EQUIPO_SEGUNDOS = 30 * 24 * 60 * 60;

const DESAFIO_VENCIDO = 'El ingreso expiró. Vuelve a ingresar tu correo y contraseña.';
const CODIGO_INCORRECTO = 'El código no es válido o ya fue usado. Revisa la hora de tu teléfono e inténtalo de nuevo.';

/** Who signs in: the account's id and permission groups. */
export interface Identidad {
  id: number;
  groups: string[];
}

/**
 * Where the sign-in comes from: the client address (api/env.server.ts `clientAddress`), the
 * User-Agent, and the way in for the log ('password', 'oidc:google'...).
 */
export interface OrigenIngreso {
  direccion: string;
  agente?: string;
  via: string;
}

/** A remembered device's cookie value and when it ends, for the route to set. */
export interface EquipoRecordado {
  token: string;
  expira: Date;
}

/**
 * What follows a verified identity:
 * - `segundo_factor: false`: a session (set its cookies as a password sign-in does). `inscribir`
 *   is true for an admin without a second factor while TOTP_ADMIN_OBLIGATORIO is on: the pages
 *   then send them to enrolment (src/middleware.ts) until they enrol;
 * - `segundo_factor: true`: no session yet; the client sends `desafio` with a code to
 *   POST /auth/segundo-factor/ before `expira`.
 */
export type TrasIdentidad =
  | { segundo_factor: false; sesion: Sesion; inscribir: boolean }
  | { segundo_factor: true; desafio: string; expira: Date };

/** Where the pages send an admin who must enrol (src/middleware.ts). */
export const PAGINA_INSCRIPCION = '/perfil/segundo-factor';

/**
 * Whether a signed-in person must enrol a second factor before any other page: an admin without
 * one while TOTP_ADMIN_OBLIGATORIO is on. The same rule as `trasVerificarIdentidad`'s `inscribir`.
 */
export const debeInscribirSegundoFactor = (usuario: { groups: string[]; segundo_factor: boolean }, obligatorio: boolean): boolean =>
  obligatorio && !usuario.segundo_factor && usuario.groups.includes('admin');

export interface SegundoFactorDeps {
  /** Opens a session for an account whose identity (and second factor) were verified: cuentas.abrirSesion. */
  abrirSesion(usuario: Identidad, direccion: string, agente: string | undefined, via: string): Promise<Sesion>;
  /** TOTP_ADMIN_OBLIGATORIO (default true). */
  adminObligatorio: boolean;
}

export function createSegundoFactorService(ctx: Pick<ServiceContext, 'db' | 'now'>, deps: SegundoFactorDeps) {
  const { db, now } = ctx;
  const limite = limiteCodigos(ctx);

  /** Whether the device's cookie is a live remembered device of this account. */
  async function equipoValido(idUsuario: number, equipo: string | undefined): Promise<boolean> {
    if (!equipo) return false;
    const [fila] = await db
      .select({ id: tokensCuenta.id })
      .from(tokensCuenta)
      .where(and(tokenVivo(equipo, 'equipo_recordado', now()), eq(tokensCuenta.id_usuario, idUsuario)));
    return fila !== undefined;
  }

  /** A random token of the kind, stored hashed, living `segundos`. */
  const nuevoToken = (idUsuario: number, tipo: 'desafio_segundo_factor' | 'equipo_recordado', segundos: number) =>
    nuevoTokenCuenta(db, idUsuario, tipo, segundos, now());

  return {
    ...createInscripcion(ctx),

    /**
     * THE decision after a person proved who they are, for every way of signing in (password,
     * OpenID Connect): with a confirmed second factor, a challenge, unless `equipo` (the
     * remembered-device cookie, EQUIPO_COOKIE) is a live remembered device of this account;
     * otherwise a session, flagged `inscribir` for an admin who must still enrol.
     * The caller has already refused inactive or deactivated accounts.
     */
    async trasVerificarIdentidad(usuario: Identidad, origen: OrigenIngreso, equipo?: string): Promise<TrasIdentidad> {
      const tiene = await tieneSegundoFactor(db, usuario.id);
      if (tiene && !(await equipoValido(usuario.id, equipo))) {
        const { token, expira } = await nuevoToken(usuario.id, 'desafio_segundo_factor', DESAFIO_SEGUNDOS);
        return { segundo_factor: true, desafio: token, expira };
      }
      const sesion = await deps.abrirSesion(usuario, origen.direccion, origen.agente, origen.via);
      const inscribir = debeInscribirSegundoFactor({ groups: usuario.groups, segundo_factor: tiene }, deps.adminObligatorio);
      return { segundo_factor: false, sesion, inscribir };
    },

    /**
     * Ends a challenge with a TOTP or recovery code: a session, and a remembered device when
     * asked. A wrong code counts against the account's limit and leaves the challenge usable
     * until it expires; a right one spends it.
     */
    async completarDesafio(input: SegundoFactorInput, origen: OrigenIngreso): Promise<{ sesion: Sesion; equipo?: EquipoRecordado }> {
      const [fila] = await db
        .select({ id: tokensCuenta.id, usuario: { id: usuarios.id, groups: usuarios.groups } })
        .from(tokensCuenta)
        .innerJoin(usuarios, eq(usuarios.id, tokensCuenta.id_usuario))
        .where(and(tokenVivo(input.desafio, 'desafio_segundo_factor', now()), eq(usuarios.activo, true), isNull(usuarios.desactivada_en)));
      if (!fila) throw new ErrorDeDominio(401, DESAFIO_VENCIDO, { errors: { desafio: [DESAFIO_VENCIDO] } });
      const { usuario } = fila;
      await limite.comprobar(usuario.id, origen.direccion);
      const aceptado = await verificarCodigo(db, usuario.id, input.codigo, now());
      if (!aceptado) {
        await limite.fallo(usuario.id, origen.direccion);
        await auditar(db, usuario.id, 'codigo_segundo_factor_fallido', 'Código de verificación en dos pasos incorrecto al ingresar');
        throw new ErrorDeDominio(401, CODIGO_INCORRECTO, { errors: { codigo: [CODIGO_INCORRECTO] } });
      }
      if (!(await gastarToken(db, fila.id, now())))
        throw new ErrorDeDominio(401, DESAFIO_VENCIDO, { errors: { desafio: [DESAFIO_VENCIDO] } });
      if (aceptado === 'recuperacion') {
        await auditar(db, usuario.id, 'usar_codigo_recuperacion', 'Ingresó con un código de recuperación');
      }
      const equipo = input.recordar ? await nuevoToken(usuario.id, 'equipo_recordado', EQUIPO_SEGUNDOS) : undefined;
      const sesion = await deps.abrirSesion(usuario, origen.direccion, origen.agente, `${origen.via}+${aceptado}`);
      return { sesion, ...(equipo ? { equipo } : {}) };
    },
  };
}

export type SegundoFactorService = ReturnType<typeof createSegundoFactorService>;
