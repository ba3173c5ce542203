/**
 * Sign-in with a school account (issue 32, decision 0063): the OpenID Connect authorization code
 * flow with PKCE, state and nonce, through openid-client (discovery, the authorization URL, the
 * code exchange and every ID token check are the library's). This service starts a flow, ends it
 * and decides who gets in; the routes (api/oidc.server.ts) set the cookies.
 *
 * Who gets in: a verified address of one of the provider's domains opens the account linked to
 * that provider's subject, or else the account with that address (then linked); an invited,
 * pending account becomes active; an unknown address is refused unless the admin turned on
 * automatic accounts for its domain; a deactivated, leaving or erased account stays out.
 */
import { and, eq, isNull, lt } from 'drizzle-orm';
import * as client from 'openid-client';
import type { CodigoOidc } from '../../ingreso-externo.ts';
import type { ProveedorOidc } from '../auth/oidc-proveedores.server.ts';
import { hashToken, randomToken } from '../auth/tokens.server.ts';
import { flujosOidc, identidades, perfilesDocentes, tokensCuenta, usuarios } from '../db/schema.server.ts';
import type { ServiceContext } from './context.server.ts';
import { createDescubrimiento, ProveedorNoDisponible } from './oidc/descubrimiento.server.ts';
import { auditarOidc, createIdentidades } from './oidc/identidades.server.ts';

/** A started flow lives ten minutes: the time to choose an account and type a password at the provider. */
export const FLUJO_SEGUNDOS = 10 * 60;
const SCOPE = 'openid email profile';

/** A refusal the person is told about on the sign-in screen (or the profile page when linking). */
export class RechazoOidc extends Error {
  readonly codigo: CodigoOidc;
  /** Where the refusal is shown: the sign-in screen, or the linked accounts page. */
  readonly vincular: boolean;
  readonly siguiente: string;

  constructor(codigo: CodigoOidc, vincular = false, siguiente = '/') {
    super(codigo);
    this.codigo = codigo;
    this.vincular = vincular;
    this.siguiente = siguiente;
  }
}

/** Who the provider says signed in, once every check held. */
export type FinOidc =
  | { tipo: 'ingreso'; usuario: { id: number; groups: string[] }; destino: string; via: string }
  | { tipo: 'vinculada'; proveedor: string };

interface Reclamos {
  sub: string;
  email: string;
  verificado: boolean;
  nombre: string;
  apellido: string;
  /** Google's hosted domain: the Workspace the account belongs to (absent for a personal account). */
  hd: string;
}

/**
 * Whether the provider vouches for the address: the standard `email_verified`, or, where a
 * provider does not send it (Microsoft Entra ID's work accounts), Entra's optional `xms_edov`
 * ('email domain owner verified', added in the app registration's token configuration).
 */
function leerReclamos(claims: client.IDToken): Reclamos {
  const texto = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const verdadero = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';
  const verificado = claims.email_verified === undefined ? verdadero(claims.xms_edov) : verdadero(claims.email_verified);
  return {
    sub: claims.sub,
    email: texto(claims.email).toLowerCase(),
    verificado,
    nombre: texto(claims.given_name),
    apellido: texto(claims.family_name),
    hd: texto(claims.hd).toLowerCase(),
  };
}

/** Why the code exchange failed, in the codes the person reads. */
function causaDelCanje(error: unknown): CodigoOidc {
  if (error instanceof client.AuthorizationResponseError) return 'cancelado';
  if (error instanceof client.ResponseBodyError) return error.error === 'invalid_grant' ? 'vencido' : 'no_disponible';
  if (
    error instanceof TypeError ||
    (error instanceof Error && /timeout|abort|ECONNREFUSED|fetch failed/i.test(`${error.name} ${error.message}`))
  )
    return 'no_disponible';
  // An ID token that does not hold (nonce, audience, issuer, signature, times): not this flow's answer.
  return 'estado';
}

const esGoogle = (p: ProveedorOidc) => new URL(p.issuer).hostname === 'accounts.google.com';

export interface OpcionesOidc {
  proveedores: ProveedorOidc[];
}

