/**
 * Sessions end when they should and sign-in throttling cannot be turned against a teacher
 * (decision 0023).
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, randomToken, signAccessToken } from '../../src/lib/server/auth/tokens.server.ts';
import { tokensCuenta, tokensRefresh, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { type SessionCookies, sessionFromCookies } from '../../src/lib/server/http/session.server.ts';
import { CACHE_SECONDS } from '../../src/lib/server/services/sesiones.server.ts';
import { createTestApi, PASSWORD, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const seconds = (n: number) => {
  t.clock.now = new Date(t.clock.now.getTime() + n * 1000);
};
/** Any signed-in read: 200 with a live session, 401 without. */
const leer = (token: string) => t.call('GET', '/api/colegios/', { token });
const refusedWithSpanish = async (res: Response) => {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ statusCode: 401, detail: 'Debe iniciar sesión para continuar' });
};

describe('access tokens end with their session', () => {
  it('are refused right after logout, while the same user’s other session goes on', async () => {
    const user = await t.createUser();
    const a = await t.login(user.email);
    const b = await t.login(user.email);
    expect((await leer(a.access)).status).toBe(200);
    expect((await t.call('POST', '/auth/logout/', { json: { refresh: a.refresh } })).status).toBe(200);
    await refusedWithSpanish(await leer(a.access));
    expect((await leer(b.access)).status).toBe(200);
  });

  it('are refused once a replayed refresh token revokes the family, including the renewed token', async () => {
    const user = await t.createUser();
    const first = await t.login(user.email);
    const renewed = await (await t.call('POST', '/auth/renovar_token/', { json: { refresh: first.refresh } })).json();
    expect((await leer(renewed.access)).status).toBe(200);
    seconds(60);
    expect((await t.call('POST', '/auth/renovar_token/', { json: { refresh: first.refresh } })).status).toBe(401);
    await refusedWithSpanish(await leer(first.access));
    await refusedWithSpanish(await leer(renewed.access));
  });

  it('are all refused after a password reset', async () => {
    const user = await t.createUser();
    const sessions = [await t.login(user.email), await t.login(user.email)];
    for (const s of sessions) expect((await leer(s.access)).status).toBe(200);
    // The link's token as the reset mail would carry it (mail delivery is tested in cuentas.test.ts).
    const token = randomToken();
    const expira = new Date(t.clock.now.getTime() + 3_600_000);
    await t.db.insert(tokensCuenta).values({ id_usuario: user.id, tipo: 'recuperacion', token_hash: hashToken(token), expira });
    const changed = await t.call('POST', '/api/usuarios/cambiar-contrasena/', {
      json: { token, password: 'Cambiada9', password_confirmation: 'Cambiada9' },
    });
    expect(changed.status).toBe(200);
    for (const s of sessions) await refusedWithSpanish(await leer(s.access));
    expect((await leer((await t.login(user.email, 'Cambiada9')).access)).status).toBe(200);
  });

  it('refuse a correctly signed token for a user that does not exist, or that was deleted', async () => {
    const keys = { secret: t.api.keys.secret, now: t.api.keys.now };
    await refusedWithSpanish(await leer(signAccessToken({ sub: 99_999_999, groups: ['admin'], sid: 'inventada' }, keys)));
    const user = await t.createUser();
    const { access } = await t.login(user.email);
    expect((await leer(access)).status).toBe(200);
    await t.db.delete(usuarios).where(eq(usuarios.id, user.id));
    seconds(CACHE_SECONDS + 1);
    await refusedWithSpanish(await leer(access));
  });

  it('refuse a deactivated user within the cache time, and a demoted admin loses admin rights', async () => {
    const user = await t.createUser();
    const { access } = await t.login(user.email);
    expect((await leer(access)).status).toBe(200);
    await t.db.update(usuarios).set({ activo: false }).where(eq(usuarios.id, user.id));
    seconds(CACHE_SECONDS + 1);
    await refusedWithSpanish(await leer(access));

    const admin = await t.createUser({ admin: true });
    const adminToken = (await t.login(admin.email)).access;
    const invitar = () =>
      t.call('POST', '/api/admin/usuarios/', {
        token: adminToken,
        json: { email: `nueva.${Date.now()}@example.cl`, nombres: 'Nueva', apellidos: 'Docente' },
      });
    expect((await invitar()).status).toBe(201);
    await t.db.update(usuarios).set({ groups: [], rol: 'Profesor' }).where(eq(usuarios.id, admin.id));
    seconds(CACHE_SECONDS + 1);
    expect((await invitar()).status).toBe(403);
  });

  it('see a revocation made by another process (straight in the database) within the cache time', async () => {
    const user = await t.createUser();
    const { access } = await t.login(user.email);
    expect((await leer(access)).status).toBe(200);
    await t.db.update(tokensRefresh).set({ revocado: t.clock.now }).where(eq(tokensRefresh.id_usuario, user.id));
    seconds(CACHE_SECONDS + 1);
    await refusedWithSpanish(await leer(access));
  });

  it('refuse a token without a session claim, as issued before this change', async () => {
    const user = await t.createUser();
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const exp = Math.floor(t.clock.now.getTime() / 1000) + 600;
    const payload = Buffer.from(JSON.stringify({ sub: String(user.id), groups: [], typ: 'access', exp })).toString('base64url');
    const signature = createHmac('sha256', t.api.keys.secret).update(`${header}.${payload}`).digest('base64url');
    await refusedWithSpanish(await leer(`${header}.${payload}.${signature}`));
  });

  it('the admin route refuses a signed-out admin', async () => {
    const admin = await t.createUser({ admin: true });
    const { access, refresh } = await t.login(admin.email);
    await t.call('POST', '/auth/logout/', { json: { refresh } });
    const res = await t.call('POST', '/api/admin/usuarios/', {
      token: access,
      json: { email: 'nadie.mas@example.cl', nombres: 'Nadie', apellidos: 'Más' },
    });
    await refusedWithSpanish(res);
  });

  it('cookie reads refuse the access cookie of a signed-out session and clear the cookies', async () => {
    const user = await t.createUser();
    const { access, refresh } = await t.login(user.email);
    const cookie = `ed_access=${access}; ed_refresh=${refresh}`;
    expect((await t.call('GET', '/miniaturas/capsulas/999999/', { headers: { cookie } })).status).toBe(404);
    await t.call('POST', '/auth/logout/', { json: { refresh } });
    const res = await t.call('GET', '/miniaturas/capsulas/999999/', { headers: { cookie } });
    await refusedWithSpanish(res);
    expect(res.headers.getSetCookie().join('\n')).toMatch(/ed_refresh=;.*Max-Age=0/);
  });
});

