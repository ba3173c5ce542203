/**
 * Accounts: sign-in, token renewal and sign-out, activation, password reset and change.
 * The rules of docs/SPEC.md sections 4, 7 and 8, with token lifetimes, rotation and limits (decisions 0005 and 0023).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { LoginInput } from '../../validation/cuentas.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../auth/password.server.ts';
import { type Backoff, backoffWait, createAttemptStore, createRateLimiter, fixedWait, type Limit } from '../auth/rate-limit.server.ts';
import {
  ACTIVATION_SECONDS,
  hashToken,
  REFRESH_FAMILY_SECONDS,
  RESET_SECONDS,
  randomToken,
  signAccessToken,
} from '../auth/tokens.server.ts';
import type { Db } from '../db/client.server.ts';
import { ingresos, tokensCuenta, tokensRefresh, usuarios } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { encolarCorreo } from '../mail/outbox.server.ts';
import * as plantillas from '../mail/templates.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { PrivacidadService } from './privacidad.server.ts';
import { createSesionesService } from './sesiones.server.ts';
import { gastarToken, nuevoTokenCuenta, tokenVivo } from './tokens-cuenta.server.ts';
import { nombreCorto, obtenerUsuario, type UsuarioRow } from './usuarios.server.ts';

const CREDENCIALES_INCORRECTAS = 'Usuario y/o contraseña incorrectos';
export const TOKEN_INVALIDO = 'Token inválido o expirado';

/** Sign-in throttling (decision 0023): failures only, per account and address pair, per account, per address. */
const LOGIN_POR_PAR: Limit = { max: 10, windowSeconds: 15 * 60 };
const LOGIN_POR_CUENTA: Backoff = { free: 5, maxSeconds: 60, windowSeconds: 15 * 60 };
const LOGIN_POR_DIRECCION: Limit = { max: 200, windowSeconds: 15 * 60 };
/** An address where the account signed in within this time skips the account and address limits. */
const DIRECCION_CONOCIDA_SEGUNDOS = 90 * 24 * 60 * 60;
const RECUPERAR_POR_DIRECCION: Limit = { max: 5, windowSeconds: 15 * 60 };
const RECUPERAR_POR_CUENTA: Limit = { max: 3, windowSeconds: 60 * 60 };
/** A refresh token reused within this many seconds of its rotation is a race between tabs, not a replay. */
const ROTATION_GRACE_SECONDS = 10;

/** The contract's session answer, with the refresh token's absolute expiry for the cookie's lifetime. */
export type Sesion = Omit<Esquema<'SesionOk'>, 'statusCode'> & { refreshExpira: Date };

const normalizarEmail = (email: string) => email.trim().toLowerCase();

export function demasiadosIntentos(seconds: number): ErrorDeDominio {
  const [n, unidad] = seconds < 60 ? [seconds, 'segundo'] : [Math.ceil(seconds / 60), 'minuto'];
  const espera = `${n} ${unidad}${n === 1 ? '' : 's'}`;
  const headers = { 'Retry-After': String(seconds) };
  return new ErrorDeDominio(429, `Demasiados intentos. Espera ${espera} antes de volver a intentarlo.`, {}, headers);
}

/** Where a session was opened from: the client address and browser (null when unknown). */
interface Origen {
  ip: string | null;
  agente: string | null;
}

/** The socket fallback 'local' (no peer address, e.g. an in-process request) is not an address. */
export function origenDe(direccion: string, agente: string | undefined): Origen {
  return { ip: direccion && direccion !== 'local' ? direccion.slice(0, 100) : null, agente: agente ? agente.slice(0, 300) : null };
}

