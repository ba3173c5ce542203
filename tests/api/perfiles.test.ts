/**
 * Community directory, contact and profiles (docs/SPEC.md sections 2 to 9, levels from issue 21): every call of
 * openapi.yaml's Community tag for /api/usuarios/profesores/ and /api/usuarios/{id}/..., and the
 * profile photos under /miniaturas. Every response is checked against openapi.yaml by `call`.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  areas,
  colegios,
  mensajesContacto,
  perfilColegios,
  perfilesDocentes,
  unidades,
  usuarios,
} from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { catalogos, insertarCapsula, insertarMaterial, type Sesion } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

let t: TestApi;

async function nombrar(id: number, campos: Partial<typeof usuarios.$inferInsert>) {
  await t.db.update(usuarios).set(campos).where(eq(usuarios.id, id));
}

async function colegio(nombre: string): Promise<number> {
  const [row] = await t.db.insert(colegios).values({ nombre }).returning();
  if (!row) throw new Error('school not created');
  return row.id;
}

async function areaId(codigo: string): Promise<{ id: number; nombre: string }> {
  const [row] = await t.db.select().from(areas).where(eq(areas.codigo, codigo));
  if (!row) throw new Error(`no area ${codigo}`);
  return { id: row.id, nombre: row.nombre };
}

/** A real JPEG: 600x400 with EXIF (camera and copyright) and a gradient, as a phone would send. */
/** A stored file's bytes, wherever the storage keeps them. */
const guardado = async (key: string) => Buffer.concat(await (await t.storage.read(key)).toArray());