describe('page sessions', () => {
  /** A cookie jar as Astro's: what the request brought and what the response sets. */
  function jar(initial: Record<string, string>) {
    const values = new Map(Object.entries(initial));
    const set = new Map<string, string>();
    const cookies: SessionCookies = {
      get: (name) => (values.has(name) ? { value: values.get(name) ?? '' } : undefined),
      set: (name, value) => {
        values.set(name, value);
        set.set(name, value);
      },
    };
    return { cookies, set };
  }
  const resolver = (cookies: SessionCookies) => sessionFromCookies({ api: t.api }, cookies);

  it('use a live access token without touching the cookies', async () => {
    const user = await t.createUser();
    const { access, refresh } = await t.login(user.email);
    const { cookies, set } = jar({ ed_access: access, ed_refresh: refresh });
    expect((await resolver(cookies))?.id).toBe(user.id);
    expect(set.size).toBe(0);
  });

  it('renew from the refresh cookie when the access token expired or carries no session', async () => {
    const user = await t.createUser();
    const { access, refresh } = await t.login(user.email);
    seconds(16 * 60);
    const { cookies, set } = jar({ ed_access: access, ed_refresh: refresh });
    expect((await resolver(cookies))?.id).toBe(user.id);
    expect(set.get('ed_access')).toEqual(expect.any(String));
    expect(set.get('ed_refresh')).not.toBe(refresh);
    // The renewed access token is live.
    expect((await leer(set.get('ed_access') ?? '')).status).toBe(200);
  });

  it('end with cleared cookies once the session was signed out elsewhere', async () => {
    const user = await t.createUser();
    const { access, refresh } = await t.login(user.email);
    await t.call('POST', '/auth/logout/', { json: { refresh } });
    const { cookies, set } = jar({ ed_access: access, ed_refresh: refresh });
    expect(await resolver(cookies)).toBeNull();
    expect(set.get('ed_access')).toBe('');
    expect(set.get('ed_refresh')).toBe('');
  });

  it('fall back to the refresh cookie of a live session when the access cookie belongs to an ended one', async () => {
    const user = await t.createUser();
    const old = await t.login(user.email);
    await t.call('POST', '/auth/logout/', { json: { refresh: old.refresh } });
    const live = await t.login(user.email);
    const { cookies, set } = jar({ ed_access: old.access, ed_refresh: live.refresh });
    expect((await resolver(cookies))?.id).toBe(user.id);
    expect((await leer(set.get('ed_access') ?? '')).status).toBe(200);
  });
});

