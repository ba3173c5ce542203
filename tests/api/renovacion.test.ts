/**
 * Renewing a session from its refresh token, one module for the renewal route, the API's cookie
 * reads and the page guard: the rotated cookies on success, cleared cookies for a dead token, and
 * the readable marker that lets the islands skip a renewal that cannot succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/server/api/errors.server.ts';
import { renovador } from '../../src/lib/server/auth/renovacion.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const minutes = (n: number) => {
  t.clock.now = new Date(t.clock.now.getTime() + n * 60_000);
};

/** The Set-Cookie headers of a response by cookie name. */
const setCookies = (res: Response) => new Map(res.headers.getSetCookie().map((c) => [c.slice(0, c.indexOf('=')), c]));
const expiresOf = (cookie: string | undefined) => /Expires=([^;]+)/.exec(cookie ?? '')?.[1];

describe('renovador', () => {
  it('rotates a live refresh token into a session and its three cookies', async () => {
    const user = await t.createUser();
    const { refresh } = await t.login(user.email);
    const renovada = await t.api.renovarSesion(refresh);
    expect(renovada.sesion?.usuario.id).toBe(user.id);
    expect(renovada.sesion?.refresh).not.toBe(refresh);
    const porNombre = new Map(renovada.cookies.map((c) => [c.name, c]));
    expect([...porNombre.keys()].sort()).toEqual(['ed_access', 'ed_refresh', 'ed_sesion']);
    expect(porNombre.get('ed_access')?.value).toBe(renovada.sesion?.access);
    expect(porNombre.get('ed_refresh')?.options.httpOnly).toBe(true);
    // The marker is readable by scripts, holds nothing secret and lives exactly as long as the refresh token.
    const marca = porNombre.get('ed_sesion');
    expect(marca?.value).toBe('1');
    expect(marca?.options.httpOnly).toBeUndefined();
    expect(marca?.options.path).toBe('/');
    expect(marca?.options.expires).toEqual(porNombre.get('ed_refresh')?.options.expires);
  });

  it('answers a refused token with the 401 and the cookies that clear the session, marker included', async () => {
    const user = await t.createUser();
    const { refresh } = await t.login(user.email);
    await t.call('POST', '/auth/logout/', { json: { refresh } });
    const renovada = await t.api.renovarSesion(refresh);
    expect(renovada.sesion).toBeNull();
    expect(renovada.sesion === null && renovada.error.status).toBe(401);
    expect(renovada.cookies.map((c) => [c.name, c.value, c.options.maxAge])).toEqual([
      ['ed_access', '', 0],
      ['ed_refresh', '', 0],
      ['ed_sesion', '', 0],
    ]);
  });

  it('lets a server failure through without clearing anything', async () => {
    const averiado = renovador({ renovar: () => Promise.reject(new Error('database down')) }, { secureCookies: true });
    await expect(averiado('cualquiera')).rejects.toThrow('database down');
    const rechazo = renovador({ renovar: () => Promise.reject(new ApiError(401, 'x')) }, { secureCookies: true });
    expect((await rechazo('cualquiera')).cookies.every((c) => c.options.secure)).toBe(true);
  });
});

describe('the marker cookie over HTTP', () => {
  it('is set by sign-in beside the refresh cookie, with its lifetime, and readable by scripts', async () => {
    const user = await t.createUser();
    const res = await t.call('POST', '/auth/login/', { json: { email: user.email, password: 'Clave1234' } });
    const cookies = setCookies(res);
    expect(cookies.get('ed_sesion')).toMatch(/^ed_sesion=1; /);
    expect(cookies.get('ed_sesion')).not.toMatch(/HttpOnly/i);
    expect(cookies.get('ed_sesion')).toMatch(/Path=\//);
    expect(expiresOf(cookies.get('ed_sesion'))).toBeDefined();
    expect(expiresOf(cookies.get('ed_sesion'))).toBe(expiresOf(cookies.get('ed_refresh')));
  });

  it('is renewed by POST /auth/renovar_token/ and cleared with the session when the token is refused', async () => {
    const user = await t.createUser();
    const { refresh } = await t.login(user.email);
    const renewed = await t.call('POST', '/auth/renovar_token/', { headers: { cookie: `ed_refresh=${refresh}` } });
    expect(renewed.status).toBe(200);
    expect(setCookies(renewed).get('ed_sesion')).toMatch(/^ed_sesion=1; /);

    minutes(1);
    const replay = await t.call('POST', '/auth/renovar_token/', { headers: { cookie: `ed_refresh=${refresh}` } });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ statusCode: 401, detail: 'Tu sesión expiró. Ingresa nuevamente.' });
    const cleared = setCookies(replay);
    for (const name of ['ed_access', 'ed_refresh', 'ed_sesion']) expect(cleared.get(name)).toMatch(new RegExp(`^${name}=;.*Max-Age=0`));
  });

  it('is cleared by sign-out', async () => {
    const user = await t.createUser();
    const { refresh } = await t.login(user.email);
    const out = await t.call('POST', '/auth/logout/', { json: { refresh } });
    expect(setCookies(out).get('ed_sesion')).toMatch(/^ed_sesion=;.*Max-Age=0/);
  });
});

describe('cookie reads with an expired access cookie', () => {
  it('renew from a live refresh cookie, with the rotated cookies on the response', async () => {
    const user = await t.createUser();
    const { access, refresh } = await t.login(user.email);
    minutes(16);
    const res = await t.call('GET', '/miniaturas/capsulas/999999/', { headers: { cookie: `ed_access=${access}; ed_refresh=${refresh}` } });
    // Past the guard: the thumbnail does not exist.
    expect(res.status).toBe(404);
    const cookies = setCookies(res);
    expect(cookies.get('ed_access')).toMatch(/^ed_access=[^;]+;.*Max-Age=900/);
    expect(cookies.get('ed_refresh')).not.toContain(`ed_refresh=${refresh};`);
    expect(cookies.get('ed_sesion')).toMatch(/^ed_sesion=1; /);
  });

  it('answer 401 and clear every session cookie for a dead refresh cookie', async () => {
    const user = await t.createUser();
    const { access, refresh } = await t.login(user.email);
    await t.call('POST', '/auth/logout/', { json: { refresh } });
    const res = await t.call('GET', '/miniaturas/capsulas/999999/', { headers: { cookie: `ed_access=${access}; ed_refresh=${refresh}` } });
    expect(res.status).toBe(401);
    const cookies = setCookies(res);
    for (const name of ['ed_access', 'ed_refresh', 'ed_sesion']) expect(cookies.get(name)).toMatch(new RegExp(`^${name}=;.*Max-Age=0`));
  });
});
