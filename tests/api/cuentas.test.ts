import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createTestApi, PASSWORD, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const days = (n: number) => {
  t.clock.now = new Date(t.clock.now.getTime() + n * 86_400_000);
};
const invite = (json: Record<string, unknown>, headers: Record<string, string> = { 'x-admin-key': ADMIN_KEY }) =>
  t.call('POST', '/api/admin/usuarios/', { json, headers });

describe('inviting a teacher and activating the account', () => {
  it('creates the account, mails an activation link, and the link sets the first password', async () => {
    const created = await invite({
      email: 'Lucia.Rojas@Example.cl',
      nombres: 'Lucía Andrea',
      apellidos: 'Rojas Muñoz',
      rut: '12.345.678-5',
      colegio: 'Escuela Nueva Esperanza',
    });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.usuario).toMatchObject({
      email: 'lucia.rojas@example.cl',
      primer_nombre: 'Lucía',
      segundo_nombre: 'Andrea',
      apellido_paterno: 'Rojas',
      apellido_materno: 'Muñoz',
      rut: '12345678-5',
      rol: 'Profesor',
      usuario_asociado: { colegio: [{ nombre: 'Escuela Nueva Esperanza' }] },
    });

    const link = t.lastLinkTo('lucia.rojas@example.cl');
    expect(link).toMatch(/^http:\/\/localhost:4321\/activar-cuenta\/[\w-]{43}$/);
    const mail = t.mails.at(-1);
    expect(mail?.subject).toBe('Activa tu cuenta en Entre Docentes');
    expect(mail?.html).toContain(link);
    expect(mail?.text).toContain(link);

    const token = t.tokenFrom(link);
    const check = await t.call('GET', `/api/usuarios/activar-cuenta/?token=${token}`);
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ email: 'lucia.rojas@example.cl' });

    const mismatch = await t.call('POST', '/api/usuarios/activar-cuenta/', {
      json: { token, password: 'Clave1234', password_confirmation: 'Clave12345', acepta_privacidad: true },
    });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).errors).toEqual({
      password: ['Contraseñas no coinciden'],
      password_confirmation: ['Contraseñas no coinciden'],
    });

    const weak = await t.call('POST', '/api/usuarios/activar-cuenta/', {
      json: { token, password: 'clave1234', password_confirmation: 'clave1234', acepta_privacidad: true },
    });
    expect((await weak.json()).errors.password).toEqual(['Contraseña debe incluir mayúsculas, minúsculas y numeros']);
    const short = await t.call('POST', '/api/usuarios/activar-cuenta/', {
      json: { token, password: 'Cl1', password_confirmation: 'Cl1', acepta_privacidad: true },
    });
    expect((await short.json()).errors.password).toEqual(['La contraseña debe tener entre 8 a 100 caracteres']);
    const empty = await t.call('POST', '/api/usuarios/activar-cuenta/', { json: { token } });
    expect((await empty.json()).errors).toEqual({
      password: ['Debe ingresar una contraseña'],
      password_confirmation: ['Debe ingresar una contraseña'],
      acepta_privacidad: ['Debes aceptar el aviso de privacidad para activar tu cuenta'],
    });

    const ok = await t.call('POST', '/api/usuarios/activar-cuenta/', {
      json: { token, password: 'Nueva#Clave9', password_confirmation: 'Nueva#Clave9', acepta_privacidad: true },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ detail: 'Cuenta activada exitosamente', email: 'lucia.rojas@example.cl' });
    expect((await t.login('lucia.rojas@example.cl', 'Nueva#Clave9')).usuario).toBeTruthy();

    // Single use.
    const again = await t.call('POST', '/api/usuarios/activar-cuenta/', {
      json: { token, password: 'Otra#Clave9', password_confirmation: 'Otra#Clave9', acepta_privacidad: true },
    });
    expect(again.status).toBe(404);
    expect((await again.json()).detail).toBe('Token inválido o expirado');
    expect((await t.call('GET', `/api/usuarios/activar-cuenta/?token=${token}`)).status).toBe(404);
  });

  it('activation links expire after 7 days', async () => {
    await invite({ email: 'tarde@example.cl', nombres: 'Tomás', apellidos: 'Lagos' });
    const token = t.tokenFrom(t.lastLinkTo('tarde@example.cl'));
    days(7.01);
    expect((await t.call('GET', `/api/usuarios/activar-cuenta/?token=${token}`)).status).toBe(404);
  });

  it('never duplicates an email: 409', async () => {
    await invite({ email: 'unica@example.cl', nombres: 'Uno', apellidos: 'Solo' });
    const dup = await invite({ email: 'UNICA@example.cl', nombres: 'Dos', apellidos: 'Otra' });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe('Ya existe una cuenta con ese correo');
  });

  it('validates the invitation', async () => {
    const res = await invite({ email: 'mal', nombres: '', apellidos: 'X', rut: '12.345.678-9' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({
      email: ['Debe ingresar un email válido'],
      nombres: ['Debe ingresar los nombres'],
      rut: ['Debe ingresar un RUT válido'],
    });
  });

  it('only admins (or the local admin key) may invite', async () => {
    const json = { email: 'x@example.cl', nombres: 'X', apellidos: 'Y' };
    expect((await invite(json, {})).status).toBe(401);
    expect((await invite(json, { 'x-admin-key': 'wrong' })).status).toBe(403);
    const teacher = await t.createUser();
    const { access } = await t.login(teacher.email);
    expect((await invite(json, { authorization: `Bearer ${access}` })).status).toBe(403);
    const admin = await t.createUser({ admin: true });
    const adminSession = await t.login(admin.email);
    const res = await invite({ ...json, admin: true }, { authorization: `Bearer ${adminSession.access}` });
    expect(res.status).toBe(201);
    expect((await res.json()).usuario).toMatchObject({ rol: 'Administrador', groups: ['admin'], usuario_asociado: null });
  });
});

