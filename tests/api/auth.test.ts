import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitesIntentos } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, PASSWORD, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const minutes = (n: number) => {
  t.clock.now = new Date(t.clock.now.getTime() + n * 60_000);
};

describe('POST /auth/login/', () => {
  it('signs in with the right password: statusCode 200, tokens, the user and both cookies', async () => {
    const user = await t.createUser({ email: 'maria.soto@example.cl' });
    const res = await t.call('POST', '/auth/login/', { json: { email: 'Maria.Soto@example.cl ', password: PASSWORD } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.statusCode).toBe(200);
    expect(body.access).toEqual(expect.any(String));
    expect(body.refresh).toEqual(expect.any(String));
    expect(body.usuario).toMatchObject({ id: user.id, email: 'maria.soto@example.cl', rol: 'Profesor', groups: [] });
    expect(body.usuario).not.toHaveProperty('password_hash');
    const cookies = res.headers.getSetCookie().join('\n');
    expect(cookies).toMatch(/ed_access=[^;]+;.*Max-Age=900/);
    expect(cookies).toMatch(/ed_refresh=[^;]+;.*HttpOnly/);
  });

  it('answers 401 "Usuario y/o contraseña incorrectos" for a wrong password or an unknown email', async () => {
    await t.createUser({ email: 'pedro@example.cl' });
    for (const json of [
      { email: 'pedro@example.cl', password: 'Incorrecta1' },
      { email: 'nadie@example.cl', password: PASSWORD },
    ]) {
      const res = await t.call('POST', '/auth/login/', { json });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ statusCode: 401, non_field_errors: ['Usuario y/o contraseña incorrectos'] });
    }
  });

  it('does not sign in an account that was never activated', async () => {
    await t.createUser({ email: 'pendiente@example.cl', activo: false });
    const res = await t.call('POST', '/auth/login/', { json: { email: 'pendiente@example.cl', password: PASSWORD } });
    expect(res.status).toBe(401);
  });

  it('takes JSON only: a form from another site cannot sign anyone in (login CSRF, issue 32)', async () => {
    await t.createUser({ email: 'csrf@example.cl' });
    const campos = new URLSearchParams({ email: 'csrf@example.cl', password: PASSWORD });
    const formularios: Record<string, string>[] = [
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://otro.example' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'text/plain', origin: 'https://otro.example' },
    ];
    for (const headers of formularios) {
      const res = await t.call('POST', '/auth/login/', { body: campos.toString(), headers });
      expect(res.status, headers['content-type']).toBe(415);
      expect(await res.json()).toEqual({ statusCode: 415, detail: 'Tipo de contenido no soportado; envía JSON' });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    const multipart = new FormData();
    multipart.set('email', 'csrf@example.cl');
    multipart.set('password', PASSWORD);
    const res = await t.call('POST', '/auth/login/', { body: multipart });
    expect(res.status).toBe(415);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('validates with the form messages', async () => {
    const empty = await t.call('POST', '/auth/login/', { json: {} });
    expect(empty.status).toBe(400);
    expect((await empty.json()).errors).toEqual({ email: ['Debe ingresar un correo'], password: ['Debe ingresar una contraseña'] });
    const bad = await t.call('POST', '/auth/login/', { json: { email: 'no-es-correo', password: 'x' } });
    expect((await bad.json()).errors).toEqual({ email: ['Debe ingresar un correo válido'] });
  });

  it('limits failed attempts per account and address pair with 429 and a Spanish message, and lets the person in after the window', async () => {
    await t.createUser({ email: 'limite@example.cl' });
    const intento = (password: string) => t.call('POST', '/auth/login/', { json: { email: 'limite@example.cl', password } });
    // Ten failures from one address (waiting out the account's growing delay between them).
    for (let i = 0; i < 10; i++) {
      expect((await intento('Mala12345')).status).toBe(401);
      t.clock.now = new Date(t.clock.now.getTime() + 61_000);
    }
    const blocked = await intento(PASSWORD);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).detail).toMatch(/^Demasiados intentos\. Espera \d+ minutos? antes de volver a intentarlo\.$/);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    minutes(16);
    expect((await intento(PASSWORD)).status).toBe(200);
  });

  it('limits failed attempts per address across accounts at a size for a school, except for addresses the account used before', async () => {
    minutes(30);
    const conocida = await t.createUser();
    await t.login(conocida.email);
    // 199 failures of a busy school morning, then one more: the address reaches its limit of 200.
    const escuela = { ventana_inicio: t.clock.now, intentos: 199 };
    await t.db
      .insert(limitesIntentos)
      .values({ clave: 'login:ip:203.0.113.7', ...escuela })
      .onConflictDoUpdate({ target: limitesIntentos.clave, set: escuela });
    expect((await t.call('POST', '/auth/login/', { json: { email: 'x@example.cl', password: 'Mala12345' } })).status).toBe(401);
    const res = await t.call('POST', '/auth/login/', { json: { email: 'otro@example.cl', password: 'Mala12345' } });
    expect(res.status).toBe(429);
    expect((await res.json()).detail).toMatch(/^Demasiados intentos\. Espera 15 minutos antes de volver a intentarlo\.$/);
    // A teacher who signed in from this address before is not locked out by the others' failures.
    expect((await t.call('POST', '/auth/login/', { json: { email: conocida.email, password: PASSWORD } })).status).toBe(200);
    minutes(16);
    expect((await t.call('POST', '/auth/login/', { json: { email: 'otro@example.cl', password: 'Mala12345' } })).status).toBe(401);
  });
});

