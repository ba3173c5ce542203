/**
 * Two-factor sign-in (issue 32): enrolment, the sign-in's challenge, recovery codes, remembered
 * devices, throttling, removal, the admins' reset, and the rule that sends admins to enrol. TOTP
 * codes are computed here from the secret the server answered, with the same library.
 */
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registroAdmin } from '../../src/lib/server/db/schema.server.ts';
import { recolectar } from '../../src/lib/server/services/mis-datos/recoleccion.server.ts';
import { createSegundoFactorService, debeInscribirSegundoFactor } from '../../src/lib/server/services/segundo-factor.server.ts';
import { ADMIN_KEY, createTestApi, PASSWORD, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const seconds = (n: number) => {
  t.clock.now = new Date(t.clock.now.getTime() + n * 1000);
};
/** The code of the secret at the test clock, `pasos` steps of 30 s away. */
const codigo = (secreto: string, pasos = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secreto), timestamp: t.clock.now.getTime() + pasos * 30_000 });

/** An account with a confirmed second factor: its secret, recovery codes and a session token. */
async function conSegundoFactor(options: { admin?: boolean } = {}) {
  const s = await t.session(options);
  const inicio = await (await t.call('POST', `/api/usuarios/${s.id}/totp/`, { token: s.token })).json();
  const confirmado = await t.call('POST', `/api/usuarios/${s.id}/totp/confirmar/`, {
    token: s.token,
    json: { codigo: codigo(inicio.secreto) },
  });
  expect(confirmado.status).toBe(200);
  const { codigos_recuperacion } = await confirmado.json();
  // The next code must come from a later step: the confirmation spent this one.
  seconds(30);
  return { ...s, secreto: inicio.secreto as string, recuperacion: codigos_recuperacion as string[] };
}

const ingresar = (email: string, headers: Record<string, string> = {}) =>
  t.call('POST', '/auth/login/', { json: { email, password: PASSWORD }, headers });
