/**
 * Accounts: sign-in, token renewal and sign-out, activation, password reset and change.
 * The rules of SPEC.md sections 4, 7 and 8 and of issue 2 (token lifetimes, rotation, limits).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { LoginInput } from '../../validation/cuentas.ts';
import { ApiError } from '../api/errors.server.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../auth/password.server.ts';
import { createRateLimiter, type Limit } from '../auth/rate-limit.server.ts';
import {
  ACTIVATION_SECONDS,
  hashToken,
  REFRESH_FAMILY_SECONDS,
  RESET_SECONDS,
  randomToken,
  signAccessToken,
} from '../auth/tokens.server.ts';
import { tokensCuenta, tokensRefresh, usuarios } from '../db/schema.server.ts';
import * as plantillas from '../mail/templates.server.ts';
import type { ServiceContext } from './context.server.ts';
import { nombreCorto, obtenerUsuario, type Usuario, type UsuarioRow } from './usuarios.server.ts';

const CREDENCIALES_INCORRECTAS = 'Usuario y/o contraseña incorrectos';
export const TOKEN_INVALIDO = 'Token inválido o expirado';

const LOGIN_POR_CUENTA: Limit = { max: 5, windowSeconds: 15 * 60 };
const LOGIN_POR_DIRECCION: Limit = { max: 20, windowSeconds: 15 * 60 };
const RECUPERAR_POR_DIRECCION: Limit = { max: 5, windowSeconds: 15 * 60 };
const RECUPERAR_POR_CUENTA: Limit = { max: 3, windowSeconds: 60 * 60 };
/** A refresh token reused within this many seconds of its rotation is a race between tabs, not a replay. */
const ROTATION_GRACE_SECONDS = 10;

export interface Sesion {
  access: string;
  refresh: string;
  /** Absolute expiry of the refresh token, for the cookie's lifetime. */
  refreshExpira: Date;
  usuario: Usuario;
}

const normalizarEmail = (email: string) => email.trim().toLowerCase();

function demasiadosIntentos(seconds: number): ApiError {
  const minutos = Math.max(1, Math.ceil(seconds / 60));
  return new ApiError(
    429,
    `Demasiados intentos. Espere ${minutos} ${minutos === 1 ? 'minuto' : 'minutos'} antes de volver a intentarlo.`,
    {},
    { 'Retry-After': String(seconds) },
  );
}