export function createOidcService(ctx: ServiceContext, opciones: OpcionesOidc) {
  const { db, now } = ctx;
  const { proveedores } = opciones;
  const descubrimiento = createDescubrimiento(now);
  const cuentas = createIdentidades(ctx, proveedores);

  const proveedor = (id: string) => proveedores.find((p) => p.id === id);
  const redirectUri = (id: string) => new URL(`/auth/oidc/${id}/callback`, ctx.config.PUBLIC_URL);

  async function configuracion(p: ProveedorOidc, vincular: boolean, siguiente: string) {
    try {
      return await descubrimiento.configuracion(p);
    } catch (error) {
      ctx.log.warn('oidc provider unavailable', { proveedor: p.id, error: error instanceof ProveedorNoDisponible ? error.cause : error });
      throw new RechazoOidc('no_disponible', vincular, siguiente);
    }
  }

  /** The flow the browser's handle names, spent now: a second use (a replayed callback) finds it spent. */
  async function gastarFlujo(id: string, handle: string | undefined) {
    if (!handle) throw new RechazoOidc('estado');
    const [flujo] = await db
      .select()
      .from(flujosOidc)
      .where(and(eq(flujosOidc.id_hash, hashToken(handle)), eq(flujosOidc.proveedor, id)));
    if (!flujo) throw new RechazoOidc('estado');
    const vincular = flujo.id_usuario !== null;
    if (flujo.usado) throw new RechazoOidc('usado', vincular, flujo.destino);
    if (flujo.expira <= now()) throw new RechazoOidc('vencido', vincular, flujo.destino);
    const gastado = await db
      .update(flujosOidc)
      .set({ usado: now() })
      .where(and(eq(flujosOidc.id_hash, flujo.id_hash), isNull(flujosOidc.usado)))
      .returning({ id: flujosOidc.id_hash });
    if (gastado.length === 0) throw new RechazoOidc('usado', vincular, flujo.destino);
    return { ...flujo, vincular };
  }

  /** A refusal, written to the audit log before the person is told. */
  async function rechazar(
    codigo: CodigoOidc,
    paso: { p: ProveedorOidc; email: string; idUsuario?: number; vincular: boolean; destino: string },
  ) {
    await auditarOidc(db, {
      accion: 'oidc_rechazo',
      idUsuario: paso.idUsuario ?? null,
      email: paso.email,
      proveedor: paso.p.id,
      detalle: `Ingreso con ${paso.p.nombre} rechazado: ${codigo}${paso.email ? ` (${paso.email})` : ''}`,
    });
    return new RechazoOidc(codigo, paso.vincular, paso.destino);
  }

  /** A new account for an unknown address of a domain with automatic accounts, active at once. */
  async function crearCuenta(r: Reclamos, p: ProveedorOidc) {
    return db.transaction(async (tx) => {
      const [fila] = await tx
        .insert(usuarios)
        .values({
          email: r.email,
          activo: true,
          primer_nombre: r.nombre || r.email.split('@')[0] || 'Docente',
          apellido_paterno: r.apellido,
        })
        .returning();
      if (!fila) throw new Error('account not created');
      await tx.insert(perfilesDocentes).values({ id_usuario: fila.id });
      await auditarOidc(tx, {
        accion: 'oidc_cuenta_automatica',
        idUsuario: fila.id,
        email: r.email,
        proveedor: p.id,
        detalle: `Cuenta creada al ingresar con ${p.nombre} (cuentas automáticas del dominio)`,
      });
      return fila;
    });
  }

  async function vincular(idUsuario: number, r: Reclamos, p: ProveedorOidc, destino: string): Promise<FinOidc> {
    const [dueno] = await db
      .select({ id_usuario: identidades.id_usuario })
      .from(identidades)
      .where(and(eq(identidades.proveedor, p.id), eq(identidades.sub, r.sub)));
    if (dueno && dueno.id_usuario !== idUsuario)
      throw await rechazar('ya_vinculada', { p, email: r.email, idUsuario, vincular: true, destino });
    await db.transaction(async (tx) => {
      await tx.delete(identidades).where(and(eq(identidades.id_usuario, idUsuario), eq(identidades.proveedor, p.id)));
      await tx.insert(identidades).values({ id_usuario: idUsuario, proveedor: p.id, sub: r.sub, email: r.email });
      await auditarOidc(tx, {
        accion: 'oidc_vincular',
        idUsuario,
        email: r.email,
        proveedor: p.id,
        detalle: `Vinculó su cuenta ${r.email} de ${p.nombre}`,
      });
    });
    return { tipo: 'vinculada', proveedor: p.id };
  }

  async function ingresar(r: Reclamos, p: ProveedorOidc, destino: string): Promise<FinOidc> {
    const paso = { p, email: r.email, vincular: false, destino };
    const [vinculada] = await db
      .select({ usuario: usuarios })
      .from(identidades)
      .innerJoin(usuarios, eq(usuarios.id, identidades.id_usuario))
      .where(and(eq(identidades.proveedor, p.id), eq(identidades.sub, r.sub)));
    let usuario = vinculada?.usuario ?? (await db.select().from(usuarios).where(eq(usuarios.email, r.email)))[0];
    if (!usuario) {
      const automaticos = await cuentas.dominiosAutomaticos();
      if (!automaticos.includes(r.email.split('@')[1] ?? '')) throw await rechazar('sin_cuenta', paso);
      usuario = await crearCuenta(r, p);
    }
    // A scheduled deletion does not refuse: signing in cancels it (issue 31), as with a password.
    if (usuario.desactivada_en || usuario.eliminada_en) throw await rechazar('cuenta_inactiva', { ...paso, idUsuario: usuario.id });
    const idUsuario = usuario.id;
    await db.transaction(async (tx) => {
      if (!usuario.activo) {
        // The invitation is answered by the provider: the account is active, its activation link spent.
        await tx.update(usuarios).set({ activo: true }).where(eq(usuarios.id, idUsuario));
        await tx
          .update(tokensCuenta)
          .set({ usado: now() })
          .where(and(eq(tokensCuenta.id_usuario, idUsuario), eq(tokensCuenta.tipo, 'activacion'), isNull(tokensCuenta.usado)));
        await auditarOidc(tx, {
          accion: 'oidc_activar',
          idUsuario,
          email: r.email,
          proveedor: p.id,
          detalle: `Activó su cuenta con ${p.nombre}`,
        });
      }
      // Linked at the first sign-in; an account already linked to another subject of this provider keeps that link.
      const [propia] = await tx
        .select({ id: identidades.id, sub: identidades.sub })
        .from(identidades)
        .where(and(eq(identidades.id_usuario, idUsuario), eq(identidades.proveedor, p.id)));
      if (!propia)
        await tx.insert(identidades).values({ id_usuario: idUsuario, proveedor: p.id, sub: r.sub, email: r.email, ultimo_uso: now() });
      else if (propia.sub === r.sub)
        await tx.update(identidades).set({ email: r.email, ultimo_uso: now() }).where(eq(identidades.id, propia.id));
      await auditarOidc(tx, {
        accion: 'oidc_ingreso',
        idUsuario,
        email: r.email,
        proveedor: p.id,
        detalle: `Ingresó con ${p.nombre} (${r.email})`,
      });
    });
    return { tipo: 'ingreso', usuario: { id: idUsuario, groups: usuario.groups }, destino, via: `oidc:${p.id}` };
  }

  return {
    ...cuentas,

    /** The site's origin, against which a `siguiente` is resolved (destinoSeguro). */
    publicUrl: ctx.config.PUBLIC_URL,

    /** The configured providers, for the sign-in screen's buttons and the profile page. */
    proveedores: () => proveedores.map((p) => ({ id: p.id, nombre: p.nombre, dominios: p.dominios })),

    /**
     * Starts a flow: the provider's authorization URL, and the random handle the browser keeps
     * (in a short-lived httpOnly cookie) that names the flow's state, nonce and PKCE verifier
     * stored here. `vincular` is the signed-in person who links this provider to their account.
     */
    async iniciar(id: string, opciones: { destino: string; vincular?: number }): Promise<{ url: URL; handle: string }> {
      const vincularA = opciones.vincular ?? null;
      const p = proveedor(id);
      if (!p) throw new RechazoOidc('proveedor', vincularA !== null, opciones.destino);
      const config = await configuracion(p, vincularA !== null, opciones.destino);
      const verificador = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const handle = randomToken();
      // Flows never finished are cleared as new ones start.
      await db.delete(flujosOidc).where(lt(flujosOidc.expira, new Date(now().getTime() - 24 * 60 * 60 * 1000)));
      await db.insert(flujosOidc).values({
        id_hash: hashToken(handle),
        proveedor: p.id,
        state,
        nonce,
        verificador,
        destino: opciones.destino,
        id_usuario: vincularA,
        expira: new Date(now().getTime() + FLUJO_SEGUNDOS * 1000),
      });
      const parametros: Record<string, string> = {
        redirect_uri: redirectUri(p.id).toString(),
        scope: SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(verificador),
        code_challenge_method: 'S256',
        state,
        nonce,
      };
      // Google's `hd` shows only that Workspace domain's accounts (a hint: the domain is still checked on return).
      if (p.dominios.length === 1 && esGoogle(p)) parametros.hd = p.dominios[0] ?? '';
      return { url: client.buildAuthorizationUrl(config, parametros), handle };
    },

    /**
     * Ends a flow from the provider's answer (`respuesta`, the callback's URL) and the browser's
     * handle: the account to sign in (the caller completes the sign-in), or the provider linked.
     * Any failure is a RechazoOidc, audited, and no session.
     */
    async completar(id: string, respuesta: URL, handle: string | undefined): Promise<FinOidc> {
      const p = proveedor(id);
      if (!p) throw new RechazoOidc('proveedor');
      const flujo = await gastarFlujo(id, handle);
      const paso = { p, email: '', idUsuario: flujo.id_usuario ?? undefined, vincular: flujo.vincular, destino: flujo.destino };
      if (respuesta.searchParams.get('state') !== flujo.state) throw await rechazar('estado', paso);
      if (respuesta.searchParams.has('error')) throw await rechazar('cancelado', paso);
      const config = await configuracion(p, flujo.vincular, flujo.destino);
      // The redirect URI as registered at the provider, with the answer's parameters.
      const actual = redirectUri(p.id);
      actual.search = respuesta.search;
      let reclamos: Reclamos;
      try {
        const tokens = await client.authorizationCodeGrant(config, actual, {
          pkceCodeVerifier: flujo.verificador,
          expectedState: flujo.state,
          expectedNonce: flujo.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new RechazoOidc('estado');
        reclamos = leerReclamos(claims);
      } catch (error) {
        const codigo = error instanceof RechazoOidc ? error.codigo : causaDelCanje(error);
        ctx.log.warn('oidc code exchange failed', { proveedor: p.id, codigo, error });
        throw await rechazar(codigo, paso);
      }
      const conCorreo = { ...paso, email: reclamos.email };
      if (!reclamos.email || !reclamos.verificado) throw await rechazar('no_verificado', conCorreo);
      const dominio = reclamos.email.split('@')[1] ?? '';
      if (!p.dominios.includes(dominio)) throw await rechazar('dominio', conCorreo);
      // Google: the address must be the Workspace's own account (the ID token's `hd`), not a
      // personal Google account made with a school address, as Google's guide asks.
      if (esGoogle(p) && reclamos.hd !== dominio) throw await rechazar('dominio', conCorreo);
      if (flujo.id_usuario !== null) {
        const [persona] = await db.select().from(usuarios).where(eq(usuarios.id, flujo.id_usuario));
        if (!persona?.activo || persona.desactivada_en || persona.eliminada_en) throw await rechazar('cuenta_inactiva', conCorreo);
        return vincular(persona.id, reclamos, p, flujo.destino);
      }
      return ingresar(reclamos, p, flujo.destino);
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
