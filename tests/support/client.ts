/**
 * Talking to a running server over HTTP with the client typed by openapi.yaml: the browser tests'
 * setup and the measuring scripts (`npm run budgets`, `npm run bench`) sign in and call the API
 * through these, so a change of the contract fails their types instead of their runs.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../src/lib/api/schema.d.ts';

export type ApiClient = ReturnType<typeof createClient<paths>>;

export function apiClient(baseUrl: string, access?: string): ApiClient {
  return createClient<paths>({ baseUrl, headers: access ? { authorization: `Bearer ${access}` } : {} });
}

export interface Session {
  access: string;
  /** `ed_access=…; ed_refresh=…`, the Cookie header of a signed-in browser. */
  cookie: string;
  usuarioId: number;
}

/** The `name=value` pairs of Set-Cookie headers, joined as one Cookie request header. */
export function cookieHeader(setCookies: string[]): string {
  return setCookies
    .map((c) => c.split(';')[0]?.trim() ?? '')
    .filter((pair) => pair.includes('=') && !pair.endsWith('='))
    .join('; ');
}

/** POST /auth/login/; throws with the server's answer when the sign-in fails. */
export async function signIn(baseUrl: string, credentials: { email: string; password: string }): Promise<Session> {
  const { data, error, response } = await apiClient(baseUrl).POST('/auth/login/', { body: credentials });
  if (!data) {
    throw new Error(`Sign-in as ${credentials.email} failed (HTTP ${response.status}): ${JSON.stringify(error)}`);
  }
  if ('segundo_factor' in data)
    throw new Error(`Sign-in as ${credentials.email} asks a second factor (issue 32): use POST /auth/segundo-factor/.`);
  const cookie = cookieHeader(response.headers.getSetCookie());
  if (!/(^|; )ed_access=/.test(cookie) || !/(^|; )ed_refresh=/.test(cookie)) {
    throw new Error(
      `Sign-in as ${credentials.email} answered 200 but did not set the ed_access and ed_refresh cookies (got: ${cookie || 'none'}).`,
    );
  }
  return { access: data.access, cookie, usuarioId: data.usuario.id };
}
