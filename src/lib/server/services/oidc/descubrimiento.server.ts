/**
 * Each provider's OpenID Connect configuration, from its discovery document (openid-client's
 * `discovery`), fetched at the first sign-in that needs it and kept: nothing is asked of a
 * provider at start-up or to draw the sign-in page, so a provider that is down breaks neither.
 * A failed fetch is remembered for a short while (no hammering a down provider on each click),
 * a good one for a day (providers rotate keys: openid-client refetches the JWKS itself on an unknown key).
 */
import * as client from 'openid-client';
import { issuerLocal, type ProveedorOidc } from '../../auth/oidc-proveedores.server.ts';

const VALIDO_MS = 24 * 60 * 60 * 1000;
const REINTENTO_MS = 30 * 1000;
/** Seconds a provider has to answer discovery and the token request. */
const ESPERA_SEGUNDOS = 10;

/** The provider did not answer, or answered something that is not a usable configuration. */
export class ProveedorNoDisponible extends Error {}

interface Entrada {
  config?: client.Configuration;
  fallo?: unknown;
  hasta: number;
}

export function createDescubrimiento(ahora: () => Date) {
  const cache = new Map<string, Entrada>();
  const enCurso = new Map<string, Promise<client.Configuration>>();

  async function buscar(p: ProveedorOidc): Promise<client.Configuration> {
    try {
      // http only for a provider on this machine (the schema refuses it elsewhere).
      const execute = issuerLocal(p.issuer) && p.issuer.startsWith('http:') ? [client.allowInsecureRequests] : [];
      const config = await client.discovery(new URL(p.issuer), p.client_id, p.client_secret, undefined, {
        execute,
        timeout: ESPERA_SEGUNDOS,
      });
      cache.set(p.id, { config, hasta: ahora().getTime() + VALIDO_MS });
      return config;
    } catch (error) {
      cache.set(p.id, { fallo: error, hasta: ahora().getTime() + REINTENTO_MS });
      throw new ProveedorNoDisponible(`discovery of ${p.issuer} failed`, { cause: error });
    }
  }

  return {
    /** The provider's configuration, fetched once and shared by concurrent requests. */
    async configuracion(p: ProveedorOidc): Promise<client.Configuration> {
      const entrada = cache.get(p.id);
      if (entrada && entrada.hasta > ahora().getTime()) {
        if (entrada.config) return entrada.config;
        throw new ProveedorNoDisponible(`discovery of ${p.issuer} failed recently`, { cause: entrada.fallo });
      }
      let pendiente = enCurso.get(p.id);
      if (!pendiente) {
        pendiente = buscar(p).finally(() => enCurso.delete(p.id));
        enCurso.set(p.id, pendiente);
      }
      return pendiente;
    },
  };
}
