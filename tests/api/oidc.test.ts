/**
 * Sign-in with a school account (issue 32, decision 0063), against a real OpenID Connect provider
 * on this machine (oidc-provider): who gets in (an invited teacher, a linked subject, automatic
 * accounts), every refusal ending on the sign-in screen without a session (wrong or missing
 * state, a replayed callback, an expired flow, an unverified email, a wrong domain, an unknown or
 * deactivated account, a provider that does not answer), linking and unlinking (never the last
 * way in), and the audit log.
 */
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MENSAJES_OIDC } from '../../src/lib/ingreso-externo.ts';
import { identidades, registroAdmin, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { INGRESO_REQUERIDO } from '../../src/lib/server/services/baja.server.ts';
import { CONFIG_PRUEBA, createTestApi, PASSWORD, type TestApi } from '../support/api.ts';
import { ingresarEnProveedor, iniciarProveedor, type ProveedorPrueba, Tarro } from '../support/oidc.ts';

const DOMINIO = 'colegio.cl';
let t: TestApi;
let idp: ProveedorPrueba;

beforeAll(async () => {
  idp = await iniciarProveedor([`${CONFIG_PRUEBA.PUBLIC_URL}/auth/oidc/prueba/callback`]);
  t = await createTestApi({
    oidc: [
      idp.config({ dominios: [DOMINIO], publicUrl: CONFIG_PRUEBA.PUBLIC_URL }),
      // A provider whose issuer does not answer: a closed port on this machine.
      { id: 'caido', nombre: 'Caído', issuer: 'http://127.0.0.1:9/', client_id: 'x', client_secret: 'y', dominios: [DOMINIO] },
    ],
  });
}, 30_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** GET a path of ours with the browser's cookies; the answer is a redirect we read, not follow. */
async function visitar(ruta: string, tarro: Tarro): Promise<Response> {
  const r = await t.call('GET', ruta, { headers: { cookie: tarro.cabecera() }, unchecked: false });
  tarro.guardar(r);
  return r;
}

/** Starts at /auth/oidc/prueba/, signs in at the provider as `login`, and returns the callback's URL (not yet visited). */
async function hastaElRetorno(login: string, tarro = new Tarro(), consulta = '') {
  const inicio = await visitar(`/auth/oidc/prueba/${consulta}`, tarro);
  expect(inicio.status).toBe(303);
  const autorizacion = inicio.headers.get('location') ?? '';
  expect(autorizacion.startsWith(idp.issuer)).toBe(true);
  const url = new URL(autorizacion);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('state')).toBeTruthy();
  expect(url.searchParams.get('nonce')).toBeTruthy();
  expect(tarro.valor('ed_oidc')).toBeTruthy();
  const retorno = await ingresarEnProveedor(autorizacion, login);
  expect(retorno.pathname).toBe('/auth/oidc/prueba/callback');
  return { retorno, tarro };
}

/** The whole flow; the callback's answer. */
async function ingresarComo(login: string, consulta = '') {
  const { retorno, tarro } = await hastaElRetorno(login, new Tarro(), consulta);
  const fin = await visitar(`${retorno.pathname}${retorno.search}`, tarro);
  return { fin, tarro, retorno };
}

function rechazoEs(r: Response, codigo: keyof typeof MENSAJES_OIDC) {
  expect(r.status).toBe(303);
  const destino = new URL(r.headers.get('location') ?? '', 'http://x');
  expect(destino.pathname).toMatch(/^\/(ingresar|perfil\/cuentas-vinculadas)/);
  expect(destino.searchParams.get('error_oidc')).toBe(codigo);
  expect(r.headers.getSetCookie().some((c) => c.startsWith('ed_access=') && !c.startsWith('ed_access=;'))).toBe(false);
}

const acciones = async (email: string) =>
  (await t.db.select().from(registroAdmin).where(eq(registroAdmin.admin_email, email))).map((f) => f.accion);

describe('who gets in', () => {
  it('an invited teacher of an allowed domain signs in, becomes active and lands on siguiente with a session', async () => {
    const invitada = await t.createUser({ email: `invitada@${DOMINIO}`, activo: false });
    expect(invitada.activo).toBe(false);
    const { fin, tarro } = await ingresarComo(invitada.email, '?siguiente=/capsulas/');
    expect(fin.status).toBe(303);
    expect(fin.headers.get('location')).toBe('/capsulas/');
    expect(tarro.valor('ed_refresh')).toBeTruthy();
    expect(tarro.valor('ed_sesion')).toBe('1');
    // The flow's cookie is spent with the callback.
    expect(tarro.valor('ed_oidc')).toBeUndefined();
    const access = tarro.valor('ed_access') ?? '';
    const lista = await t.call('GET', `/api/usuarios/${invitada.id}/identidades/`, { token: access });
    expect(lista.status).toBe(200);
    const cuerpo = await lista.json();
    expect(cuerpo.identidades).toMatchObject([{ proveedor: 'prueba', nombre: 'Prueba', email: invitada.email }]);
    expect(cuerpo.proveedores).toEqual([
      { id: 'prueba', nombre: 'Prueba' },
      { id: 'caido', nombre: 'Caído' },
    ]);
    expect((await t.findUser(invitada.email))?.activo).toBe(true);
    // The linked account is part of what the person can see held about them (issue 31).
    const datos = await (await t.call('GET', `/api/usuarios/${invitada.id}/mis-datos/`, { token: access })).json();
    const vinculadas = datos.categorias.find((c: { clave: string }) => c.clave === 'cuentas_vinculadas');
    expect(vinculadas).toMatchObject({ cantidad: 1 });
    expect(await acciones(invitada.email)).toEqual(expect.arrayContaining(['oidc_activar', 'oidc_ingreso']));
  });

  it('a siguiente to another site is dropped: the person lands on /', async () => {
    await t.createUser({ email: `destino@${DOMINIO}` });
    const { fin } = await ingresarComo(`destino@${DOMINIO}`, `?siguiente=${encodeURIComponent('/\t/otro.sitio/')}`);
    expect(fin.headers.get('location')).toBe('/');
  });

  it('a linked subject signs in to its account even after the provider changes the email', async () => {
    const login = `cambia@${DOMINIO}`;
    const u = await t.createUser({ email: login });
    expect((await ingresarComo(login)).fin.headers.get('location')).toBe('/');
    idp.cuentas.set(login, { email: `nuevo.correo@${DOMINIO}` });
    const { fin, tarro } = await ingresarComo(login);
    expect(fin.headers.get('location')).toBe('/');
    const r = await t.call('GET', `/api/usuarios/${u.id}/identidades/`, { token: tarro.valor('ed_access') ?? '' });
    expect((await r.json()).identidades[0].email).toBe(`nuevo.correo@${DOMINIO}`);
  });

  it('a stranger of an allowed domain is refused, then admitted once the admin turns on automatic accounts', async () => {
    const email = `desconocida@${DOMINIO}`;
    rechazoEs((await ingresarComo(email)).fin, 'sin_cuenta');
    expect(await t.findUser(email)).toBeUndefined();
    expect(await acciones(email)).toContain('oidc_rechazo');

    const admin = await t.createUser({ admin: true });
    // Only a configured provider's domain can be turned on.
    expect(await t.api.services.oidc.guardarDominiosAutomaticos({ id: admin.id }, [DOMINIO, 'otro.cl'])).toEqual([DOMINIO]);
    idp.cuentas.set(email, { given_name: 'Rosa', family_name: 'Muñoz' });
    const { fin } = await ingresarComo(email);
    expect(fin.headers.get('location')).toBe('/');
    const creada = await t.findUser(email);
    expect(creada).toMatchObject({ activo: true, primer_nombre: 'Rosa', apellido_paterno: 'Muñoz', password_hash: null, groups: [] });
    expect(await acciones(email)).toEqual(expect.arrayContaining(['oidc_cuenta_automatica', 'oidc_ingreso']));
    await t.api.services.oidc.guardarDominiosAutomaticos({ id: admin.id }, []);
  });

  it('a wrong domain, an unverified email and a missing email are refused', async () => {
    await t.createUser({ email: 'ajena@otro.cl' });
    rechazoEs((await ingresarComo('ajena@otro.cl')).fin, 'dominio');
    idp.cuentas.set(`sinverificar@${DOMINIO}`, { email_verified: false });
    await t.createUser({ email: `sinverificar@${DOMINIO}` });
    rechazoEs((await ingresarComo(`sinverificar@${DOMINIO}`)).fin, 'no_verificado');
    idp.cuentas.set('sin-correo', { email: undefined });
    rechazoEs((await ingresarComo('sin-correo')).fin, 'no_verificado');
  });

  it('a deactivated account stays out', async () => {
    const u = await t.createUser({ email: `desactivada@${DOMINIO}` });
    await t.db.update(usuarios).set({ activo: false, desactivada_en: new Date() }).where(eq(usuarios.id, u.id));
    rechazoEs((await ingresarComo(u.email)).fin, 'cuenta_inactiva');
  });

  it('an account without a password deletes itself after a fresh sign-in, and signing in again cancels, saying so (issue 31)', async () => {
    const v = await t.createUser({ email: `se-va@${DOMINIO}` });
    await t.db.update(usuarios).set({ password_hash: null }).where(eq(usuarios.id, v.id));
    const eliminar = (access: string) =>
      t.call('POST', `/api/usuarios/${v.id}/eliminar-cuenta/`, { token: access, json: { password: '', conservar_aportes: true } });
    const primera = await ingresarComo(v.email);
    expect(primera.fin.headers.get('location')).toBe('/');
    const access = primera.tarro.valor('ed_access') ?? '';
    // Eleven minutes after the sign-in it is no longer fresh: sign in again to confirm.
    const ahora = t.clock.now;
    t.clock.now = new Date(ahora.getTime() + 11 * 60 * 1000);
    const tarde = await eliminar(access);
    t.clock.now = ahora;
    expect(tarde.status).toBe(400);
    expect((await tarde.json()).detail).toBe(INGRESO_REQUERIDO);
    expect((await t.findUser(v.email))?.baja_programada).toBeNull();
    const programada = await eliminar(access);
    expect(programada.status, await programada.clone().text()).toBe(202);
    expect((await t.findUser(v.email))?.baja_programada).not.toBeNull();

    const otra = await ingresarComo(v.email);
    expect(otra.fin.status).toBe(303);
    expect(otra.fin.headers.get('location')).toBe('/perfil/eliminar-cuenta?cancelada=ingreso');
    expect(otra.tarro.valor('ed_access')).toBeTruthy();
    expect((await t.findUser(v.email))?.baja_programada).toBeNull();
  });
});

describe('the flow cannot be bent', () => {
  it('a replayed callback is refused: the browser no longer has the flow, and the session it had is not renewed by it', async () => {
    await t.createUser({ email: `replay@${DOMINIO}` });
    const { retorno, tarro, fin } = await ingresarComo(`replay@${DOMINIO}`);
    expect(fin.headers.get('location')).toBe('/');
    rechazoEs(await visitar(`${retorno.pathname}${retorno.search}`, tarro), 'estado');
  });

  it('the same callback with the same flow cookie twice: the second is refused as used', async () => {
    await t.createUser({ email: `dos-veces@${DOMINIO}` });
    const { retorno, tarro } = await hastaElRetorno(`dos-veces@${DOMINIO}`);
    const cookie = `ed_oidc=${tarro.valor('ed_oidc')}`;
    const ruta = `${retorno.pathname}${retorno.search}`;
    const uno = await t.call('GET', ruta, { headers: { cookie }, unchecked: false });
    expect(uno.headers.get('location')).toBe('/');
    rechazoEs(await t.call('GET', ruta, { headers: { cookie }, unchecked: false }), 'usado');
  });

  it('a tampered state is refused, and so is a callback without the flow cookie', async () => {
    await t.createUser({ email: `estado@${DOMINIO}` });
    const { retorno, tarro } = await hastaElRetorno(`estado@${DOMINIO}`);
    const alterado = new URL(retorno);
    alterado.searchParams.set('state', 'otro-estado');
    rechazoEs(await visitar(`${alterado.pathname}${alterado.search}`, tarro), 'estado');
    const otro = await hastaElRetorno(`estado@${DOMINIO}`);
    rechazoEs(await t.call('GET', `${otro.retorno.pathname}${otro.retorno.search}`, { unchecked: false }), 'estado');
  });

  it('a flow older than ten minutes has expired', async () => {
    await t.createUser({ email: `tarde@${DOMINIO}` });
    const { retorno, tarro } = await hastaElRetorno(`tarde@${DOMINIO}`);
    const antes = t.clock.now;
    t.clock.now = new Date(antes.getTime() + 11 * 60 * 1000);
    try {
      rechazoEs(await visitar(`${retorno.pathname}${retorno.search}`, tarro), 'vencido');
    } finally {
      t.clock.now = antes;
    }
  });

  it('a provider error (the person cancelled) ends on the sign-in screen', async () => {
    const tarro = new Tarro();
    const inicio = await visitar('/auth/oidc/prueba/', tarro);
    const state = new URL(inicio.headers.get('location') ?? '').searchParams.get('state') ?? '';
    rechazoEs(await visitar(`/auth/oidc/prueba/callback?error=access_denied&state=${state}`, tarro), 'cancelado');
  });

  it('an unknown provider and a provider that does not answer end on the sign-in screen, with siguiente kept', async () => {
    rechazoEs(await t.call('GET', '/auth/oidc/nadie/'), 'proveedor');
    const caido = await t.call('GET', '/auth/oidc/caido/?siguiente=/foro/');
    rechazoEs(caido, 'no_disponible');
    expect(caido.headers.get('location')).toBe('/ingresar/?error_oidc=no_disponible&siguiente=%2Fforo%2F');
  });
});

describe('linking and unlinking', () => {
  it('a signed-in person links the provider, and unlinks it while they have a password', async () => {
    const yo = await t.session({ email: `personal.${Date.now()}@gmail.com` });
    idp.cuentas.set('escolar-1', { email: `escolar1@${DOMINIO}` });
    const tarro = new Tarro();
    const sinSesion = await visitar('/auth/oidc/prueba/?vincular=1', tarro);
    rechazoEs(sinSesion, 'sin_sesion');
    const conSesion = new Tarro();
    const inicio = await t.call('GET', '/auth/oidc/prueba/?vincular=1', { headers: { cookie: `ed_access=${yo.token}` } });
    conSesion.guardar(inicio);
    const retorno = await ingresarEnProveedor(inicio.headers.get('location') ?? '', 'escolar-1');
    const fin = await visitar(`${retorno.pathname}${retorno.search}`, conSesion);
    expect(fin.headers.get('location')).toBe('/perfil/cuentas-vinculadas?vinculada=prueba');
    const [fila] = await t.db.select().from(identidades).where(eq(identidades.id_usuario, yo.id));
    expect(fila).toMatchObject({ proveedor: 'prueba', sub: 'escolar-1', email: `escolar1@${DOMINIO}` });
    // Now the school account opens this person's account.
    expect((await ingresarComo('escolar-1')).fin.headers.get('location')).toBe('/');

    // Another person cannot link the same school account.
    const otra = await t.session();
    const suyo = new Tarro();
    const inicio2 = await t.call('GET', '/auth/oidc/prueba/?vincular=1', { headers: { cookie: `ed_access=${otra.token}` } });
    suyo.guardar(inicio2);
    const retorno2 = await ingresarEnProveedor(inicio2.headers.get('location') ?? '', 'escolar-1');
    rechazoEs(await visitar(`${retorno2.pathname}${retorno2.search}`, suyo), 'ya_vinculada');

    const fuera = await t.call('DELETE', `/api/usuarios/${yo.id}/identidades/prueba/`, { token: yo.token });
    expect(fuera.status).toBe(200);
    expect(await t.db.select().from(identidades).where(eq(identidades.id_usuario, yo.id))).toEqual([]);
    expect(await acciones(yo.email)).toEqual(expect.arrayContaining(['oidc_vincular', 'oidc_desvincular']));
    expect((await t.call('DELETE', `/api/usuarios/${yo.id}/identidades/prueba/`, { token: yo.token })).status).toBe(404);
  });

  it('the last way in cannot be unlinked, and nobody unlinks for another person', async () => {
    const email = `solo-proveedor@${DOMINIO}`;
    const u = await t.createUser({ email, activo: false });
    const { tarro } = await ingresarComo(email);
    const token = tarro.valor('ed_access') ?? '';
    const r = await t.call('DELETE', `/api/usuarios/${u.id}/identidades/prueba/`, { token });
    expect(r.status).toBe(409);
    expect((await r.json()).detail).toMatch(/^No puedes desvincular tu única forma de ingresar/);
    expect(
      await t.db
        .select()
        .from(identidades)
        .where(and(eq(identidades.id_usuario, u.id), eq(identidades.proveedor, 'prueba'))),
    ).toHaveLength(1);
    const otra = await t.session();
    expect((await t.call('DELETE', `/api/usuarios/${u.id}/identidades/prueba/`, { token: otra.token })).status).toBe(403);
    expect((await t.call('GET', `/api/usuarios/${u.id}/identidades/`, { token: otra.token })).status).toBe(403);
  });
});

describe('after the provider, the second factor', () => {
  it('an account with a second factor is asked its code on the sign-in screen, then signed in', async () => {
    const email = `con-totp@${DOMINIO}`;
    const u = await t.createUser({ email });
    const { access } = await t.login(email, PASSWORD);
    const inicio = await (await t.call('POST', `/api/usuarios/${u.id}/totp/`, { token: access })).json();
    const codigo = (pasos = 0) =>
      TOTP.generate({ secret: Secret.fromBase32(inicio.secreto), timestamp: t.clock.now.getTime() + pasos * 30_000 });
    const confirmado = await t.call('POST', `/api/usuarios/${u.id}/totp/confirmar/`, { token: access, json: { codigo: codigo() } });
    expect(confirmado.status).toBe(200);

    const { fin, tarro } = await ingresarComo(email, '?siguiente=/foro/');
    expect(fin.status).toBe(303);
    const destino = new URL(fin.headers.get('location') ?? '', 'http://x');
    expect(destino.pathname).toBe('/ingresar/');
    expect(destino.searchParams.get('siguiente')).toBe('/foro/');
    const desafio = new URLSearchParams(destino.hash.slice(1)).get('desafio') ?? '';
    expect(desafio).not.toBe('');
    // No session until the code.
    expect(tarro.valor('ed_refresh')).toBeUndefined();
    const paso = await t.call('POST', '/auth/segundo-factor/', { json: { desafio, codigo: codigo(1) } });
    expect(paso.status).toBe(200);
    expect((await paso.json()).usuario.id).toBe(u.id);
  });
});