describe('password reset', () => {
  it('answers the statuses of SPEC: 404 unknown, 403 not active, 400 invalid', async () => {
    const unknown = await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: 'fantasma@example.cl' } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).detail).toBe('Usuario no encontrado');
    await t.createUser({ email: 'inactivo@example.cl', activo: false });
    const inactive = await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: 'inactivo@example.cl' } });
    expect(inactive.status).toBe(403);
    expect((await inactive.json()).detail).toBe('Usuario no activo');
    const empty = await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: '' } });
    expect((await empty.json()).errors).toEqual({ email: ['Debe ingresar un email'] });
    const bad = await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: 'a@' } });
    expect((await bad.json()).errors).toEqual({ email: ['Debe ingresar un email válido'] });
  });

  it('mails a one-hour link that changes the password once and signs the user out everywhere', async () => {
    days(1);
    const user = await t.createUser({ email: 'olvido@example.cl' });
    const session = await t.login(user.email);
    const sent = await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: 'olvido@example.cl' } });
    expect(sent.status).toBe(200);
    const link = t.lastLinkTo('olvido@example.cl');
    expect(link).toMatch(/^http:\/\/localhost:4321\/cambiar-contrase%C3%B1a\/[\w-]{43}$/);
    const token = t.tokenFrom(link);

    const check = await t.call('GET', `/api/usuarios/cambiar-contrasena/${token}`);
    expect(await check.json()).toEqual({ email: 'olvido@example.cl' });
    expect((await t.call('GET', '/api/usuarios/cambiar-contrasena/no-existe')).status).toBe(404);

    const changed = await t.call('POST', '/api/usuarios/cambiar-contrasena/', {
      json: { token, password: 'Cambiada9', password_confirmation: 'Cambiada9' },
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ detail: 'Contraseña cambiada exitosamente!' });
    expect((await t.call('POST', '/auth/renovar_token/', { json: { refresh: session.refresh } })).status).toBe(401);
    expect((await t.call('GET', '/api/colegios/', { token: session.access })).status).toBe(401);
    expect((await t.call('POST', '/auth/login/', { json: { email: user.email, password: PASSWORD } })).status).toBe(401);
    await t.login(user.email, 'Cambiada9');

    const reused = await t.call('POST', '/api/usuarios/cambiar-contrasena/', {
      json: { token, password: 'Otra12345', password_confirmation: 'Otra12345' },
    });
    expect(reused.status).toBe(404);
  });

  it('reset links expire after one hour', async () => {
    days(1);
    const user = await t.createUser();
    await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: user.email } });
    const token = t.tokenFrom(t.lastLinkTo(user.email));
    t.clock.now = new Date(t.clock.now.getTime() + 61 * 60_000);
    expect((await t.call('GET', `/api/usuarios/cambiar-contrasena/${token}`)).status).toBe(404);
  });

  it('is rate limited per address, so it cannot list accounts quickly', async () => {
    days(1);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: `probe${i}@example.cl` } })).status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
  });
});