describe('sign-in throttling', () => {
  const A = '198.51.100.10';
  const B = '198.51.100.20';
  const intento = (email: string, password: string, clientAddress: string) =>
    t.call('POST', '/auth/login/', { json: { email, password }, clientAddress });

  it('an attacker’s failures from one address do not stop the owner at an address used before', async () => {
    seconds(3600);
    const owner = await t.createUser();
    expect((await intento(owner.email, PASSWORD, B)).status).toBe(200);
    // Ten counted failures (each after waiting out the account's delay), then the pair is refused.
    for (let i = 0; i < 10; i++) {
      expect((await intento(owner.email, 'Adivina123', A)).status).toBe(401);
      seconds(61);
    }
    for (let i = 0; i < 5; i++) expect((await intento(owner.email, 'Adivina123', A)).status).toBe(429);
    const blocked = await intento(owner.email, PASSWORD, A);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).detail).toMatch(/^Demasiados intentos\. Espera \d+ minutos antes de volver a intentarlo\.$/);
    expect((await intento(owner.email, PASSWORD, B)).status).toBe(200);
  });

  it('slows a suspicious account with a growing delay from new addresses, never a long refusal', async () => {
    seconds(3600);
    const owner = await t.createUser();
    const address = (i: number) => `192.0.2.${i}`;
    for (let i = 0; i < 5; i++) expect((await intento(owner.email, 'Adivina123', address(i))).status).toBe(401);
    const waits: number[] = [];
    for (let i = 5; i < 10; i++) {
      const early = await intento(owner.email, 'Adivina123', address(i));
      expect(early.status).toBe(429);
      const wait = Number(early.headers.get('retry-after'));
      expect((await early.json()).detail).toBe(`Demasiados intentos. Espera ${wait} segundos antes de volver a intentarlo.`);
      waits.push(wait);
      seconds(wait);
      expect((await intento(owner.email, 'Adivina123', address(i))).status).toBe(401);
    }
    expect(waits).toEqual([2, 4, 8, 16, 32]);
    const capped = await intento(owner.email, PASSWORD, address(50));
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get('retry-after'))).toBe(60);
    seconds(60);
    // The right password from a new address gets in once the delay is over.
    expect((await intento(owner.email, PASSWORD, address(50))).status).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  const recuperar = (xff: string, trustProxy: number) =>
    t.call('POST', '/api/usuarios/recuperar-cuenta/', {
      json: { email: 'sin.cuenta@example.cl' },
      headers: { 'x-forwarded-for': xff },
      clientAddress: '10.0.0.2',
      trustProxy,
    });

  it('off: X-Forwarded-For is ignored, every request counts for the socket address', async () => {
    seconds(3600);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await recuperar(`198.51.100.${100 + i}`, 0)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
  });

  it('on: the right-most entry is the client; entries the client wrote further left change nothing', async () => {
    seconds(3600);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await recuperar(`10.9.9.${i}, 198.51.100.77`, 1)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    expect((await recuperar('198.51.100.78', 1)).status).toBe(404);
    // Two proxies: the entry two places from the right.
    expect((await recuperar('198.51.100.77, 10.0.0.1', 2)).status).toBe(429);
    expect((await recuperar('198.51.100.79, 10.0.0.1', 2)).status).toBe(404);
  });
});