export function createCuentasService(ctx: ServiceContext) {
  const { db, now } = ctx;
  const limiter = createRateLimiter(db, now);

  async function buscarPorEmail(email: string): Promise<UsuarioRow | undefined> {
    const [row] = await db
      .select()
      .from(usuarios)
      .where(eq(usuarios.email, normalizarEmail(email)));
    return row;
  }

  async function emitirSesion(user: UsuarioRow, familia: string, expira: Date): Promise<Sesion> {
    const refresh = randomToken();
    await db.insert(tokensRefresh).values({ id_usuario: user.id, familia, token_hash: hashToken(refresh), expira });
    const usuario = await obtenerUsuario(db, user.id);
    if (!usuario) throw new ApiError(401, 'La sesión expiró. Ingrese nuevamente.');
    const access = signAccessToken({ sub: user.id, groups: user.groups }, { secret: ctx.jwtSecret, now });
    return { access, refresh, refreshExpira: expira, usuario };
  }

  async function revocarFamilia(familia: string) {
    await db
      .update(tokensRefresh)
      .set({ revocado: now() })
      .where(and(eq(tokensRefresh.familia, familia), isNull(tokensRefresh.revocado)));
  }

  async function revocarTodo(idUsuario: number) {
    await db
      .update(tokensRefresh)
      .set({ revocado: now() })
      .where(and(eq(tokensRefresh.id_usuario, idUsuario), isNull(tokensRefresh.revocado)));
  }

  /** A valid, unused, unexpired token of the given kind, with its user. */
  async function tokenVigente(token: string, tipo: 'activacion' | 'recuperacion') {
    const [row] = await db
      .select({ token: tokensCuenta, usuario: usuarios })
      .from(tokensCuenta)
      .innerJoin(usuarios, eq(usuarios.id, tokensCuenta.id_usuario))
      .where(
        and(
          eq(tokensCuenta.token_hash, hashToken(token)),
          eq(tokensCuenta.tipo, tipo),
          isNull(tokensCuenta.usado),
          gt(tokensCuenta.expira, now()),
        ),
      );
    return row;
  }

  async function crearTokenCuenta(idUsuario: number, tipo: 'activacion' | 'recuperacion'): Promise<string> {
    const token = randomToken();
    const expira = new Date(now().getTime() + (tipo === 'activacion' ? ACTIVATION_SECONDS : RESET_SECONDS) * 1000);
    await db.transaction(async (tx) => {
      // Only the newest link works: an older one is spent when a new one is sent.
      await tx
        .update(tokensCuenta)
        .set({ usado: now() })
        .where(and(eq(tokensCuenta.id_usuario, idUsuario), eq(tokensCuenta.tipo, tipo), isNull(tokensCuenta.usado)));
      await tx.insert(tokensCuenta).values({ id_usuario: idUsuario, tipo, token_hash: hashToken(token), expira });
    });
    return token;
  }

  const enlace = (ruta: string, token: string) => new URL(encodeURI(`${ruta}${token}`), ctx.config.PUBLIC_URL).toString();

  return {
    async login(input: LoginInput, direccion: string): Promise<Sesion> {
      const email = normalizarEmail(input.email);
      const claveCuenta = `login:cuenta:${email}`;
      const claveDireccion = `login:ip:${direccion}`;
      const bloqueo = Math.max(
        await limiter.blockedFor(claveCuenta, LOGIN_POR_CUENTA),
        await limiter.blockedFor(claveDireccion, LOGIN_POR_DIRECCION),
      );
      if (bloqueo > 0) throw demasiadosIntentos(bloqueo);

      const user = await buscarPorEmail(email);
      // Verify against a dummy hash when there is no usable account, so timing does not tell.
      const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()));
      if (!user?.activo || !user.password_hash || !ok) {
        await limiter.hit(claveCuenta, LOGIN_POR_CUENTA);
        await limiter.hit(claveDireccion, LOGIN_POR_DIRECCION);
        throw new ApiError(401, CREDENCIALES_INCORRECTAS, { non_field_errors: [CREDENCIALES_INCORRECTAS] });
      }
      await limiter.reset(claveCuenta);
      if (needsRehash(user.password_hash)) {
        await db
          .update(usuarios)
          .set({ password_hash: await hashPassword(input.password) })
          .where(eq(usuarios.id, user.id));
      }
      ctx.log.info('login', { userId: user.id });
      return emitirSesion(user, randomUUID(), new Date(now().getTime() + REFRESH_FAMILY_SECONDS * 1000));
    },

    /** Rotates a refresh token. A token already rotated (outside the grace period) revokes its family. */
    async renovar(refresh: string): Promise<Sesion> {
      const expirada = () => new ApiError(401, 'La sesión expiró. Ingrese nuevamente.');
      const [row] = await db
        .select()
        .from(tokensRefresh)
        .where(eq(tokensRefresh.token_hash, hashToken(refresh)));
      if (!row || row.revocado || row.expira <= now()) throw expirada();
      if (row.rotado) {
        const since = (now().getTime() - row.rotado.getTime()) / 1000;
        if (since > ROTATION_GRACE_SECONDS) {
          await revocarFamilia(row.familia);
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
      if (!user?.activo) throw expirada();
      return emitirSesion(user, row.familia, row.expira);
    },

    async logout(refresh: string | undefined): Promise<void> {
      if (!refresh) return;
      const [row] = await db
        .select()
        .from(tokensRefresh)
        .where(eq(tokensRefresh.token_hash, hashToken(refresh)));
      if (row) await revocarFamilia(row.familia);
    },

    async verificarActivacion(token: string): Promise<{ email: string }> {
      const row = await tokenVigente(token, 'activacion');
      if (!row) throw new ApiError(404, TOKEN_INVALIDO);
      return { email: row.usuario.email };
    },

    async activar(token: string, password: string): Promise<{ email: string }> {
      const row = await tokenVigente(token, 'activacion');
      if (!row) throw new ApiError(404, TOKEN_INVALIDO);
      const hash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const spent = await tx
          .update(tokensCuenta)
          .set({ usado: now() })
          .where(and(eq(tokensCuenta.id, row.token.id), isNull(tokensCuenta.usado)))
          .returning({ id: tokensCuenta.id });
        if (spent.length === 0) throw new ApiError(404, TOKEN_INVALIDO);
        await tx.update(usuarios).set({ password_hash: hash, activo: true }).where(eq(usuarios.id, row.usuario.id));
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
      if (!user) throw new ApiError(404, 'Usuario no encontrado');
      if (!user.activo) throw new ApiError(403, 'Usuario no activo');
      await limiter.hit(claveCuenta, RECUPERAR_POR_CUENTA);
      const token = await crearTokenCuenta(user.id, 'recuperacion');
      const link = enlace('/cambiar-contraseña/', token);
      await ctx.mailer.send({ to: user.email, ...plantillas.recuperacion(user.primer_nombre, link), link });
      return { email: user.email };
    },

    async verificarRecuperacion(token: string): Promise<{ email: string }> {
      const row = await tokenVigente(token, 'recuperacion');
      if (!row) throw new ApiError(404, TOKEN_INVALIDO);
      return { email: row.usuario.email };
    },

    /** Sets a new password from a reset link and signs the user out everywhere. */
    async cambiarContrasena(token: string, password: string): Promise<void> {
      const row = await tokenVigente(token, 'recuperacion');
      if (!row) throw new ApiError(404, TOKEN_INVALIDO);
      const hash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const spent = await tx
          .update(tokensCuenta)
          .set({ usado: now() })
          .where(and(eq(tokensCuenta.id, row.token.id), isNull(tokensCuenta.usado)))
          .returning({ id: tokensCuenta.id });
        if (spent.length === 0) throw new ApiError(404, TOKEN_INVALIDO);
        await tx.update(usuarios).set({ password_hash: hash }).where(eq(usuarios.id, row.usuario.id));
      });
      await revocarTodo(row.usuario.id);
      ctx.log.info('password changed', { userId: row.usuario.id });
    },

    /** Sends (or re-sends) the activation link of an account that is not active yet. */
    async enviarActivacion(user: UsuarioRow): Promise<string> {
      const token = await crearTokenCuenta(user.id, 'activacion');
      const link = enlace('/activar-cuenta/', token);
      await ctx.mailer.send({ to: user.email, ...plantillas.activacion(nombreCorto(user), link), link });
      return link;
    },
  };
}

export type CuentasService = ReturnType<typeof createCuentasService>;
