/**
 * OIDC_PROVEEDORES (issue 32, decision 0063) is checked at start-up: a good value gives the
 * providers; any wrong one stops the process with a message naming the variable and the field.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/server/config.server.ts';

const google = {
  id: 'google',
  nombre: 'Google',
  issuer: 'https://accounts.google.com',
  client_id: 'cliente.apps.googleusercontent.com',
  client_secret: 'secreto',
  dominios: ['Colegio.CL'],
};
const con = (valor: unknown) => ({ OIDC_PROVEEDORES: typeof valor === 'string' ? valor : JSON.stringify(valor) });
const error = (valor: unknown) => {
  try {
    loadConfig(con(valor));
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('OIDC_PROVEEDORES', () => {
  it('unset or empty is no provider', () => {
    expect(loadConfig({}).OIDC_PROVEEDORES).toEqual([]);
    expect(loadConfig(con('  ')).OIDC_PROVEEDORES).toEqual([]);
  });

  it('reads the providers, with their domains in lower case', () => {
    const microsoft = { ...google, id: 'microsoft', nombre: 'Microsoft', issuer: 'https://login.microsoftonline.com/0000-1111/v2.0' };
    const { OIDC_PROVEEDORES } = loadConfig(con([google, microsoft]));
    expect(OIDC_PROVEEDORES.map((p) => p.id)).toEqual(['google', 'microsoft']);
    expect(OIDC_PROVEEDORES[0]?.dominios).toEqual(['colegio.cl']);
  });

  it('a provider on this machine may be plain http; anywhere else it must be https', () => {
    expect(loadConfig(con([{ ...google, issuer: 'http://127.0.0.1:8080/realms/red' }])).OIDC_PROVEEDORES).toHaveLength(1);
    expect(error([{ ...google, issuer: 'http://accounts.google.com' }])).toMatch(/OIDC_PROVEEDORES\.0\.issuer: must be an https URL/);
  });

  it('refuses what is not JSON, not an array, a missing field, a bad id or domain, and repeated ids', () => {
    expect(error('[{"id": "google",')).toMatch(/OIDC_PROVEEDORES: must be a JSON array/);
    expect(error({ ...google })).toMatch(/OIDC_PROVEEDORES: must be a JSON array/);
    const { client_secret: _, ...sinSecreto } = google;
    expect(error([sinSecreto])).toMatch(/OIDC_PROVEEDORES\.0\.client_secret/);
    expect(error([{ ...google, id: 'Google Workspace' }])).toMatch(/OIDC_PROVEEDORES\.0\.id: must be lower-case letters/);
    expect(error([{ ...google, dominios: [] }])).toMatch(/OIDC_PROVEEDORES\.0\.dominios: must list at least one email domain/);
    expect(error([{ ...google, dominios: ['@colegio.cl'] }])).toMatch(/OIDC_PROVEEDORES\.0\.dominios\.0: must be a domain/);
    expect(error([google, google])).toMatch(/OIDC_PROVEEDORES: two providers have the same id/);
  });
});