describe('POST /auth/renovar_token/ and /auth/logout/', () => {
  it('rotates the refresh token; the old one replayed later revokes the whole family', async () => {
    const user = await t.createUser();
    const first = await t.login(user.email);
    const renewed = await t.call('POST', '/auth/renovar_token/', { json: { refresh: first.refresh } });
    expect(renewed.status).toBe(200);
    const second = await renewed.json();
    expect(second).toMatchObject({ statusCode: 200, usuario: { id: user.id } });
    expect(second.refresh).not.toBe(first.refresh);

    minutes(1);
    const replay = await t.call('POST', '/auth/renovar_token/', { json: { refresh: first.refresh } });
    expect(replay.status).toBe(401);
    expect((await replay.json()).statusCode).toBe(401);
    // The family is gone: the newest token no longer works either.
    expect((await t.call('POST', '/auth/renovar_token/', { json: { refresh: second.refresh } })).status).toBe(401);
  });

  it('treats two tabs renewing at the same moment as a race, not a replay', async () => {
    const user = await t.createUser();
    const { refresh } = await t.login(user.email);
    const [a, b] = await Promise.all([
      t.call('POST', '/auth/renovar_token/', { json: { refresh } }),
      t.call('POST', '/auth/renovar_token/', { json: { refresh } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
  });

  it('accepts the refresh token from the httpOnly cookie', async () => {
    const user = await t.createUser();
    const { refresh } = await t.login(user.email);
    const res = await t.call('POST', '/auth/renovar_token/', { headers: { cookie: `ed_refresh=${refresh}` } });
    expect(res.status).toBe(200);
  });

  it('never extends the absolute expiry of a session', async () => {
    const user = await t.createUser();
    let { refresh } = await t.login(user.email);
    for (let day = 0; day < 3; day++) {
      minutes(10 * 24 * 60);
      const res = await t.call('POST', '/auth/renovar_token/', { json: { refresh } });
      if (day < 2) {
        expect(res.status).toBe(200);
        refresh = (await res.json()).refresh;
      } else expect(res.status).toBe(401);
    }
  });

  it('logout revokes the session and clears the cookies', async () => {
    const user = await t.createUser();
    const { refresh } = await t.login(user.email);
    const out = await t.call('POST', '/auth/logout/', { json: { refresh } });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ statusCode: 200, detail: 'Sesión cerrada' });
    expect(out.headers.getSetCookie().join('\n')).toMatch(/ed_refresh=;.*Max-Age=0/);
    expect((await t.call('POST', '/auth/renovar_token/', { json: { refresh } })).status).toBe(401);
  });

  it('access tokens last about 15 minutes', async () => {
    const user = await t.createUser();
    const { access } = await t.login(user.email);
    expect((await t.call('GET', '/api/colegios/', { token: access })).status).toBe(200);
    minutes(14);
    expect((await t.call('GET', '/api/colegios/', { token: access })).status).toBe(200);
    minutes(2);
    const res = await t.call('GET', '/api/colegios/', { token: access });
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toBe('Debe iniciar sesión para continuar');
  });
});