async function desafioDe(email: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await ingresar(email, headers);
  const body = await res.json();
  expect(body.segundo_factor).toBe(true);
  return body.desafio;
}
const segundoPaso = (json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.call('POST', '/auth/segundo-factor/', { json, headers });
const auditoria = (idUsuario: number, accion: string) =>
  t.db
    .select()
    .from(registroAdmin)
    .where(and(eq(registroAdmin.id_registro, idUsuario), eq(registroAdmin.accion, accion)));

describe('enrolment', () => {
  it('answers a secret, its otpauth URL and a QR code drawn as SVG, and needs a first code to take effect', async () => {
    const s = await t.session();
    const res = await t.call('POST', `/api/usuarios/${s.id}/totp/`, { token: s.token });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.secreto).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_url).toContain(`secret=${body.secreto}`);
    expect(body.otpauth_url).toContain('issuer=Entre%20Docentes');
    expect(body.qr_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Not confirmed yet: the password alone still signs in.
    expect((await (await ingresar(s.email)).json()).access).toBeTruthy();
    const mal = await t.call('POST', `/api/usuarios/${s.id}/totp/confirmar/`, { token: s.token, json: { codigo: '000000' } });
    expect(mal.status).toBe(400);
    expect((await mal.json()).errors.codigo).toEqual(['El código no es válido o ya fue usado.']);
    const ok = await t.call('POST', `/api/usuarios/${s.id}/totp/confirmar/`, { token: s.token, json: { codigo: codigo(body.secreto) } });
    expect(ok.status).toBe(200);
    const { codigos_recuperacion } = await ok.json();
    expect(codigos_recuperacion).toHaveLength(10);
    expect(new Set(codigos_recuperacion).size).toBe(10);
    expect(await (await t.call('GET', `/api/usuarios/${s.id}/totp/`, { token: s.token })).json()).toEqual({
      activo: true,
      codigos_restantes: 10,
    });
    expect(await auditoria(s.id, 'activar_segundo_factor')).toHaveLength(1);
    expect(await auditoria(s.id, 'codigo_segundo_factor_fallido')).toHaveLength(1);
    // Once active, starting over is refused until it is removed.
    expect((await t.call('POST', `/api/usuarios/${s.id}/totp/`, { token: s.token })).status).toBe(409);
    expect((await t.call('POST', `/api/usuarios/${s.id}/totp/confirmar/`, { token: s.token, json: { codigo: '123456' } })).status).toBe(
      404,
    );
  });

  it('is the person’s alone: another account, an admin included, gets 403; no session gets 401', async () => {
    const s = await t.session();
    const otra = await t.session();
    const admin = await t.session({ admin: true });
    for (const token of [otra.token, admin.token]) {
      expect((await t.call('POST', `/api/usuarios/${s.id}/totp/`, { token })).status).toBe(403);
      expect((await t.call('GET', `/api/usuarios/${s.id}/totp/`, { token })).status).toBe(403);
      expect((await t.call('POST', `/api/usuarios/${s.id}/totp/confirmar/`, { token, json: { codigo: '123456' } })).status).toBe(403);
      expect((await t.call('DELETE', `/api/usuarios/${s.id}/totp/`, { token, json: { codigo: '123456' } })).status).toBe(403);
    }
    expect((await t.call('POST', `/api/usuarios/${s.id}/totp/`)).status).toBe(401);
  });

  it('takes JSON only for the codes (415 for a form)', async () => {
    const s = await t.session();
    const form = { body: 'codigo=123456', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expect((await t.call('POST', `/api/usuarios/${s.id}/totp/confirmar/`, { token: s.token, ...form })).status).toBe(415);
    expect((await t.call('POST', '/auth/segundo-factor/', form)).status).toBe(415);
  });
});

describe('signing in with a second factor', () => {
  it('answers a challenge without tokens or cookies, then a session for a right code', async () => {
    const u = await conSegundoFactor();
    const res = await ingresar(u.email);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    const body = await res.json();
    expect(body).toEqual({ statusCode: 200, segundo_factor: true, desafio: expect.any(String), expira: expect.any(String) });
    const ok = await segundoPaso({ desafio: body.desafio, codigo: codigo(u.secreto) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).usuario.id).toBe(u.id);
    expect(ok.headers.getSetCookie().join('\n')).toMatch(/ed_access=.+[\s\S]*ed_refresh=.+HttpOnly/);
    // The challenge is spent.
    seconds(30);
    const otra = await segundoPaso({ desafio: body.desafio, codigo: codigo(u.secreto) });
    expect(otra.status).toBe(401);
    expect((await otra.json()).errors.desafio).toEqual(['El ingreso expiró. Vuelve a ingresar tu correo y contraseña.']);
  });

  it('refuses a wrong code and a replayed one, keeping the challenge; accepts one step either side', async () => {
    const u = await conSegundoFactor();
    const desafio = await desafioDe(u.email);
    const mal = await segundoPaso({ desafio, codigo: codigo(u.secreto, 3) });
    expect(mal.status).toBe(401);
    expect((await mal.json()).errors.codigo[0]).toMatch(/^El código no es válido o ya fue usado/);
    // The previous step's code (a phone 30 s late) still works, once (the confirmation spent the one before).
    seconds(30);
    const anterior = codigo(u.secreto, -1);
    expect((await segundoPaso({ desafio, codigo: anterior })).status).toBe(200);
    const otro = await desafioDe(u.email);
    expect((await segundoPaso({ desafio: otro, codigo: anterior })).status).toBe(401);
    // The current step's code is later than the one used: accepted; then replayed: refused.
    const actual = codigo(u.secreto);
    expect((await segundoPaso({ desafio: otro, codigo: actual })).status).toBe(200);
    const tercero = await desafioDe(u.email);
    expect((await segundoPaso({ desafio: tercero, codigo: actual })).status).toBe(401);
    expect((await auditoria(u.id, 'codigo_segundo_factor_fallido')).length).toBe(3);
  });

  it('lets a challenge live five minutes', async () => {
    const u = await conSegundoFactor();
    const desafio = await desafioDe(u.email);
    seconds(5 * 60 + 1);
    const res = await segundoPaso({ desafio, codigo: codigo(u.secreto) });
    expect(res.status).toBe(401);
    expect((await res.json()).errors.desafio).toBeDefined();
    expect((await segundoPaso({ desafio: 'no-es-un-desafio', codigo: '123456' })).status).toBe(401);
    expect((await segundoPaso({ desafio: '', codigo: '' })).status).toBe(400);
  });

  it('takes each recovery code once, and logs its use', async () => {
    const u = await conSegundoFactor();
    const [primero] = u.recuperacion;
    if (!primero) throw new Error('no recovery code');
    // Typed in capitals and without the dash, as people do.
    const ok = await segundoPaso({ desafio: await desafioDe(u.email), codigo: primero.replace('-', '').toUpperCase() });
    expect(ok.status).toBe(200);
    expect((await segundoPaso({ desafio: await desafioDe(u.email), codigo: primero })).status).toBe(401);
    expect(await auditoria(u.id, 'usar_codigo_recuperacion')).toHaveLength(1);
    expect(await t.api.services.segundoFactor.estado({ id: u.id }, u.id)).toEqual({ activo: true, codigos_restantes: 9 });
  });

  it('throttles wrong codes per account: the 11th try in 15 minutes is a 429, even with the right code', async () => {
    const u = await conSegundoFactor();
    const desafio = await desafioDe(u.email);
    for (let i = 0; i < 10; i++) expect((await segundoPaso({ desafio, codigo: '000000' })).status).toBe(401);
    const bloqueado = await segundoPaso({ desafio, codigo: codigo(u.secreto) });
    expect(bloqueado.status).toBe(429);
    expect(Number(bloqueado.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await bloqueado.json()).detail).toMatch(/^Demasiados intentos\. Espera \d+ minutos?/);
    seconds(15 * 60);
    expect((await segundoPaso({ desafio: await desafioDe(u.email), codigo: codigo(u.secreto) })).status).toBe(200);
  });

  it('remembers a device for 30 days when asked, for that account only', async () => {
    const u = await conSegundoFactor();
    const res = await segundoPaso({ desafio: await desafioDe(u.email), codigo: codigo(u.secreto), recordar: true });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('ed_equipo='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\/auth\//);
    const equipo = { cookie: (cookie ?? '').split(';')[0] ?? '' };
    const directo = await ingresar(u.email, equipo);
    expect((await directo.json()).access).toBeTruthy();
    // Another account on the same browser still gets its challenge.
    const otra = await conSegundoFactor();
    expect((await (await ingresar(otra.email, equipo)).json()).segundo_factor).toBe(true);
    seconds(30 * 24 * 60 * 60 + 1);
    expect((await (await ingresar(u.email, equipo)).json()).segundo_factor).toBe(true);
  });
});

describe('Mis datos', () => {
  it('lists that a second factor exists, never its secret nor the recovery codes', async () => {
    const u = await conSegundoFactor();
    const categoria = (await recolectar(t.db, u.id)).find((c) => c.clave === 'segundo_factor');
    expect(categoria?.lineas).toEqual([
      expect.stringMatching(/^Activada el .+; 10 códigos de recuperación sin usar; 0 equipos recordados$/),
    ]);
    const copia = JSON.stringify(categoria);
    expect(copia).not.toContain(u.secreto);
    for (const c of u.recuperacion) expect(copia).not.toContain(c);
    const sin = await t.session();
    expect((await recolectar(t.db, sin.id)).find((c) => c.clave === 'segundo_factor')?.cantidad).toBe(0);
  });
});

describe('removing and resetting', () => {
  it('removes the factor with a code, which forgets remembered devices; a wrong code does not', async () => {
    const u = await conSegundoFactor();
    const res = await segundoPaso({ desafio: await desafioDe(u.email), codigo: codigo(u.secreto), recordar: true });
    const equipo = (res.headers.getSetCookie().find((c) => c.startsWith('ed_equipo=')) ?? '').split(';')[0] ?? '';
    const { access } = await res.json();
    expect((await t.call('DELETE', `/api/usuarios/${u.id}/totp/`, { token: access, json: { codigo: '999999' } })).status).toBe(400);
    expect((await t.call('DELETE', `/api/usuarios/${u.id}/totp/`, { token: access, json: {} })).status).toBe(400);
    seconds(30);
    const quitado = await t.call('DELETE', `/api/usuarios/${u.id}/totp/`, { token: access, json: { codigo: codigo(u.secreto) } });
    expect(quitado.status).toBe(200);
    expect(await auditoria(u.id, 'quitar_segundo_factor')).toHaveLength(1);
    expect((await (await ingresar(u.email)).json()).access).toBeTruthy();
    expect((await t.call('DELETE', `/api/usuarios/${u.id}/totp/`, { token: access, json: { codigo: '123456' } })).status).toBe(404);
    // Enrolled again: the old device's cookie no longer skips the challenge.
    const inicio = await (await t.call('POST', `/api/usuarios/${u.id}/totp/`, { token: access })).json();
    seconds(30);
    await t.call('POST', `/api/usuarios/${u.id}/totp/confirmar/`, { token: access, json: { codigo: codigo(inicio.secreto) } });
    expect((await (await ingresar(u.email, { cookie: equipo })).json()).segundo_factor).toBe(true);
  });

  it('removes it with a recovery code too', async () => {
    const u = await conSegundoFactor();
    const codigoRecuperacion = u.recuperacion[3] ?? '';
    expect((await t.call('DELETE', `/api/usuarios/${u.id}/totp/`, { token: u.token, json: { codigo: codigoRecuperacion } })).status).toBe(
      200,
    );
    expect(await (await t.call('GET', `/api/usuarios/${u.id}/totp/`, { token: u.token })).json()).toEqual({
      activo: false,
      codigos_restantes: 0,
    });
  });

  it('lets an admin reset another person’s factor, logged with the admin’s name, and nobody else', async () => {
    const u = await conSegundoFactor();
    const res = await segundoPaso({ desafio: await desafioDe(u.email), codigo: codigo(u.secreto), recordar: true });
    const equipo = (res.headers.getSetCookie().find((c) => c.startsWith('ed_equipo=')) ?? '').split(';')[0] ?? '';
    const docente = await t.session();
    expect((await t.call('DELETE', `/api/admin/usuarios/${u.id}/totp/`, { token: docente.token })).status).toBe(403);
    const admin = await t.session({ admin: true });
    const ok = await t.call('DELETE', `/api/admin/usuarios/${u.id}/totp/`, { token: admin.token });
    expect(ok.status).toBe(200);
    const [registro] = await auditoria(u.id, 'reiniciar_segundo_factor');
    expect(registro?.id_admin).toBe(admin.id);
    expect(registro?.admin_email).toBe(admin.email);
    expect((await t.call('DELETE', `/api/admin/usuarios/${u.id}/totp/`, { token: admin.token })).status).toBe(404);
    expect((await t.call('DELETE', `/api/admin/usuarios/${u.id}/totp/`, { headers: { 'x-admin-key': ADMIN_KEY } })).status).toBe(404);
    // The password alone signs in again, and the remembered device is gone with the factor.
    expect((await (await ingresar(u.email, { cookie: equipo })).json()).access).toBeTruthy();
    const quedan = await t.api.services.segundoFactor.estado({ id: u.id }, u.id);
    expect(quedan).toEqual({ activo: false, codigos_restantes: 0 });
  });
});

describe('TOTP_ADMIN_OBLIGATORIO', () => {
  const servicio = (adminObligatorio: boolean) =>
    createSegundoFactorService({ db: t.db, now: () => t.clock.now }, { abrirSesion: t.api.services.cuentas.abrirSesion, adminObligatorio });
  const origen = { direccion: '203.0.113.9', via: 'password' };

  it('flags an admin without a second factor for enrolment when on (the default), and nobody when off', async () => {
    const admin = await t.createUser({ admin: true });
    const docente = await t.createUser();
    const on = await servicio(true).trasVerificarIdentidad(admin, origen);
    expect(on.segundo_factor === false && on.inscribir).toBe(true);
    const docenteOn = await servicio(true).trasVerificarIdentidad(docente, origen);
    expect(docenteOn.segundo_factor === false && docenteOn.inscribir).toBe(false);
    const off = await servicio(false).trasVerificarIdentidad(admin, origen);
    expect(off.segundo_factor === false && off.inscribir).toBe(false);
    expect(debeInscribirSegundoFactor({ groups: ['admin'], segundo_factor: false }, true)).toBe(true);
    expect(debeInscribirSegundoFactor({ groups: ['admin'], segundo_factor: true }, true)).toBe(false);
    expect(debeInscribirSegundoFactor({ groups: [], segundo_factor: false }, true)).toBe(false);
    expect(debeInscribirSegundoFactor({ groups: ['admin'], segundo_factor: false }, false)).toBe(false);
  });

  it('gives an enrolled admin a challenge like anyone else', async () => {
    const admin = await conSegundoFactor({ admin: true });
    const row = await t.findUser(admin.email);
    if (!row) throw new Error('no admin');
    expect((await servicio(true).trasVerificarIdentidad(row, origen)).segundo_factor).toBe(true);
  });
});
