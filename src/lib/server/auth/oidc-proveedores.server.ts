/**
 * OIDC_PROVEEDORES (issue 32, decision 0063): the OpenID Connect providers a teacher may sign in
 * with, as a JSON array of `{ id, nombre, issuer, client_id, client_secret, dominios }`. Checked
 * once at start-up (config.server.ts): a wrong value stops the process with a message naming the
 * provider and field, never a failure at the first sign-in.
 */
import { z } from 'zod';

/** Hosts where an issuer may be plain http: a provider on this machine (the tests, a local Keycloak). */
const LOCAL = new Set(['localhost', '127.0.0.1', '[::1]']);

export function issuerLocal(issuer: string): boolean {
  return LOCAL.has(new URL(issuer).hostname);
}

/** A provider's id, in its URLs (/auth/oidc/{id}/) and in the forms and routes that name one. */
export const ID_PROVEEDOR = /^[a-z0-9][a-z0-9-]{0,30}$/;

const dominio = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain such as colegio.cl (no @, no scheme)');

export const proveedorOidcSchema = z.object({
  /** In the URLs: /auth/oidc/{id}/ and its callback. */
  id: z.string().regex(ID_PROVEEDOR, 'must be lower-case letters, digits and dashes (at most 31), e.g. google'),
  /** The button's label: 'Ingresar con {nombre}'. */
  nombre: z.string().trim().min(1).max(40),
  issuer: z
    .url()
    .refine(
      (v) => v.startsWith('https://') || (v.startsWith('http://') && issuerLocal(v)),
      'must be an https URL (http only on localhost)',
    ),
  client_id: z.string().trim().min(1).max(500),
  client_secret: z.string().min(1).max(500),
  /** The email domains whose verified addresses may sign in through this provider. */
  dominios: z.array(dominio).min(1, 'must list at least one email domain'),
});

export type ProveedorOidc = z.infer<typeof proveedorOidcSchema>;

/** The variable's value: unset or '' is no provider; otherwise a JSON array of distinct providers. */
export const proveedoresOidcSchema = z
  .string()
  .trim()
  .default('')
  .transform((texto, ctx): unknown => {
    if (texto === '') return [];
    try {
      return JSON.parse(texto);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of { id, nombre, issuer, client_id, client_secret, dominios }' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(proveedorOidcSchema, { error: 'must be a JSON array of { id, nombre, issuer, client_id, client_secret, dominios }' })
      .refine((lista) => new Set(lista.map((p) => p.id)).size === lista.length, 'two providers have the same id'),
  );
