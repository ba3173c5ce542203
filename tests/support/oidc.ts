/**
 * A real OpenID Connect provider for the tests (issue 32): panva's oidc-provider on a free port of
 * this machine, with one confidential test client whose redirect URI is our callback. Its
 * development sign-in form takes any login: the login is the account's id, and `cuentas` says
 * which claims that account has (by default the login is a verified email). Consent is granted
 * at once for the test client, as a school's first-party app would be.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { ProveedorOidc } from '../../src/lib/server/auth/oidc-proveedores.server.ts';

export interface CuentaPrueba {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface ProveedorPrueba {
  issuer: string;
  /** The entry of OIDC_PROVEEDORES for this provider. */
  config(opciones: { id?: string; nombre?: string; dominios: string[]; publicUrl: string }): ProveedorOidc;
  /** Claims of a login other than the default (a verified email equal to the login). */
  cuentas: Map<string, CuentaPrueba>;
  close(): Promise<void>;
}

export const CLIENTE_PRUEBA = { id: 'entre-docentes', secreto: 'secreto-del-cliente-de-prueba-0123456789' };

/**
 * Starts the provider. `redirects` are the callback URLs it accepts (the server under test's
 * PUBLIC_URL + /auth/oidc/{id}/callback).
 */
export async function iniciarProveedor(redirects: string[]): Promise<ProveedorPrueba> {
  const cuentas = new Map<string, CuentaPrueba>();
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENTE_PRUEBA.id,
        client_secret: CLIENTE_PRUEBA.secreto,
        redirect_uris: redirects,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    // The ID token carries the claims (no userinfo call needed), as Google's and Entra's do.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    async findAccount(_ctx, id) {
      const cuenta = cuentas.get(id) ?? {};
      return {
        accountId: id,
        async claims() {
          const email = 'email' in cuenta ? cuenta.email : id;
          return {
            sub: id,
            ...(email ? { email } : {}),
            email_verified: cuenta.email_verified ?? true,
            given_name: cuenta.given_name ?? 'Docente',
            family_name: cuenta.family_name ?? 'De Prueba',
          };
        },
      };
    },
    async loadExistingGrant(ctx) {
      const { provider: p, session, client, result } = ctx.oidc;
      if (!session || !client) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return p.Grant.find(grantId);
      const grant = new p.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  // The development sign-in form is what the browser test fills in; the warnings say so.
  server.on('request', provider.callback());
  return {
    issuer,
    cuentas,
    config: ({ id = 'prueba', nombre = 'Prueba', dominios }) => ({
      id,
      nombre,
      issuer,
      client_id: CLIENTE_PRUEBA.id,
      client_secret: CLIENTE_PRUEBA.secreto,
      dominios,
    }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A small cookie jar for walking the provider's pages with fetch (names only; paths ignored). */
export class Tarro {
  private readonly galletas = new Map<string, string>();

  guardar(respuesta: Response): void {
    for (const linea of respuesta.headers.getSetCookie()) {
      const [par] = linea.split(';');
      const i = par?.indexOf('=') ?? -1;
      if (!par || i < 0) continue;
      const nombre = par.slice(0, i).trim();
      const valor = par.slice(i + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(linea) || valor === '') this.galletas.delete(nombre);
      else this.galletas.set(nombre, valor);
    }
  }

  cabecera(): string {
    return [...this.galletas].map(([n, v]) => `${n}=${v}`).join('; ');
  }

  valor(nombre: string): string | undefined {
    return this.galletas.get(nombre);
  }
}

/**
 * Signs in at the provider as `login` (its development form), starting from the authorization URL
 * our server sent the browser to: the URL of our callback the provider sends the browser back to.
 */
export async function ingresarEnProveedor(autorizacion: string, login: string): Promise<URL> {
  const tarro = new Tarro();
  const pedir = async (url: string, init: RequestInit = {}) => {
    const r = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: tarro.cabecera() } });
    tarro.guardar(r);
    return r;
  };
  let r = await pedir(autorizacion);
  let destino = new URL(r.headers.get('location') ?? '', autorizacion);
  // The interaction page (the sign-in form).
  r = await pedir(destino.toString());
  const html = await r.text();
  const accion = /action="([^"]+)"/.exec(html)?.[1];
  if (!accion) throw new Error(`no sign-in form at the provider: ${r.status} ${html.slice(0, 300)}`);
  r = await pedir(new URL(accion.replaceAll('&amp;', '&'), destino).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ prompt: 'login', login, password: 'cualquiera' }).toString(),
  });
  // Resume the authorization, then follow the provider's own redirects until it points at us.
  for (let i = 0; i < 5; i++) {
    destino = new URL(r.headers.get('location') ?? '', destino);
    if (destino.origin !== new URL(autorizacion).origin) return destino;
    r = await pedir(destino.toString());
  }
  throw new Error('the provider never sent the browser back');
}
