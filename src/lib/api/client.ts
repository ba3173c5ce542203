/**
 * The one HTTP client of the islands: openapi-fetch typed by the generated `schema.d.ts`.
 * It sends the access token (the `ed_access` cookie) as `Authorization: Bearer`, and renews the
 * session once when the token is gone or refused, so a teacher is not thrown out mid-work.
 * Callers branch on `{ data, error, response }`; a network failure throws.
 */
import Cookies from 'js-cookie';
import createClient, { type Middleware } from 'openapi-fetch';
import { ACCESS_COOKIE, SESSION_MARKER_COOKIE } from './cookies';
import type { components, paths } from './schema';

/** Sign-in, renewal, sign-out and the token-based account screens work without a session. */
const sinSesion = (schemaPath: string) =>
  /^\/(auth\/|api\/usuarios\/(activar-cuenta|recuperar-cuenta|cambiar-contrasena))/.test(schemaPath);

export const api = createClient<paths>({ credentials: 'same-origin' });

let renovacion: Promise<components['schemas']['SesionOk'] | undefined> | undefined;

/**
 * One renewal at a time, shared by every call that needs it and by the session store's check:
 * the new session, or undefined when there is none. The refresh cookie is httpOnly; its readable
 * marker tells whether there is one, and without it nothing is asked (a visitor who never
 * signed in would only get a 401).
 */
export function renovarSesion(): Promise<components['schemas']['SesionOk'] | undefined> {
  if (!Cookies.get(SESSION_MARKER_COOKIE)) return Promise.resolve(undefined);
  renovacion ??= api
    .POST('/auth/renovar_token/', {})
    .then(({ data }) => data)
    .catch(() => undefined)
    .finally(() => {
      renovacion = undefined;
    });
  return renovacion;
}

/** The access token to send, renewed first when it expired (for uploads sent outside fetch). */
export async function tokenVigente(): Promise<string | undefined> {
  // The cookie lives as long as the token: no cookie means the token expired.
  return Cookies.get(ACCESS_COOKIE) ?? (await renovarSesion())?.access;
}

const copias = new Map<string, Request>();

const sesion: Middleware = {
  async onRequest({ request, schemaPath, id }) {
    if (sinSesion(schemaPath)) return request;
    const token = await tokenVigente();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    copias.set(id, request.clone());
    return request;
  },
  async onResponse({ response, schemaPath, id }) {
    const copia = copias.get(id);
    copias.delete(id);
    if (response.status !== 401 || !copia || sinSesion(schemaPath)) return response;
    const token = (await renovarSesion())?.access;
    if (!token) return response;
    copia.headers.set('Authorization', `Bearer ${token}`);
    return fetch(copia);
  },
  onError({ id }) {
    copias.delete(id);
  },
};

api.use(sesion);
