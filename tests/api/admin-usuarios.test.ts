/**
 * The admin console's accounts and audit log (issue 16): listing, deactivating and reactivating,
 * 'admin' and the school, the roster import with its preview, and the log of every action.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../src/lib/server/auth/cookies.server.ts';
import { ingresos, perfilesDocentes, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { sessionFromCookies } from '../../src/lib/server/http/session.server.ts';
import { ADMIN_KEY, createTestApi, PASSWORD, type TestApi } from '../support/api.ts';
import { formData } from '../support/form.ts';

let t: TestApi;
let admin: { id: number; email: string; token: string };
beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, email: `admin.${Date.now()}@example.cl` });
});
afterAll(() => t.close());

const como = (token: string) => ({ token });
const listar = (consulta: string, token = admin.token) => t.call('GET', `/api/admin/usuarios/${consulta}`, como(token));
const cambiar = (id: number, json: unknown, token = admin.token) => t.call('PATCH', `/api/admin/usuarios/${id}/`, { token, json });
const importar = (csv: string, confirmar: 'true' | 'false', nombre = 'nomina.csv') =>
  t.call('POST', '/api/admin/usuarios/importar/', {
    token: admin.token,
    body: formData({ confirmar }, { data: csv, name: nombre, type: 'text/csv' }),
  });
const registro = async (q: string) =>
  (await (await t.call('GET', `/api/admin/registro/?q=${encodeURIComponent(q)}`, como(admin.token))).json()).registros;
/** Any signed-in read: 200 with a live session, 401 without. */
const leer = (token: string) => t.call('GET', '/api/colegios/', { token });
const unico = (prefijo: string) => `${prefijo}.${Math.random().toString(36).slice(2, 8)}@example.cl`;

