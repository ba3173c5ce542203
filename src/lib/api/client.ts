/**
 * The one HTTP client of the islands: openapi-fetch typed by the generated `schema.d.ts`.
 * It sends the access token (the `ed_access` cookie) as `Authorization: Bearer`, and renews the
 * session once when the token is gone or refused, so a teacher is not thrown out mid-work.
 * Callers branch on `{ data, error, response }`; a network failure throws.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The access token from the `ed_access` cookie. Read directly rather than with js-cookie: a JWT
 * needs no decoding, and js-cookie's 0.8 kB gzip would push the account pages over 90 kB.
 */
const tokenDeAcceso = () => /(?:^|;\s*)ed_access=([^;]+)/.exec(document.cookie)?.[1];

/** Sign-in, renewal, sign-out and the token-based account screens work without a session. */
const sinSesion = (schemaPath: string) =>
  /^\/(auth\/|api\/usuarios\/(activar-cuenta|recuperar-cuenta|cambiar-contrasena))/.test(schemaPath);

export const api = createClient<paths>({ credentials: 'same-origin' });

let renovacion: Promise<string | undefined> | undefined;

/** One renewal at a time, shared by every call that needs it. Resolves to the new access token. */
function renovarSesion(): Promise<string | undefined> {
  renovacion ??= api
    .POST('/auth/renovar_token/', {})
    .then(({ data }) => data?.access)
    .catch(() => undefined)
    .finally(() => {
      renovacion = undefined;
    });
  return renovacion;
}

/** The access token to send, renewed first when it expired (for uploads sent outside fetch). */
export async function tokenVigente(): Promise<string | undefined> {
  return tokenDeAcceso() ?? (await renovarSesion());
}

const copias = new Map<string, Request>();

const sesion: Middleware = {
  async onRequest({ request, schemaPath, id }) {
    if (sinSesion(schemaPath)) return request;
    // The cookie lives as long as the token: no cookie means the token expired.
    const token = await tokenVigente();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    copias.set(id, request.clone());
    return request;
  },
  async onResponse({ response, schemaPath, id }) {
    const copia = copias.get(id);
    copias.delete(id);
    if (response.status !== 401 || !copia || sinSesion(schemaPath)) return response;
    const token = await renovarSesion();
    if (!token) return response;
    copia.headers.set('Authorization', `Bearer ${token}`);
    return fetch(copia);
  },
  onError({ id }) {
    copias.delete(id);
  },
};

api.use(sesion);