function jpegConExif(width = 600, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="100" cy="100" r="80" fill="#1d5fa8"/></svg>`) }])
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'CamaraDePrueba', Model: 'Modelo 1', Copyright: 'Docente de prueba' } })
    .toBuffer();
}

function formularioFoto(data: Buffer | string, nombre = 'foto.jpg', tipo = 'image/jpeg'): FormData {
  const form = new FormData();
  form.set('foto', new Blob([typeof data === 'string' ? data : new Uint8Array(data)], { type: tipo }), nombre);
  return form;
}

const subirFoto = (quien: Sesion, data: Buffer | string, nombre?: string, tipo?: string, id = quien.id) =>
  t.call('POST', `/api/usuarios/${id}/foto/`, { token: quien.token, body: formularioFoto(data, nombre, tipo) });

beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

describe('GET /api/usuarios/profesores/ (the directory)', () => {
  let yo: Sesion;
  let escuela: number;
  let liceo: number;
  let ids: Record<string, number>;

  beforeAll(async () => {
    yo = await t.session({ nombre: 'Buscadora' });
    await nombrar(yo.id, { apellido_paterno: 'Aaa' });
    escuela = await colegio('Escuela Básica Los Aromos (directorio)');
    liceo = await colegio('Liceo Bicentenario del Valle (directorio)');
    const mate = await areaId('MA');
    const ciencias = await areaId('CN');
    const crear = async (primer: string, paterno: string, materno: string, cols: number[], ars: { id: number; nombre: string }[]) => {
      const u = await t.createUser({ nombre: primer });
      await nombrar(u.id, { apellido_paterno: paterno, apellido_materno: materno, segundo_nombre: 'Luis' });
      for (const c of cols) await t.db.insert(perfilColegios).values({ id_usuario: u.id, id_colegio: c });
      const token = (await t.login(u.email)).access;
      for (const a of ars) {
        const res = await t.call('POST', `/api/usuarios/profesores/${u.id}/areas/`, { token, json: { area: a.nombre } });
        expect(res.status).toBe(201);
      }
      return u.id;
    };
    ids = {
      jose: await crear('José', 'Núñez', 'Soto', [escuela], [mate]),
      maria: await crear('María', 'Álvarez', 'Rojas', [escuela, liceo], [ciencias]),
      pedro: await crear('Pedro', 'Zúñiga', 'Díaz', [liceo], [mate, ciencias]),
    };
    const inactivo = await t.createUser({ nombre: 'Inactivo', activo: false });
    await t.db.insert(perfilColegios).values({ id_usuario: inactivo.id, id_colegio: escuela });
    await t.createUser({ admin: true, nombre: 'Administradora' });
  });

  const buscar = async (qs: string, token = yo.token) => {
    const res = await t.call('GET', `/api/usuarios/profesores/?${qs}`, { token });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('lists active teachers by surname with their schools, title, specialties and areas; never admins nor inactive accounts', async () => {
    const body = await buscar(`colegio=${escuela}`);
    expect(body.num_results).toBe(2);
    expect(body.num_pages).toBe(1);
    expect(body.profesor.map((p: { usuario: { primer_nombre: string } }) => p.usuario.primer_nombre)).toEqual(['María', 'José']);
    expect(body.profesor[0]).toEqual({
      usuario: {
        id: ids.maria,
        primer_nombre: 'María',
        segundo_nombre: 'Luis',
        apellido_paterno: 'Álvarez',
        apellido_materno: 'Rojas',
        foto_perfil: '',
      },
      colegio: [
        { id: escuela, nombre: 'Escuela Básica Los Aromos (directorio)' },
        { id: liceo, nombre: 'Liceo Bicentenario del Valle (directorio)' },
      ],
      titulo_profesional: '',
      especialidad: [],
      area: ['Ciencias Naturales'],
    });
    const todos = await buscar('tamano_pagina=100');
    const nombres = todos.profesor.map((p: { usuario: { primer_nombre: string } }) => p.usuario.primer_nombre);
    expect(nombres).not.toContain('Inactivo');
    expect(nombres).not.toContain('Administradora');
    // Nobody's email reaches the directory.
    expect(JSON.stringify(todos)).not.toContain('@');
  });

  it('searches names without accents or case, each word as the start of a name', async () => {
    expect((await buscar('profesor=jose')).profesor.map((p: { usuario: { id: number } }) => p.usuario.id)).toEqual([ids.jose]);
    expect((await buscar('profesor=NUNEZ')).profesor.map((p: { usuario: { id: number } }) => p.usuario.id)).toEqual([ids.jose]);
    expect((await buscar('profesor=maria%20rojas')).num_results).toBe(1);
    expect((await buscar('profesor=zuni')).profesor[0].usuario.id).toBe(ids.pedro);
    // 'ose' is inside José, but starts no word.
    expect((await buscar('profesor=ose')).num_results).toBe(0);
    // Characters of LIKE or tsquery syntax are not operators.
    expect((await buscar('profesor=%25_%27')).num_results).toBeGreaterThan(0);
  });

  it('filters by school and by area (id), together; placeholders mean no filter', async () => {
    const mate = await areaId('MA');
    const ids1 = (await buscar(`area=${mate.id}`)).profesor.map((p: { usuario: { id: number } }) => p.usuario.id);
    expect(ids1.sort()).toEqual([ids.jose, ids.pedro].sort());
    const ids2 = (await buscar(`area=${mate.id}&colegio=${liceo}`)).profesor.map((p: { usuario: { id: number } }) => p.usuario.id);
    expect(ids2).toEqual([ids.pedro]);
    const sinFiltro = await buscar('tamano_pagina=100');
    expect((await buscar('colegio=-1&area=0&tamano_pagina=100')).num_results).toBe(sinFiltro.num_results);
  });

  it('paginates with the page sizes of SPEC section 9 and leaves the searcher out with usuario', async () => {
    const total = (await buscar('tamano_pagina=100')).num_results;
    const pagina = await buscar('tamano_pagina=5&pagina=1');
    expect(pagina.profesor).toHaveLength(Math.min(5, total));
    expect(pagina.num_pages).toBe(Math.ceil(total / 5));
    expect((await buscar('tamano_pagina=5&pagina=999')).profesor).toEqual([]);
    // A size outside 5, 10, 20, 50, 100 falls back to 10.
    expect((await buscar('tamano_pagina=7')).profesor.length).toBe(Math.min(10, total));
    const conmigo = (await buscar('tamano_pagina=100')).profesor.map((p: { usuario: { id: number } }) => p.usuario.id);
    expect(conmigo).toContain(yo.id);
    const sinMi = (await buscar(`tamano_pagina=100&usuario=${yo.id}`)).profesor.map((p: { usuario: { id: number } }) => p.usuario.id);
    expect(sinMi).not.toContain(yo.id);
    expect(sinMi).toHaveLength(conmigo.length - 1);
  });

  it('needs a session', async () => {
    expect((await t.call('GET', '/api/usuarios/profesores/')).status).toBe(401);
  });
});

describe('GET /api/usuarios/{id}/ (a profile)', () => {
  it('shows every field to the person and to admins, and the public ones to others', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    await nombrar(ana.id, {
      rut: '12345678-5',
      telefono: '+56 9 1234 5678',
      genero: 'Femenino',
      nacionalidad: 'Chilena',
      fecha_nacimiento: '1985-04-12',
    });
    const otro = await t.session();
    const admin = await t.session({ admin: true });
    const propio = await (await t.call('GET', `/api/usuarios/${ana.id}/`, { token: ana.token })).json();
    expect(propio).toMatchObject({
      id: ana.id,
      email: ana.email,
      rut: '12345678-5',
      telefono: '+56 9 1234 5678',
      fecha_nacimiento: '1985-04-12',
    });
    expect(propio.usuario_asociado).toEqual({ colegio: [], titulo_profesional: '', especialidad: [], area: [], nivel: [] });
    const ajeno = await (await t.call('GET', `/api/usuarios/${ana.id}/`, { token: otro.token })).json();
    expect(ajeno).toMatchObject({
      id: ana.id,
      primer_nombre: 'Ana',
      rut: '',
      email: '',
      genero: '',
      nacionalidad: '',
      telefono: '',
      fecha_nacimiento: null,
      rol: 'Profesor',
    });
    expect((await (await t.call('GET', `/api/usuarios/${ana.id}/`, { token: admin.token })).json()).email).toBe(ana.email);
    // An admin has no teacher profile.
    expect((await (await t.call('GET', `/api/usuarios/${admin.id}/`, { token: ana.token })).json()).usuario_asociado).toBeNull();
  });

  it('answers 404 for unknown users and, except to admins, for inactive ones', async () => {
    const quien = await t.session();
    const admin = await t.session({ admin: true });
    const inactivo = await t.createUser({ activo: false });
    expect((await t.call('GET', `/api/usuarios/${inactivo.id}/`, { token: quien.token })).status).toBe(404);
    expect((await t.call('GET', `/api/usuarios/${inactivo.id}/`, { token: admin.token })).status).toBe(200);
    const res = await t.call('GET', '/api/usuarios/999999/', { token: quien.token });
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe('Usuario no encontrado');
    expect((await t.call('GET', `/api/usuarios/${quien.id}/`)).status).toBe(401);
  });

  it('does not shadow the account routes', async () => {
    const res = await t.call('GET', '/api/usuarios/cambiar-contrasena/token-que-no-existe');
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe('Token inválido o expirado');
    const activar = await t.call('GET', '/api/usuarios/activar-cuenta/?token=nada');
    expect((await activar.json()).detail).toBe('Token inválido o expirado');
    const recuperar = await t.call('POST', '/api/usuarios/recuperar-cuenta/', { json: { email: 'nadie@example.cl' } });
    expect(recuperar.status).toBe(404);
  });
});

describe('PUT /api/usuarios/{id}/ (personal information)', () => {
  it('changes email, gender and phone from the multipart form; name, rut, nationality and birth date stay', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    await nombrar(ana.id, { rut: '12345678-5', nacionalidad: 'Chilena', fecha_nacimiento: '1980-01-02' });
    const res = await t.call('PUT', `/api/usuarios/${ana.id}/`, {
      token: ana.token,
      body: formData({
        usuario: String(ana.id),
        nombre: 'Otro Nombre',
        rut: '11111111-1',
        email: `  Ana.Nueva.${ana.id}@Colegio.CL `,
        genero: 'Femenino',
        nacionalidad: 'Peruana',
        telefono: '9 8765 4321',
        fecha_nacimiento: '2001-01-01',
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      primer_nombre: 'Ana',
      rut: '12345678-5',
      email: `ana.nueva.${ana.id}@colegio.cl`,
      genero: 'Femenino',
      nacionalidad: 'Chilena',
      telefono: '+56 9 8765 4321',
      fecha_nacimiento: '1980-01-02',
    });
    // The new address signs in.
    expect((await t.login(`ana.nueva.${ana.id}@colegio.cl`)).usuario.id).toBe(ana.id);
  });

  it('accepts Chilean mobiles and landlines, stored in one format', async () => {
    const quien = await t.session();
    const casos: [string, string][] = [
      ['+56912345678', '+56 9 1234 5678'],
      ['+56 9 1234 5678', '+56 9 1234 5678'],
      ['56-2-2123-4567', '+56 2 2123 4567'],
      ['(41) 212 3456', '+56 41 212 3456'],
    ];
    for (const [telefono, guardado] of casos) {
      const res = await t.call('PUT', `/api/usuarios/${quien.id}/`, {
        token: quien.token,
        json: { email: quien.email, genero: 'Otro', telefono },
      });
      expect(res.status, telefono).toBe(200);
      expect((await res.json()).telefono).toBe(guardado);
    }
  });

  it("answers SPEC's messages for empty and invalid fields", async () => {
    const quien = await t.session();
    const vacio = await t.call('PUT', `/api/usuarios/${quien.id}/`, { token: quien.token, json: { email: '', genero: '', telefono: ' ' } });
    expect(vacio.status).toBe(400);
    expect((await vacio.json()).errors).toEqual({
      email: ['Debe ingresar un email'],
      genero: ['Debe ingresar un género'],
      telefono: ['Debe ingresar un telefono'],
    });
    for (const telefono of ['12345', '+56 8 1234 5678', '+1 650 555 1234', '9 1234 567', 'nueve']) {
      const res = await t.call('PUT', `/api/usuarios/${quien.id}/`, {
        token: quien.token,
        json: { email: quien.email, genero: 'Otro', telefono },
      });
      expect(res.status, telefono).toBe(400);
      expect((await res.json()).errors, telefono).toEqual({ telefono: ['Debe ingresar un telefono válido'] });
    }
    const email = await t.call('PUT', `/api/usuarios/${quien.id}/`, {
      token: quien.token,
      json: { email: 'no-es-un-email', genero: 'Masculino', telefono: '+56 9 1111 2222' },
    });
    expect((await email.json()).errors).toEqual({ email: ['Debe ingresar un email válido'] });
    const genero = await t.call('PUT', `/api/usuarios/${quien.id}/`, {
      token: quien.token,
      json: { email: quien.email, genero: 'Desconocido', telefono: '+56 9 1111 2222' },
    });
    expect((await genero.json()).errors).toEqual({ genero: ['Debe ingresar un género'] });
  });

  it("refuses another account's email with 409", async () => {
    const a = await t.session();
    const b = await t.session();
    const res = await t.call('PUT', `/api/usuarios/${a.id}/`, {
      token: a.token,
      json: { email: b.email.toUpperCase(), genero: 'Otro', telefono: '+56 9 1111 2222' },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      detail: 'Ya existe una cuenta con ese correo',
      errors: { email: ['Ya existe una cuenta con ese correo'] },
    });
  });

  it('lets nobody edit another person, admins included', async () => {
    const a = await t.session();
    const b = await t.session();
    const admin = await t.session({ admin: true });
    const json = { email: 'intruso@example.cl', genero: 'Otro', telefono: '+56 9 1111 2222' };
    expect((await t.call('PUT', `/api/usuarios/${b.id}/`, { token: a.token, json })).status).toBe(403);
    expect((await t.call('PUT', `/api/usuarios/${b.id}/`, { token: admin.token, json })).status).toBe(403);
    // Even an invalid form is refused for permission first.
    expect((await t.call('PUT', `/api/usuarios/${b.id}/`, { token: a.token, json: {} })).status).toBe(403);
    expect((await t.call('PUT', `/api/usuarios/${a.id}/`, { token: a.token, json: { ...json, usuario: b.id } })).status).toBe(403);
    expect((await t.call('PUT', `/api/usuarios/${a.id}/`, { json })).status).toBe(401);
    expect((await t.findUser(b.email))?.email).toBe(b.email);
  });
});

describe('POST /api/usuarios/{id}/enviar-email/ (contact)', () => {
  it('mails the colleague with the sender as Reply-To, keeps the message and never shows the address', async () => {
    const remitente = await t.session({ nombre: 'Rosa', email: 'rosa.remitente@example.cl' });
    const colega = await t.session({ nombre: 'Luis', email: 'luis.colega@example.cl' });
    const res = await t.call('POST', `/api/usuarios/${remitente.id}/enviar-email/`, {
      token: remitente.token,
      json: {
        id_usuario_receiver: colega.id,
        id_usuario_sender: remitente.id,
        asunto: 'Taller de fracciones',
        mensaje: '¿Compartimos la guía?',
      },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ detail: 'Mensaje enviado!' });
    expect(JSON.stringify(body)).not.toContain('luis.colega');
    const mail = t.mails.at(-1);
    expect(mail).toMatchObject({ to: 'luis.colega@example.cl', replyTo: 'rosa.remitente@example.cl' });
    expect(mail?.subject).toBe('Taller de fracciones — mensaje de Rosa Pérez');
    expect(mail?.text).toContain('¿Compartimos la guía?');
    expect(mail?.text).toContain('Hola Luis:');
    const [guardado] = await t.db.select().from(mensajesContacto).where(eq(mensajesContacto.id_usuario_sender, remitente.id));
    expect(guardado).toMatchObject({ id_usuario_receiver: colega.id, asunto: 'Taller de fracciones', mensaje: '¿Compartimos la guía?' });
  });

  it("validates with the contact form's messages", async () => {
    const a = await t.session();
    const b = await t.session();
    const res = await t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, {
      token: a.token,
      json: { id_usuario_receiver: b.id, asunto: ' ', mensaje: '' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({ asunto: ['Debe ingresar un asunto'], mensaje: ['Debe ingresar un mensaje'] });
  });

  it("cannot be sent in another person's name, to oneself, or to an unknown or inactive account", async () => {
    const a = await t.session();
    const b = await t.session();
    const inactivo = await t.createUser({ activo: false });
    const json = (receiver: number, extra = {}) => ({ id_usuario_receiver: receiver, asunto: 'Hola', mensaje: 'Hola', ...extra });
    expect((await t.call('POST', `/api/usuarios/${b.id}/enviar-email/`, { token: a.token, json: json(b.id) })).status).toBe(403);
    expect(
      (await t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, { token: a.token, json: json(b.id, { id_usuario_sender: b.id }) }))
        .status,
    ).toBe(403);
    expect((await t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, { token: a.token, json: json(a.id) })).status).toBe(400);
    expect((await t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, { token: a.token, json: json(inactivo.id) })).status).toBe(404);
    expect((await t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, { token: a.token, json: json(999999) })).status).toBe(404);
    expect((await t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, { json: json(b.id) })).status).toBe(401);
  });

  it('allows 10 messages per sender per hour, then answers 429 with a clear Spanish sentence', async () => {
    const a = await t.session();
    const b = await t.session();
    const enviar = () =>
      t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, {
        token: a.token,
        json: { id_usuario_receiver: b.id, asunto: 'Hola', mensaje: 'Mensaje' },
      });
    for (let i = 0; i < 10; i++) expect((await enviar()).status).toBe(200);
    const enviados = t.mails.length;
    const bloqueado = await enviar();
    expect(bloqueado.status).toBe(429);
    expect(Number(bloqueado.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await bloqueado.json()).detail).toBe('Enviaste demasiados mensajes en la última hora. Espera 60 minutos antes de enviar otro.');
    expect(t.mails.length).toBe(enviados);
    // Another sender is not affected.
    const c = await t.session();
    expect(
      (
        await t.call('POST', `/api/usuarios/${c.id}/enviar-email/`, {
          token: c.token,
          json: { id_usuario_receiver: b.id, asunto: 'Hola', mensaje: 'Hola' },
        })
      ).status,
    ).toBe(200);
    t.clock.now = new Date(t.clock.now.getTime() + 61 * 60 * 1000);
    try {
      const token = (await t.login(a.email)).access;
      const res = await t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, {
        token,
        json: { id_usuario_receiver: b.id, asunto: 'Otra hora', mensaje: 'Hola' },
      });
      expect(res.status).toBe(200);
    } finally {
      t.clock.now = new Date();
    }
  });
});

describe('POST /api/usuarios/{id}/foto/ and /miniaturas/usuarios (the photo)', () => {
  it('stores a 200x200 WebP and a small one without metadata, and serves them with a versioned URL', async () => {
    const quien = await t.session();
    const original = await jpegConExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await subirFoto(quien, original);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.detail).toBe('Tu foto de perfil se actualizo correctamente!');
    expect(body.foto_perfil).toMatch(new RegExp(`^/miniaturas/usuarios/${quien.id}\\?v=\\w{12}$`));

    const [row] = await t.db.select().from(usuarios).where(eq(usuarios.id, quien.id));
    expect(row?.foto_perfil).toMatch(new RegExp(`^usuarios/${quien.id}/foto-[0-9a-f]{12}\\.webp$`));
    const guardada = await sharp(await guardado(row?.foto_perfil ?? '')).metadata();
    expect(guardada).toMatchObject({ format: 'webp', width: 200, height: 200 });
    expect(guardada.exif).toBeUndefined();
    expect(guardada.icc).toBeUndefined();
    expect(guardada.xmp).toBeUndefined();

    const grande = await t.call('GET', body.foto_perfil, { token: quien.token });
    expect(grande.status).toBe(200);
    expect(grande.headers.get('content-type')).toBe('image/webp');
    expect(grande.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const bytes = Buffer.from(await grande.arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 200, height: 200 });
    expect(bytes.includes(Buffer.from('CamaraDePrueba'))).toBe(false);

    const min = await t.call('GET', `/miniaturas/usuarios_min/${quien.id}`, { token: quien.token });
    expect(min.status).toBe(200);
    // Without the current version the URL may be stale: revalidated.
    expect(min.headers.get('cache-control')).toBe('private, no-cache');
    expect(await sharp(Buffer.from(await min.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });

    // The profile and the directory show the new URL.
    expect((await (await t.call('GET', `/api/usuarios/${quien.id}/`, { token: quien.token })).json()).foto_perfil).toBe(body.foto_perfil);
  });

  it('serves photos to the session cookie (img tags) and answers 404 without a photo', async () => {
    const quien = await t.session();
    const sinFoto = await t.call('GET', `/miniaturas/usuarios/${quien.id}`, { token: quien.token });
    expect(sinFoto.status).toBe(404);
    expect((await t.call('GET', `/miniaturas/usuarios_min/${quien.id}`, { token: quien.token })).status).toBe(404);
    await subirFoto(quien, await jpegConExif(300, 300));
    const cookie = await t.call('GET', `/miniaturas/usuarios/${quien.id}`, { headers: { cookie: `ed_access=${quien.token}` } });
    expect(cookie.status).toBe(200);
    expect((await t.call('GET', `/miniaturas/usuarios/${quien.id}`)).status).toBe(401);
    expect((await t.call('GET', '/miniaturas/usuarios/999999', { token: quien.token })).status).toBe(404);
  });

  it('replaces the old files and gives the new photo a new URL', async () => {
    const quien = await t.session();
    const primera = await (await subirFoto(quien, await jpegConExif())).json();
    const [antes] = await t.db.select().from(usuarios).where(eq(usuarios.id, quien.id));
    const png = await sharp({ create: { width: 250, height: 500, channels: 4, background: { r: 0, g: 120, b: 0, alpha: 1 } } })
      .png()
      .toBuffer();
    const segunda = await (await subirFoto(quien, png, 'foto.png', 'image/png')).json();
    expect(segunda.foto_perfil).not.toBe(primera.foto_perfil);
    expect(await t.storage.size(antes?.foto_perfil ?? '')).toBeNull();
    expect(await t.storage.size((antes?.foto_perfil ?? '').replace('.webp', '-min.webp'))).toBeNull();
    const webp = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#abcdef' } })
      .webp()
      .toBuffer();
    expect((await subirFoto(quien, webp, 'foto.webp', 'image/webp')).status).toBe(201);
    const [despues] = await t.db.select().from(usuarios).where(eq(usuarios.id, quien.id));
    expect(await sharp(await guardado(despues?.foto_perfil ?? '')).metadata()).toMatchObject({ width: 200, height: 200 });
  });

  it('accepts only real JPEG, PNG or WebP images, checked from their bytes', async () => {
    const quien = await t.session();
    const invalida = 'El archivo no es una imagen válida. Debe subir una imagen JPG, PNG o WebP.';
    for (const [data, nombre, tipo] of [
      [pdf(), 'foto.jpg', 'image/jpeg'],
      ['solo texto, no una imagen', 'foto.png', 'image/png'],
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]), 'rota.jpg', 'image/jpeg'],
      [
        await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
        'animada.gif',
        'image/gif',
      ],
    ] as [Buffer | string, string, string][]) {
      const res = await subirFoto(quien, data, nombre, tipo);
      expect(res.status, nombre).toBe(400);
      expect(await res.json()).toMatchObject({ detail: invalida, errors: { foto: [invalida] } });
    }
    const vacio = await t.call('POST', `/api/usuarios/${quien.id}/foto/`, { token: quien.token, body: new FormData() });
    expect(vacio.status).toBe(400);
    expect((await vacio.json()).detail).toBe('Debe subir una imagen');
    const [row] = await t.db.select().from(usuarios).where(eq(usuarios.id, quien.id));
    expect(row?.foto_perfil).toBe('');
  });

  it('refuses images over MAX_IMAGEN_MB with 413', async () => {
    const quien = await t.session();
    const grande = Buffer.concat([await jpegConExif(), Buffer.alloc(3 * 1024 * 1024)]);
    expect((await subirFoto(quien, grande)).status).toBe(413);
  });

  it("never changes another person's photo", async () => {
    const a = await t.session();
    const b = await t.session();
    const admin = await t.session({ admin: true });
    expect((await subirFoto(a, await jpegConExif(), 'f.jpg', 'image/jpeg', b.id)).status).toBe(403);
    expect((await subirFoto(admin, await jpegConExif(), 'f.jpg', 'image/jpeg', b.id)).status).toBe(403);
    expect((await t.call('POST', `/api/usuarios/${b.id}/foto/`, { body: formularioFoto(await jpegConExif()) })).status).toBe(401);
    expect((await t.findUser(b.email))?.foto_perfil).toBe('');
  });
});

describe('GET /api/usuarios/{id}/contenidos-subidos/ (Mis publicaciones)', () => {
  it('lists nothing for a new account', async () => {
    const quien = await t.session();
    const res = await t.call('GET', `/api/usuarios/${quien.id}/contenidos-subidos/`, { token: quien.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ capsulas: [], manuales: [], materialesDocentes: [] });
  });

  it("lists a person's manuals, capsules and materials, newest first; capsules not ready only to the person", async () => {
    const admin = await t.session({ admin: true, nombre: 'Marta' });
    const otro = await t.session();
    const mate = await areaId('MA');
    const subir = async (titulo: string) => {
      const form = new FormData();
      form.set('titulo', titulo);
      form.set('descripcion', 'Descripción');
      form.set('id_area', String(mate.id));
      form.set('archivo', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'm.pdf');
      const res = await t.call('POST', '/api/manuales/', { token: admin.token, body: form });
      expect(res.status).toBe(201);
      return (await res.json()).id as number;
    };
    const m1 = await subir('Primer manual');
    const m2 = await subir('Segundo manual');
    const tipo = { id: (await catalogos(t)).tipo };
    const [unidad] = await t.db.select().from(unidades).where(eq(unidades.id_area, mate.id));
    if (!unidad) throw new Error('catalogues missing');
    const capsula = (titulo: string, estado: 'listo' | 'procesando', minutos: number) =>
      insertarCapsula(t, admin, titulo, {
        descripcion: 'Video',
        estado,
        id_area: mate.id,
        codigo_nivel: unidad.codigo_nivel,
        fecha_creacion: new Date(Date.now() - minutos * 60_000),
      });
    await capsula('Cápsula lista', 'listo', 10);
    await capsula('Cápsula en proceso', 'procesando', 5);
    await insertarMaterial(t, admin, 'Guía de fracciones', {
      descripcion: 'Guía',
      id_area: mate.id,
      codigo_nivel: unidad.codigo_nivel,
      id_unidad: unidad.id,
    });

    const propio = await (await t.call('GET', `/api/usuarios/${admin.id}/contenidos-subidos/`, { token: admin.token })).json();
    expect(propio.manuales.map((m: { id: number }) => m.id)).toEqual([m2, m1]);
    expect(propio.capsulas.map((c: { titulo: string }) => c.titulo)).toEqual(['Cápsula en proceso', 'Cápsula lista']);
    expect(propio.materialesDocentes).toHaveLength(1);
    expect(propio.materialesDocentes[0]).toMatchObject({
      titulo: 'Guía de fracciones',
      id_area: { id: mate.id, nombre: mate.nombre },
      tipo_material_docente: { id: tipo.id },
      id_usuario: { id: admin.id, primer_nombre: 'Marta' },
      likes: [],
      comentarios: 0,
    });
    const ajeno = await (await t.call('GET', `/api/usuarios/${admin.id}/contenidos-subidos/`, { token: otro.token })).json();
    expect(ajeno.capsulas.map((c: { titulo: string }) => c.titulo)).toEqual(['Cápsula lista']);
    expect(ajeno.manuales).toHaveLength(2);
    expect((await t.call('GET', '/api/usuarios/999999/contenidos-subidos/', { token: otro.token })).status).toBe(404);
    expect((await t.call('GET', `/api/usuarios/${admin.id}/contenidos-subidos/`)).status).toBe(401);
  });
});

describe('specialties', () => {
  const agregar = (quien: Sesion, especialidad: unknown, id = quien.id) =>
    t.call('POST', `/api/usuarios/profesores/${id}/especialidades/`, { token: quien.token, json: { especialidad } });
  const quitar = (quien: Sesion, nombre: string, id = quien.id) =>
    t.call('DELETE', `/api/usuarios/profesores/${id}/especialidades/${encodeURIComponent(nombre)}/`, { token: quien.token });

  it('offers the known names A to Z, suggested ones included', async () => {
    const quien = await t.session();
    await agregar(quien, 'Robótica educativa');
    const res = await t.call('GET', '/api/usuarios/profesores/especialidades/', { token: quien.token });
    expect(res.status).toBe(200);
    const nombres: string[] = await res.json();
    expect(nombres).toContain('Robótica educativa');
    expect(nombres).toContain('Educación diferencial');
    expect(nombres).toEqual([...nombres].sort((a, b) => a.localeCompare(b, 'es')));
    expect(new Set(nombres).size).toBe(nombres.length);
    expect((await t.call('GET', '/api/usuarios/profesores/especialidades/')).status).toBe(401);
  });

  it('adds chosen and written specialties up to 5, never twice, and removes them', async () => {
    const quien = await t.session();
    const res = await agregar(quien, 'Educación diferencial');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ colegio: [], titulo_profesional: '', especialidad: ['Educación diferencial'], area: [], nivel: [] });
    // The same name with other case and accents is the same specialty.
    const repetida = await agregar(quien, 'EDUCACION  DIFERENCIAL');
    expect(repetida.status).toBe(400);
    expect((await repetida.json()).errors.especialidad).toHaveLength(1);
    for (const nombre of ['Huerto escolar', 'Ajedrez en el aula', 'Teatro', 'Mediación lectora'])
      expect((await agregar(quien, nombre)).status).toBe(201);
    const sexta = await agregar(quien, 'Una sexta especialidad');
    expect(sexta.status).toBe(400);
    expect((await sexta.json()).detail).toBe('Puede tener hasta 5 especialidades');
    const quitada = await quitar(quien, 'Mediación lectora');
    expect(quitada.status).toBe(200);
    expect((await quitada.json()).especialidad).toEqual(['Ajedrez en el aula', 'Educación diferencial', 'Huerto escolar', 'Teatro']);
    expect((await agregar(quien, 'Una sexta especialidad')).status).toBe(201);
    expect((await quitar(quien, 'No la tengo')).status).toBe(404);
    // Another teacher choosing a written name gets the same specialty, not a copy.
    const otra = await t.session();
    expect(await (await agregar(otra, 'huerto escolar')).json()).toMatchObject({ especialidad: ['Huerto escolar'] });
    const perfil = await (await t.call('GET', `/api/usuarios/${quien.id}/`, { token: otra.token })).json();
    expect(perfil.usuario_asociado.especialidad).toHaveLength(5);
  });

  it("answers SPEC's messages for the name", async () => {
    const quien = await t.session();
    const casos: [unknown, string][] = [
      ['', 'Debe seleccionar un especialidad'],
      ['   ', 'Debe seleccionar un especialidad'],
      [undefined, 'Debe seleccionar un especialidad'],
      ['abc', 'Debe ser mayor a 4 caracteres'],
      ['x'.repeat(100), 'Debe ser menor a 100 caracteres'],
    ];
    for (const [valor, mensaje] of casos) {
      const res = await agregar(quien, valor);
      expect(res.status, String(valor)).toBe(400);
      expect((await res.json()).errors, String(valor)).toEqual({ especialidad: [mensaje] });
    }
    expect((await agregar(quien, 'abcd')).status).toBe(201);
    expect((await agregar(quien, 'y'.repeat(99))).status).toBe(201);
  });

  it('is only for the teacher themself', async () => {
    const a = await t.session();
    const b = await t.session();
    const admin = await t.session({ admin: true });
    expect((await agregar(a, 'Teatro', b.id)).status).toBe(403);
    await agregar(b, 'Teatro');
    expect((await quitar(a, 'Teatro', b.id)).status).toBe(403);
    const sinPerfil = await agregar(admin, 'Teatro');
    expect(sinPerfil.status).toBe(403);
    expect((await sinPerfil.json()).detail).toBe('Solo los docentes con perfil pueden editar especialidades, áreas y niveles');
    // A Profesor whose profile is gone cannot either.
    const c = await t.session();
    await t.db.delete(perfilesDocentes).where(eq(perfilesDocentes.id_usuario, c.id));
    expect((await agregar(c, 'Teatro')).status).toBe(403);
    expect((await t.call('POST', `/api/usuarios/profesores/${a.id}/especialidades/`, { json: { especialidad: 'Teatro' } })).status).toBe(
      401,
    );
  });
});

describe('areas', () => {
  const agregar = (quien: Sesion, area: unknown, id = quien.id) =>
    t.call('POST', `/api/usuarios/profesores/${id}/areas/`, { token: quien.token, json: { area } });
  const quitar = (quien: Sesion, nombre: string, id = quien.id) =>
    t.call('DELETE', `/api/usuarios/profesores/${id}/areas/${encodeURIComponent(nombre)}/`, { token: quien.token });

  it('adds curriculum areas by name, never twice, and removes them', async () => {
    const quien = await t.session();
    const historia = await areaId('HI');
    const res = await agregar(quien, historia.nombre);
    expect(res.status).toBe(201);
    expect((await res.json()).area).toEqual([historia.nombre]);
    expect((await agregar(quien, 'Matemática')).status).toBe(201);
    expect((await agregar(quien, 'matematica')).status).toBe(400);
    const quitada = await quitar(quien, historia.nombre);
    expect(quitada.status).toBe(200);
    expect((await quitada.json()).area).toEqual(['Matemática']);
    expect((await quitar(quien, historia.nombre)).status).toBe(404);
  });

  it("answers 'Debe seleccionar un area' for nothing or an unknown area", async () => {
    const quien = await t.session();
    for (const area of ['', 'Astrología', undefined]) {
      const res = await agregar(quien, area);
      expect(res.status, String(area)).toBe(400);
      expect((await res.json()).errors, String(area)).toEqual({ area: ['Debe seleccionar un area'] });
    }
  });

  it('is only for the teacher themself', async () => {
    const a = await t.session();
    const b = await t.session();
    const admin = await t.session({ admin: true });
    expect((await agregar(a, 'Matemática', b.id)).status).toBe(403);
    await agregar(b, 'Matemática');
    expect((await quitar(a, 'Matemática', b.id)).status).toBe(403);
    expect((await agregar(admin, 'Matemática')).status).toBe(403);
    expect((await t.call('DELETE', `/api/usuarios/profesores/${b.id}/areas/Matem%C3%A1tica/`)).status).toBe(401);
  });
});

describe('levels (issue 21)', () => {
  const agregar = (quien: Sesion, nivel: unknown, id = quien.id) =>
    t.call('POST', `/api/usuarios/profesores/${id}/niveles/`, { token: quien.token, json: { nivel } });
  const quitar = (quien: Sesion, nombre: string, id = quien.id) =>
    t.call('DELETE', `/api/usuarios/profesores/${id}/niveles/${encodeURIComponent(nombre)}/`, { token: quien.token });

  it('adds curriculum levels by name and answers the profile of the contract, levels in school-year order', async () => {
    const quien = await t.session();
    const res = await agregar(quien, '1° medio');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ colegio: [], titulo_profesional: '', especialidad: [], area: [], nivel: ['1° medio'] });
    expect((await agregar(quien, '7° básico')).status).toBe(201);
    // Case and accents aside, as areas: the stored name comes back.
    const ultimo = await agregar(quien, 'primer nivel de transicion');
    expect(ultimo.status).toBe(201);
    // By name '1° medio' would come first; school-year order puts it last.
    expect((await ultimo.json()).nivel).toEqual(['Primer Nivel de Transición', '7° básico', '1° medio']);
    // Everyone who sees the profile sees the levels, in the same order.
    const otro = await t.session();
    const perfil = await (await t.call('GET', `/api/usuarios/${quien.id}/`, { token: otro.token })).json();
    expect(perfil.usuario_asociado.nivel).toEqual(['Primer Nivel de Transición', '7° básico', '1° medio']);
  });

  it('never adds a level twice', async () => {
    const quien = await t.session();
    expect((await agregar(quien, '7° básico')).status).toBe(201);
    const repetido = await agregar(quien, '7° BÁSICO');
    expect(repetido.status).toBe(400);
    const body = await repetido.json();
    expect(body.detail).toBe('El nivel 7° BÁSICO ya está en tu perfil');
    expect(body.errors).toEqual({ nivel: ['El nivel 7° BÁSICO ya está en tu perfil'] });
    const perfil = await (await t.call('GET', `/api/usuarios/${quien.id}/`, { token: quien.token })).json();
    expect(perfil.usuario_asociado.nivel).toEqual(['7° básico']);
  });

  it("answers 'Debe seleccionar un nivel' for nothing or an unknown level", async () => {
    const quien = await t.session();
    for (const nivel of ['', '   ', undefined, '9° básico', 'x'.repeat(201)]) {
      const res = await agregar(quien, nivel);
      expect(res.status, String(nivel)).toBe(400);
      const body = await res.json();
      expect(body.detail, String(nivel)).toBe('Debe seleccionar un nivel');
      expect(body.errors, String(nivel)).toEqual({ nivel: ['Debe seleccionar un nivel'] });
    }
    const perfil = await (await t.call('GET', `/api/usuarios/${quien.id}/`, { token: quien.token })).json();
    expect(perfil.usuario_asociado.nivel).toEqual([]);
  });

  it('removes a level, and answers 404 for one the teacher does not have', async () => {
    const quien = await t.session();
    await agregar(quien, '2° básico');
    await agregar(quien, '3° medio');
    const quitado = await quitar(quien, '2° BASICO');
    expect(quitado.status).toBe(200);
    expect(await quitado.json()).toEqual({ colegio: [], titulo_profesional: '', especialidad: [], area: [], nivel: ['3° medio'] });
    const otraVez = await quitar(quien, '2° básico');
    expect(otraVez.status).toBe(404);
    expect((await otraVez.json()).detail).toBe('El nivel 2° básico no está en tu perfil');
    const desconocido = await quitar(quien, 'Quinto medio');
    expect(desconocido.status).toBe(404);
    expect((await desconocido.json()).detail).toBe('El nivel Quinto medio no está en tu perfil');
  });

  it('is only for the teacher themself, admins included', async () => {
    const a = await t.session();
    const b = await t.session();
    const admin = await t.session({ admin: true });
    expect((await agregar(a, '4° básico', b.id)).status).toBe(403);
    expect((await agregar(b, '4° básico')).status).toBe(201);
    expect((await quitar(a, '4° básico', b.id)).status).toBe(403);
    expect((await agregar(admin, '4° básico', b.id)).status).toBe(403);
    expect((await quitar(admin, '4° básico', b.id)).status).toBe(403);
    const sinPerfil = await agregar(admin, '4° básico');
    expect(sinPerfil.status).toBe(403);
    expect((await sinPerfil.json()).detail).toBe('Solo los docentes con perfil pueden editar especialidades, áreas y niveles');
    expect((await t.call('POST', `/api/usuarios/profesores/${b.id}/niveles/`, { json: { nivel: '4° básico' } })).status).toBe(401);
    expect((await t.call('DELETE', `/api/usuarios/profesores/${b.id}/niveles/4%C2%B0%20b%C3%A1sico/`)).status).toBe(401);
    // Nothing of that changed b's levels.
    const perfil = await (await t.call('GET', `/api/usuarios/${b.id}/`, { token: b.token })).json();
    expect(perfil.usuario_asociado.nivel).toEqual(['4° básico']);
  });

  it("keeps the directory's cards as the contract gives them: schools, title, specialties and areas", async () => {
    const quien = await t.session({ nombre: 'Nivelada' });
    await agregar(quien, '5° básico');
    const res = await t.call('GET', '/api/usuarios/profesores/?profesor=Nivelada', { token: quien.token });
    expect(res.status).toBe(200);
    const [tarjeta] = (await res.json()).profesor;
    expect(Object.keys(tarjeta).sort()).toEqual(['area', 'colegio', 'especialidad', 'titulo_profesional', 'usuario']);
  });
});