describe('only admins', () => {
  it('a teacher gets 403 and no token 401 from every call', async () => {
    const docente = await t.session();
    const llamadas: [string, string, Record<string, unknown>][] = [
      ['GET', '/api/admin/usuarios/', {}],
      ['PATCH', `/api/admin/usuarios/${docente.id}/`, { json: { activo: false } }],
      [
        'POST',
        '/api/admin/usuarios/importar/',
        { body: formData({ confirmar: 'false' }, { data: 'email,nombres,apellidos\n', name: 'a.csv' }) },
      ],
      ['POST', `/api/admin/usuarios/${docente.id}/reenviar-activacion/`, {}],
      ['POST', '/api/admin/usuarios/', { json: { email: unico('x'), nombres: 'A', apellidos: 'B' } }],
      ['GET', '/api/admin/registro/', {}],
    ];
    for (const [method, path, options] of llamadas) {
      const prohibido = await t.call(method, path, { ...options, token: docente.token });
      expect(prohibido.status, `${method} ${path}`).toBe(403);
      expect((await prohibido.json()).detail).toBe('No tienes permisos');
      expect((await t.call(method, path, options)).status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('GET /api/admin/usuarios/', () => {
  it('searches names, email and school ignoring case and accents, and filters by role and state', async () => {
    const inv = await t.call('POST', '/api/admin/usuarios/', {
      token: admin.token,
      json: { email: unico('marcela'), nombres: 'Marcela Inés', apellidos: 'Núñez Soto', colegio: 'Liceo Álamo Quemado' },
    });
    expect(inv.status).toBe(201);
    const { usuario } = await inv.json();

    const porNombre = await (await listar('?q=nunez%20marce')).json();
    expect(porNombre.usuarios.map((u: { id: number }) => u.id)).toEqual([usuario.id]);
    expect(porNombre.usuarios[0]).toEqual({
      id: usuario.id,
      email: usuario.email,
      nombres: 'Marcela Inés',
      apellidos: 'Núñez Soto',
      colegio: 'Liceo Álamo Quemado',
      groups: [],
      estado: 'pendiente',
      fecha_creacion: expect.any(String),
      ultimo_ingreso: null,
    });
    expect((await (await listar('?q=alamo%20QUEMADO')).json()).num_results).toBe(1);
    expect((await (await listar(`?q=${usuario.email.split('@')[0]}`)).json()).num_results).toBe(1);
    expect((await (await listar('?q=nunez&estado=pendiente&rol=docente')).json()).num_results).toBe(1);
    expect((await (await listar('?q=nunez&estado=activa')).json()).num_results).toBe(0);
    expect((await (await listar('?q=nunez&rol=admin')).json()).num_results).toBe(0);

    const admins = await (await listar('?rol=admin&estado=activa')).json();
    expect(admins.usuarios.some((u: { id: number; ultimo_ingreso: string | null }) => u.id === admin.id && u.ultimo_ingreso)).toBe(true);
  });

  it("lists an erased account as 'Cuenta n.º N', as the audit log names it, never by its anonymised address", async () => {
    const correo = unico('saliente');
    const u = await t.createUser({ email: correo, nombre: 'Saliente' });
    await t.api.services.baja.borrar(u.id);
    const etiqueta = `Cuenta n.º ${u.id}`;
    const todas = await (await listar('?tamano_pagina=9999')).json();
    const fila = todas.usuarios.find((x: { id: number }) => x.id === u.id);
    expect(fila).toMatchObject({ email: etiqueta, nombres: 'Docente retirado/a', estado: 'eliminada' });
    expect(JSON.stringify(todas)).not.toContain('eliminada.invalid');

    // Its own state, not 'pendiente' (it has no password and is not active), and no change is taken.
    const eliminadas = await (await listar('?estado=eliminada&tamano_pagina=9999')).json();
    expect(eliminadas.usuarios.map((x: { id: number }) => x.id)).toContain(u.id);
    const pendientes = await (await listar('?estado=pendiente&tamano_pagina=9999')).json();
    expect(pendientes.usuarios.map((x: { id: number }) => x.id)).not.toContain(u.id);
    const antes = await t.db.select().from(usuarios).where(eq(usuarios.id, u.id));
    for (const cambio of [{ activo: true }, { activo: false }, { admin: true }, { colegio: 'Escuela Nueva' }]) {
      const r = await cambiar(u.id, cambio);
      expect(r.status, JSON.stringify(cambio)).toBe(409);
      expect((await r.json()).detail).toBe('La cuenta fue eliminada');
    }
    const reenvio = await t.call('POST', `/api/admin/usuarios/${u.id}/reenviar-activacion/`, como(admin.token));
    expect(reenvio.status).toBe(409);
    expect((await reenvio.json()).detail).toBe('La cuenta fue eliminada');
    expect(await t.db.select().from(usuarios).where(eq(usuarios.id, u.id))).toEqual(antes);
  });

  it('pages with 25 by default, and a bad filter is a Spanish 400', async () => {
    for (let i = 0; i < 3; i++) await t.createUser({ email: unico(`pagina${i}`), nombre: 'Paginada' });
    const pagina = await (await listar('?q=paginada&tamano_pagina=2&orden=-email')).json();
    expect(pagina).toMatchObject({ num_results: 3, num_pages: 2 });
    expect(pagina.usuarios).toHaveLength(2);
    expect(pagina.usuarios[0].email > pagina.usuarios[1].email).toBe(true);
    expect((await (await listar('?q=paginada&tamano_pagina=2&pagina=2')).json()).usuarios).toHaveLength(1);
    expect((await (await listar('?q=paginada&tamano_pagina=9999')).json()).usuarios).toHaveLength(3);
    const malo = await listar('?estado=borrada');
    expect(malo.status).toBe(400);
    expect((await malo.json()).detail).toBe('Estado no válido: use activa, pendiente, desactivada o eliminada');
    expect((await listar('?rol=jefe')).status).toBe(400);
  });
});

describe('PATCH /api/admin/usuarios/{id}/', () => {
  it('refuses no change, unknown fields, wrong types and unknown ids', async () => {
    const docente = await t.createUser();
    const vacio = await cambiar(docente.id, {});
    expect(vacio.status).toBe(400);
    expect((await vacio.json()).detail).toBe('Indique al menos un cambio: activo, admin o colegio');
    const desconocido = await cambiar(docente.id, { activo: true, email: 'x@y.cl' });
    expect(desconocido.status).toBe(400);
    expect((await desconocido.json()).detail).toBe('Campo no permitido: email');
    expect((await cambiar(docente.id, { admin: 'quizas' })).status).toBe(400);
    expect((await cambiar(99_999_999, { activo: false })).status).toBe(404);
  });

  it('deactivation ends the open session at once; the teacher cannot sign in until reactivated', async () => {
    const docente = await t.createUser({ email: unico('desactivar') });
    const sesion = await t.login(docente.email);
    expect((await leer(sesion.access)).status).toBe(200);
    // A page load with the session's cookies sees the teacher too.
    const cookies = (access: string, refresh: string) => ({
      get: (n: string) => (n === ACCESS_COOKIE ? { value: access } : n === REFRESH_COOKIE ? { value: refresh } : undefined),
      set: () => undefined,
    });
    expect(await sessionFromCookies({ api: t.api }, cookies(sesion.access, sesion.refresh))).not.toBeNull();

    const desactivada = await cambiar(docente.id, { activo: false });
    expect(desactivada.status).toBe(200);
    expect(await desactivada.json()).toMatchObject({ id: docente.id, estado: 'desactivada' });

    const rechazada = await leer(sesion.access);
    expect(rechazada.status).toBe(401);
    expect(await sessionFromCookies({ api: t.api }, cookies(sesion.access, sesion.refresh))).toBeNull();
    expect((await t.call('POST', '/auth/renovar_token/', { json: { refresh: sesion.refresh } })).status).toBe(401);

    const ingreso = await t.call('POST', '/auth/login/', { json: { email: docente.email, password: PASSWORD } });
    expect(ingreso.status).toBe(401);
    expect((await ingreso.json()).detail).toBe('Usuario y/o contraseña incorrectos');
    const reenvio = await t.call('POST', `/api/admin/usuarios/${docente.id}/reenviar-activacion/`, como(admin.token));
    expect(reenvio.status).toBe(409);
    expect((await reenvio.json()).detail).toBe('La cuenta está desactivada');

    const reactivada = await cambiar(docente.id, { activo: true });
    expect(await reactivada.json()).toMatchObject({ estado: 'activa' });
    const nueva = await t.login(docente.email);
    expect((await leer(nueva.access)).status).toBe(200);
    // The old session stays ended.
    expect((await leer(sesion.access)).status).toBe(401);
    expect((await t.db.select().from(ingresos).where(eq(ingresos.id_usuario, docente.id))).length).toBe(2);
  });

  it('a pending account deactivated cannot activate itself through its old link, and goes back to pending', async () => {
    const email = unico('pendiente');
    const inv = await t.call('POST', '/api/admin/usuarios/', { token: admin.token, json: { email, nombres: 'Pía', apellidos: 'Lagos' } });
    const { usuario } = await inv.json();
    const token = t.tokenFrom(t.lastLinkTo(email));
    expect((await cambiar(usuario.id, { activo: false })).status).toBe(200);
    expect((await t.call('GET', `/api/usuarios/activar-cuenta/?token=${token}`)).status).toBe(404);
    const activar = await t.call('POST', '/api/usuarios/activar-cuenta/', {
      json: { token, password: 'Nueva1234', password_confirmation: 'Nueva1234', acepta_privacidad: true },
    });
    expect(activar.status).toBe(404);
    expect((await activar.json()).detail).toBe('Token inválido o expirado');
    expect((await t.findUser(email))?.activo).toBe(false);
    expect(await (await cambiar(usuario.id, { activo: true })).json()).toMatchObject({ estado: 'pendiente' });
    expect((await t.call('POST', `/api/admin/usuarios/${usuario.id}/reenviar-activacion/`, como(admin.token))).status).toBe(200);
  });

  it('an admin cannot deactivate themself, nor remove admin from the last admin', async () => {
    const yo = await cambiar(admin.id, { activo: false });
    expect(yo.status).toBe(409);
    expect((await yo.json()).detail).toBe('No puedes desactivar tu propia cuenta');
    // Every other admin out of the way: this admin is the last one.
    await t.db.update(usuarios).set({ activo: false }).where(eq(usuarios.rol, 'Administrador'));
    await t.db.update(usuarios).set({ activo: true }).where(eq(usuarios.id, admin.id));
    const ultimo = await t.call('PATCH', `/api/admin/usuarios/${admin.id}/`, {
      headers: { 'x-admin-key': ADMIN_KEY },
      json: { admin: false },
    });
    expect(ultimo.status).toBe(409);
    expect((await ultimo.json()).detail).toBe('No se puede quitar el permiso de administrador al último administrador');
  });

  it('grants and removes admin (the teacher profile stays) and changes the school', async () => {
    const docente = await t.session({ email: unico('promovida') });
    const dado = await cambiar(docente.id, { admin: true });
    expect(await dado.json()).toMatchObject({ groups: ['admin'] });
    expect((await t.findUser(docente.email))?.rol).toBe('Administrador');
    // The teacher's open session now has admin rights.
    expect((await listar('?rol=admin', docente.token)).status).toBe(200);
    expect(await (await cambiar(docente.id, { admin: false })).json()).toMatchObject({ groups: [] });
    expect((await listar('', docente.token)).status).toBe(403);
    expect(await t.db.select().from(perfilesDocentes).where(eq(perfilesDocentes.id_usuario, docente.id))).toHaveLength(1);

    expect(await (await cambiar(docente.id, { colegio: 'Escuela Río Claro' })).json()).toMatchObject({ colegio: 'Escuela Río Claro' });
    expect(await (await cambiar(docente.id, { colegio: 'escuela rio claro' })).json()).toMatchObject({ colegio: 'Escuela Río Claro' });
    expect(await (await cambiar(docente.id, { colegio: '' })).json()).toMatchObject({ colegio: '' });
  });
});

describe('POST /api/admin/usuarios/importar/', () => {
  it('previews every line with its errors, writes nothing, then creates the valid ones', async () => {
    const existente = await t.createUser({ email: unico('ya') });
    const a = unico('import.a');
    const b = unico('import.b');
    const csv = [
      'Email;Nombres;Apellidos;RUT;Colegio',
      `${a};Ana María;Soto Díaz;12.345.678-5;Colegio Import`,
      `${b};Bruno;Lara;;`,
      'no-es-email;Carla;;11.111.111-2;',
      `${b};Bruno;Lara;;`,
      `${existente.email};Eva;Luna;;`,
    ].join('\r\n');
    const vista = await importar(csv, 'false');
    expect(vista.status).toBe(200);
    const previa = await vista.json();
    expect(previa).toMatchObject({ confirmado: false, creadas: 0, con_error: 2 });
    expect(previa.lineas.map((l: { linea: number; estado: string }) => [l.linea, l.estado])).toEqual([
      [2, 'valida'],
      [3, 'valida'],
      [4, 'error'],
      [5, 'error'],
      [6, 'existente'],
    ]);
    expect(previa.lineas[2].errores).toEqual([
      'Debe ingresar un email válido',
      'Debe ingresar los apellidos',
      'Debe ingresar un RUT válido',
    ]);
    expect(previa.lineas[3].errores).toEqual(['El correo está repetido en el archivo (línea 3)']);
    expect(await t.findUser(a)).toBeUndefined();

    const hecha = await (await importar(csv, 'true')).json();
    expect(hecha).toMatchObject({ confirmado: true, creadas: 2, con_error: 2 });
    expect(hecha.lineas[0]).toMatchObject({ estado: 'creada', id: expect.any(Number) });
    expect(t.lastLinkTo(a)).toContain('/activar-cuenta/');
    expect((await t.findUser(b))?.activo).toBe(false);
    expect((await registro('nómina'))[0]).toMatchObject({ accion: 'importar', admin_email: admin.email });
  });

  it('reads a roster saved by Excel in Windows-1252', async () => {
    const csv = Buffer.from(`email;nombres;apellidos\r\n${unico('latin')};Iñés;Núñez\r\n`, 'latin1');
    const res = await t.call('POST', '/api/admin/usuarios/importar/', {
      token: admin.token,
      body: formData({ confirmar: 'false' }, { data: csv, name: 'NOMINA.CSV' }),
    });
    expect((await res.json()).lineas[0]).toMatchObject({ nombres: 'Iñés', apellidos: 'Núñez', estado: 'valida' });
  });

  it('refuses a missing file, a file that is not CSV, an empty one and missing columns, in Spanish', async () => {
    const sinArchivo = await t.call('POST', '/api/admin/usuarios/importar/', {
      token: admin.token,
      body: formData({ confirmar: 'false' }),
    });
    expect(sinArchivo.status).toBe(400);
    expect((await sinArchivo.json()).detail).toBe('Debe subir un archivo CSV');
    expect((await (await importar('email,nombres,apellidos\n', 'false', 'foto.png')).json()).detail).toBe('El archivo no es un CSV');
    expect((await (await importar('PK\u0000\u0003binario', 'false', 'lista.csv')).json()).detail).toBe('El archivo no es un CSV');
    const vacio = await importar('', 'false');
    expect(vacio.status).toBe(400);
    expect((await vacio.json()).detail).toMatch(/^El archivo está vacío/);
    const columnas = await importar('correo,nombres\nx@y.cl,Ana\n', 'false');
    expect((await columnas.json()).detail).toMatch(/^Faltan columnas en el encabezado: email, apellidos\./);
    const confirmar = await t.call('POST', '/api/admin/usuarios/importar/', {
      token: admin.token,
      body: formData({ confirmar: 'quizas' }, { data: 'a', name: 'a.csv' }),
    });
    expect((await confirmar.json()).detail).toBe('confirmar debe ser true o false');
  });
});

describe('GET /api/admin/registro/', () => {
  it('records invitations, resends and changes, newest first, searchable', async () => {
    const email = unico('auditada');
    const { usuario } = await (
      await t.call('POST', '/api/admin/usuarios/', { token: admin.token, json: { email, nombres: 'Ida', apellidos: 'Vial' } })
    ).json();
    await t.call('POST', `/api/admin/usuarios/${usuario.id}/reenviar-activacion/`, como(admin.token));
    await t.call('POST', '/api/admin/usuarios/reenviar-activacion/', { headers: { 'x-admin-key': ADMIN_KEY }, json: { email } });
    await cambiar(usuario.id, { colegio: 'Colegio Auditado' });
    const filas = await registro(email.split('@')[0] ?? '');
    expect(filas.map((f: { accion: string }) => f.accion)).toEqual([
      'cambiar_colegio',
      'reenviar_activacion',
      'reenviar_activacion',
      'invitar',
    ]);
    expect(filas[0]).toMatchObject({
      admin_email: admin.email,
      id_admin: admin.id,
      tipo: 'usuario',
      id_registro: usuario.id,
      detalle: `Cambió el colegio de ${email} a «Colegio Auditado»`,
    });
    expect(filas[1]).toMatchObject({ admin_email: 'Clave local (npm run usuarios)', id_admin: null });
    const pagina = await (await t.call('GET', '/api/admin/registro/?pagina=1&tamano_pagina=1', como(admin.token))).json();
    expect(pagina.registros).toHaveLength(1);
    expect(pagina.num_pages).toBe(pagina.num_results);
  });
});