export function createCuentasService(ctx: ServiceContext, deps: { privacidad: Pick<PrivacidadService, 'aceptar'> }) {
  const { db, now } = ctx;
  const limiter = createRateLimiter(db, now);
  const intentos = createAttemptStore(db, now);
  const sesiones = createSesionesService(ctx);

  async function buscarPorEmail(email: string): Promise<UsuarioRow | undefined> {
    const [row] = await db
      .select()
      .from(usuarios)
      .where(eq(usuarios.email, normalizarEmail(email)));
    return row;
  }

  async function emitirSesion(user: Pick<UsuarioRow, 'id' | 'groups'>, familia: string, expira: Date, origen: Origen): Promise<Sesion> {
    const refresh = randomToken();
    await db.insert(tokensRefresh).values({ id_usuario: user.id, familia, token_hash: hashToken(refresh), expira, ...origen });
    const usuario = await obtenerUsuario(db, user.id);
    if (!usuario) throw new ErrorDeDominio(401, 'Tu sesión expiró. Ingresa nuevamente.');
    const access = signAccessToken({ sub: user.id, groups: user.groups, sid: familia }, { secret: ctx.jwtSecret, now });
    return { access, refresh, refreshExpira: expira, usuario };
  }

  /**
   * Opens a session for a person whose identity was verified (a password, an OpenID Connect
   * provider): the sign-in is recorded and the tokens issued. Each sign-in counts for the console's
   * 'teachers active per week'. The address and browser are kept for the person's copy of their
   * data and blanked by the 'retencion-direcciones' job after RETENCION_DIRECCIONES_DIAS (issue 31).
   */
  async function abrirSesion(
    user: Pick<UsuarioRow, 'id' | 'groups'>,
    direccion: string,
    agente: string | undefined,
    via: string,
  ): Promise<Sesion> {
    const origen = origenDe(direccion, agente);
    await db.insert(ingresos).values({ id_usuario: user.id, fecha: now(), ...origen });
    ctx.log.info('login', { userId: user.id, via });
    return emitirSesion(user, randomUUID(), new Date(now().getTime() + REFRESH_FAMILY_SECONDS * 1000), origen);
  }

  /** A valid, unused, unexpired token of the given kind, with its user. */
  async function tokenVigente(token: string, tipo: 'activacion' | 'recuperacion') {
    const [row] = await db
      .select({ token: tokensCuenta, usuario: usuarios })
      .from(tokensCuenta)
      .innerJoin(usuarios, eq(usuarios.id, tokensCuenta.id_usuario))
      .where(
        and(
          tokenVivo(token, tipo, now()),
          // A deactivated account's links do not work (an old activation link must not revive it).
          isNull(usuarios.desactivada_en),
        ),
      );
    return row;
  }

  /**
   * A new link of the given kind, mailed through the outbox, inside the caller's transaction.
   * Only the newest link works: older ones are spent, and their unsent mails retired.
   */
  async function enviarEnlace(tx: Db, user: UsuarioRow, tipo: 'activacion' | 'recuperacion'): Promise<string> {
    await tx
      .update(tokensCuenta)
      .set({ usado: now() })
      .where(and(eq(tokensCuenta.id_usuario, user.id), eq(tokensCuenta.tipo, tipo), isNull(tokensCuenta.usado)));
    const { token } = await nuevoTokenCuenta(tx, user.id, tipo, tipo === 'activacion' ? ACTIVATION_SECONDS : RESET_SECONDS, now());
    const ruta = tipo === 'activacion' ? '/activar-cuenta/' : '/cambiar-contraseña/';
    const base = new URL(encodeURI(ruta), ctx.config.PUBLIC_URL).toString();
    const link = `${base}${token}`;
    const rendered =
      tipo === 'activacion' ? plantillas.activacion(nombreCorto(user), link) : plantillas.recuperacion(user.primer_nombre, link);
    await encolarCorreo(tx, { to: user.email, ...rendered, link }, { reemplaza: base });
    return link;
  }

  return {
    /** The session state that guards check access tokens against. */
    sesiones,

    /**
     * Signs in. Failures are counted per account and address pair (a flat limit that stops one
     * address guessing one account), per account (a growing delay, so guesses from many addresses
     * are slowed, never a long refusal) and per address (sized for a school behind one address).
     * An address where the account signed in before skips the last two: the owner is not locked
     * out by someone else's failures. Answers the account: what follows (a session or a second
     * factor's challenge) is segundo-factor.server.ts's `trasVerificarIdentidad`.
     */
    async verificarCredenciales(input: LoginInput, direccion: string): Promise<UsuarioRow> {
      const email = normalizarEmail(input.email);
      const par = JSON.stringify([email, direccion]);
      const claves = {
        par: `login:par:${par}`,
        conocida: `login:conocida:${par}`,
        cuenta: `login:cuenta:${email}`,
        direccion: `login:ip:${direccion}`,
      };
      const filas = await intentos.read(Object.values(claves));
      const at = now();
      const conocida = (filas.get(claves.conocida)?.ventana_inicio.getTime() ?? 0) + DIRECCION_CONOCIDA_SEGUNDOS * 1000 > at.getTime();
      const bloqueo = Math.max(
        fixedWait(filas.get(claves.par), LOGIN_POR_PAR, at),
        conocida ? 0 : backoffWait(filas.get(claves.cuenta), LOGIN_POR_CUENTA, at),
        conocida ? 0 : fixedWait(filas.get(claves.direccion), LOGIN_POR_DIRECCION, at),
      );
      if (bloqueo > 0) throw demasiadosIntentos(bloqueo);

      const user = await buscarPorEmail(email);
      // Verify against a dummy hash when there is no usable account, so timing does not tell.
      const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()));
      // A deactivated account gets the same answer as a wrong password: no account enumeration.
      if (!user?.activo || user.desactivada_en || !user.password_hash || !ok) {
        await intentos.hit(claves.par, LOGIN_POR_PAR);
        await intentos.fail(claves.cuenta, LOGIN_POR_CUENTA);
        await intentos.hit(claves.direccion, LOGIN_POR_DIRECCION);
        throw new ErrorDeDominio(401, CREDENCIALES_INCORRECTAS, { non_field_errors: [CREDENCIALES_INCORRECTAS] });
      }
      await intentos.reset(claves.par);
      await intentos.mark(claves.conocida);
      if (needsRehash(user.password_hash)) {
        await db
          .update(usuarios)
          .set({ password_hash: await hashPassword(input.password) })
          .where(eq(usuarios.id, user.id));
      }
      return user;
    },

    /** The session of a person whose identity is verified (a password, a provider's sign-in): see `abrirSesion`. */
    abrirSesion,

    /** Rotates a refresh token. A token already rotated (outside the grace period) revokes its family. */
    async renovar(refresh: string): Promise<Sesion> {
      const expirada = () => new ErrorDeDominio(401, 'Tu sesión expiró. Ingresa nuevamente.');
      const [row] = await db
        .select()
        .from(tokensRefresh)
        .where(eq(tokensRefresh.token_hash, hashToken(refresh)));
      if (!row || row.revocado || row.expira <= now()) throw expirada();
      if (row.rotado) {
        const since = (now().getTime() - row.rotado.getTime()) / 1000;
        if (since > ROTATION_GRACE_SECONDS) {
          await sesiones.revocarFamilia(row.familia);
          ctx.log.warn('refresh token replay; family revoked', { userId: row.id_usuario, family: row.familia });
          throw expirada();
        }
      } else {
        const claimed = await db
          .update(tokensRefresh)
          .set({ rotado: now() })
          .where(and(eq(tokensRefresh.id, row.id), isNull(tokensRefresh.rotado)))
          .returning({ id: tokensRefresh.id });
        if (claimed.length === 0) return this.renovar(refresh);
      }
      const [user] = await db.select().from(usuarios).where(eq(usuarios.id, row.id_usuario));
      if (!user?.activo || user.desactivada_en) throw expirada();
      // The session's sign-in address goes on with each rotation (until the retention job blanks it).
      return emitirSesion(user, row.familia, row.expira, { ip: row.ip, agente: row.agente });
    },

    async logout(refresh: string | undefined): Promise<void> {
      if (!refresh) return;
      const [row] = await db
        .select()
        .from(tokensRefresh)
        .where(eq(tokensRefresh.token_hash, hashToken(refresh)));
      if (row) await sesiones.revocarFamilia(row.familia);
    },

    async verificarActivacion(token: string): Promise<Esquema<'EmailToken'>> {
      const row = await tokenVigente(token, 'activacion');
      if (!row) throw new ErrorDeDominio(404, TOKEN_INVALIDO);
      return { email: row.usuario.email };
    },

    /** Sets the first password and records the privacy notice's acceptance (issue 31), in one transaction. */
    async activar(token: string, password: string, direccion: string): Promise<{ email: string }> {
      const row = await tokenVigente(token, 'activacion');
      if (!row) throw new ErrorDeDominio(404, TOKEN_INVALIDO);
      const hash = await hashPassword(password);
      await db.transaction(async (tx) => {
        if (!(await gastarToken(tx, row.token.id, now()))) throw new ErrorDeDominio(404, TOKEN_INVALIDO);
        await tx.update(usuarios).set({ password_hash: hash, activo: true }).where(eq(usuarios.id, row.usuario.id));
        await deps.privacidad.aceptar(row.usuario.id, origenDe(direccion, undefined).ip, tx);
      });
      ctx.log.info('account activated', { userId: row.usuario.id });
      return { email: row.usuario.email };
    },

    async solicitarRecuperacion(emailIngresado: string, direccion: string): Promise<{ email: string }> {
      const email = normalizarEmail(emailIngresado);
      const claveDireccion = `recuperar:ip:${direccion}`;
      const claveCuenta = `recuperar:cuenta:${email}`;
      const bloqueo = Math.max(
        await limiter.blockedFor(claveDireccion, RECUPERAR_POR_DIRECCION),
        await limiter.blockedFor(claveCuenta, RECUPERAR_POR_CUENTA),
      );
      if (bloqueo > 0) throw demasiadosIntentos(bloqueo);
      await limiter.hit(claveDireccion, RECUPERAR_POR_DIRECCION);
      const user = await buscarPorEmail(email);
      if (!user) throw new ErrorDeDominio(404, 'Usuario no encontrado');
      if (!user.activo) throw new ErrorDeDominio(403, 'Usuario no activo');
      await limiter.hit(claveCuenta, RECUPERAR_POR_CUENTA);
      await db.transaction((tx) => enviarEnlace(tx, user, 'recuperacion'));
      return { email: user.email };
    },

    async verificarRecuperacion(token: string): Promise<Esquema<'EmailToken'>> {
      const row = await tokenVigente(token, 'recuperacion');
      if (!row) throw new ErrorDeDominio(404, TOKEN_INVALIDO);
      return { email: row.usuario.email };
    },

    /** Sets a new password from a reset link and signs the user out everywhere. */
    async cambiarContrasena(token: string, password: string): Promise<void> {
      const row = await tokenVigente(token, 'recuperacion');
      if (!row) throw new ErrorDeDominio(404, TOKEN_INVALIDO);
      const hash = await hashPassword(password);
      await db.transaction(async (tx) => {
        if (!(await gastarToken(tx, row.token.id, now()))) throw new ErrorDeDominio(404, TOKEN_INVALIDO);
        await tx.update(usuarios).set({ password_hash: hash }).where(eq(usuarios.id, row.usuario.id));
      });
      await sesiones.revocarUsuario(row.usuario.id);
      ctx.log.info('password changed', { userId: row.usuario.id });
    },

    /**
     * Queues (or re-queues) the activation link of an account that is not active yet; inside `tx`
     * when given, so the account and its mail are committed together.
     */
    async enviarActivacion(user: UsuarioRow, tx?: Db): Promise<string> {
      return tx ? enviarEnlace(tx, user, 'activacion') : db.transaction((t) => enviarEnlace(t, user, 'activacion'));
    },
  };
}

export type CuentasService = ReturnType<typeof createCuentasService>;
