import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXTO_NO_PERMITIDO } from '../../src/lib/validation/texto.ts';
import { type CallOptions, createTestApi, type TestApi } from '../support/api.ts';
import { formData } from '../support/form.ts';

let t: TestApi;
let token: string;
let userId: number;
let admin: { id: number; token: string };
beforeAll(async () => {
  t = await createTestApi();
  const user = await t.createUser();
  userId = user.id;
  token = (await t.login(user.email)).access;
  admin = await t.session({ admin: true });
});
afterAll(() => t.close());

/** Library English a person must never read (zod's and Hono's defaults). */
const ENGLISH = /Invalid input|expected|received|Not Found|Method Not Allowed|Bad Request|Malformed/;
let checkedBodies = 0;

/** t.call, and no answer of this file speaks library English. */
async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const res = await t.call(method, path, options);
  const text = await res.clone().text();
  expect(text, `${method} ${path}`).not.toMatch(ENGLISH);
  checkedBodies++;
  return res;
}

/** A 400 in the error shape naming `field` with the text rule's message. */
async function expectRefusedText(res: Response, field: string, what: string) {
  expect(res.status, what).toBe(400);
  const body = await res.json();
  expect(body.detail, what).toBe(TEXTO_NO_PERMITIDO);
  expect(body.statusCode).toBe(400);
  expect(body.errors?.[field], what).toEqual([TEXTO_NO_PERMITIDO]);
}

/** NUL, other controls and lone surrogates, as a client can send them. */
const REFUSED = ['a\u0000b', '\u0000', 'x\u0007', '\u001b[31m', 'a\u007fb', 'a\u0085b', '\ud800', 'z\udc00'];

describe('bad input never becomes a 500', () => {
  it('answers unknown API routes with a JSON 404', async () => {
    const res = await call('GET', '/api/no-existe/', { unchecked: true });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ detail: 'No existe el recurso GET /api/no-existe/', statusCode: 404 });
  });

  it('rejects malformed JSON and unsupported bodies with 400/415', async () => {
    const broken = await call('POST', '/auth/login/', { body: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect((await broken.json()).detail).toBe('El cuerpo de la solicitud no es un JSON válido');
    const xml = await call('POST', '/auth/login/', { body: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
  });

  const garbage: unknown[] = [
    null,
    42,
    'texto',
    [],
    [1, 2],
    { email: ['a'], password: { x: 1 } },
    { token: 'x'.repeat(10_000) },
    { email: '\u0000@x.cl', password: '\ud800' },
  ];
  const withRequiredFields = [
    '/auth/login/',
    '/api/usuarios/activar-cuenta/',
    '/api/usuarios/recuperar-cuenta/',
    '/api/usuarios/cambiar-contrasena/',
    '/api/admin/usuarios/',
    '/api/usuarios/1/enviar-email-ayuda/',
  ];
  for (const path of withRequiredFields) {
    it(`POST ${path} answers every odd body with a 4xx`, async () => {
      for (const json of garbage) {
        const res = await call('POST', path, { json, token, headers: { 'x-admin-key': 'nope' } });
        expect(res.status, JSON.stringify(json)).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    });
  }

  it('logout and renewal take odd bodies without failing (their token is optional)', async () => {
    for (const path of ['/auth/logout/', '/auth/renovar_token/']) {
      for (const json of garbage) {
        const res = await call('POST', path, { json });
        expect([200, 400, 401], `${path} ${JSON.stringify(json)}`).toContain(res.status);
      }
    }
  });

  it('GET lookups with odd query strings answer 200 or 400', async () => {
    for (const q of ['area=1e99', 'area=%00', `nivel=${'x'.repeat(500)}`, 'area=1&area=2', 'unidad=9999999999999']) {
      for (const path of [
        '/api/curriculum_escolar/areas/',
        '/api/curriculum_escolar/niveles/',
        '/api/curriculum_escolar/unidades/',
        '/api/curriculum_escolar/oas/',
      ]) {
        const res = await call('GET', `${path}?${q}`, { token });
        expect([200, 400], `${path}?${q}`).toContain(res.status);
      }
    }
  });

  it('reports health', async () => {
    const res = await call('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: true, razones: [] });
    const detalle = await call('GET', '/healthz/detalle', { clientAddress: '127.0.0.1' });
    expect(detalle.status).toBe(200);
    expect(await detalle.json()).toMatchObject({ status: 'ok', db: true, jobs: true, razones: [] });
  });
});

describe('body size', () => {
  it('refuses JSON bodies over 1 MB with 413 while reading them', async () => {
    const huge = JSON.stringify({ email: 'a@b.cl', password: 'x'.repeat(1024 * 1024) });
    const res = await call('POST', '/auth/login/', { body: huge, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toBe('El contenido enviado es demasiado grande');
  });
});

describe('one rule for text: control characters are a 400 naming the field', () => {
  it('in JSON bodies: login, forum post, comment, profile edit, help message', async () => {
    const forms: Array<[string, string, string, (v: string) => object, string?]> = [
      ['POST', '/auth/login/', 'email', (v) => ({ email: `ana${v}@x.cl`, password: 'x' })],
      ['POST', '/auth/login/', 'password', (v) => ({ email: 'ana@x.cl', password: v })],
      ['POST', '/api/foro/conversacion/nueva/', 'titulo', (v) => ({ id_usuario: userId, id_categoria: 1, titulo: v, contenido: 'Hola' })],
      ['POST', '/api/capsulas/comentarios/', 'contenido', (v) => ({ id_capsula: 1, contenido: v })],
      ['PUT', `/api/usuarios/${userId}/`, 'telefono', (v) => ({ email: 'ana@x.cl', genero: 'Otro', telefono: v })],
      ['POST', `/api/usuarios/${userId}/enviar-email-ayuda/`, 'mensaje', (v) => ({ asunto: 'Ayuda', mensaje: v })],
    ];
    for (const [method, path, field, body] of forms) {
      for (const v of REFUSED)
        await expectRefusedText(await call(method, path, { token, json: body(v) }), field, `${path} ${JSON.stringify(v)}`);
    }
    // Tab and line breaks are text.
    const ok = await call('POST', '/api/foro/conversacion/nueva/', {
      token,
      json: { id_usuario: userId, id_categoria: 1, titulo: 'a\tb', contenido: 'x\r\ny' },
    });
    expect(ok.status).not.toBe(400);
  });

  it('in keys, nested values and array elements', async () => {
    await expectRefusedText(await call('POST', '/auth/login/', { json: { 'email\u0000': 'x' } }), 'email\u0000', 'key');
    await expectRefusedText(await call('PUT', '/api/bdocente/', { token, json: { id: 1, oas: ['1', '\u0000'] } }), 'oas', 'array');
  });

  it('in urlencoded and multipart forms (material upload, forum category)', async () => {
    const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
    await expectRefusedText(
      await call('POST', '/api/usuarios/recuperar-cuenta/', { body: 'email=a%00%40x.cl', headers: urlencoded }),
      'email',
      'form',
    );
    const material = {
      id_area: '1',
      id_nivel: '1B',
      id_unidad: '1',
      oas: ['1'],
      titulo: 'T\u0000',
      descripcion: 'd',
      tipo_material_docente: '1',
    };
    await expectRefusedText(
      await call('POST', '/api/bdocente/', { token, body: formData(material, { data: '%PDF-1.4', name: 'a.pdf' }) }),
      'titulo',
      'material',
    );
    // A lone surrogate cannot travel in UTF-8 (the client sends U+FFFD): a control character can.
    const categoria = { nombre: 'Cat\u0001', descripcion: 'd', activa: 'true' };
    await expectRefusedText(
      await call('POST', '/api/foro/categorias/', { token: admin.token, body: formData(categoria) }),
      'nombre',
      'categoria',
    );
  });

  it('in the query strings of every list and lookup', async () => {
    const lists: Array<[string, string]> = [
      ['/api/capsulas/', 'titulo'],
      ['/api/manuales/', 'titulo'],
      ['/api/bdocente/', 'titulo'],
      ['/api/usuarios/profesores/', 'profesor'],
      ['/api/foro/categorias/', 'nombre'],
      ['/api/foro/categorias/1/conversaciones/', 'palabra_clave'],
      ['/api/foro/categorias/1/conversaciones/', 'fecha_desde'],
      ['/api/bdocente/', 'id_nivel'],
      ['/api/capsulas/', 'nivel'],
      ['/api/curriculum_escolar/areas/', 'nivel'],
      ['/api/usuarios/activar-cuenta/', 'token'],
    ];
    for (const [path, field] of lists) {
      for (const v of ['%00', 'a%01b', '%7F', '%C2%85']) {
        await expectRefusedText(await call('GET', `${path}?${field}=${v}`, { token }), field, `${path}?${field}=${v}`);
      }
    }
  });

  it('in path parameters', async () => {
    await expectRefusedText(
      await call('DELETE', `/api/usuarios/profesores/${userId}/especialidades/a%00b/`, { token }),
      'nombre',
      'especialidad',
    );
    await expectRefusedText(await call('GET', '/api/usuarios/cambiar-contrasena/x%00y'), 'token', 'token');
    const streaming = await call('GET', '/streaming/1/a%00.ts', { token, unchecked: true });
    expect(streaming.status).toBe(400);
    expect((await streaming.json()).detail).toBe(TEXTO_NO_PERMITIDO);
  });
});

describe('integers the database cannot hold are a 400, never a 500', () => {
  const bad = ['99999999999999999999', '2147483648', '-1', '0', '1e400', '1.5', '0x10', 'abc', '%20'];

  it('ids in paths', async () => {
    const paths = [
      '/api/capsulas/{}/',
      '/api/manuales/{}/',
      '/api/bdocente/{}/',
      '/api/foro/conversacion/{}/',
      '/api/foro/categorias/{}/',
      '/api/capsulas/comentarios/{}/',
    ];
    for (const template of paths) {
      for (const v of bad) {
        const res = await call('GET', template.replace('{}', v), { token });
        expect(res.status, `${template} ${v}`).toBe(400);
        expect((await res.json()).detail).toBe('Identificador no válido');
      }
    }
    // User ids only match digits: anything else is no route at all.
    expect((await call('GET', '/api/usuarios/99999999999999999999/', { token })).status).toBe(400);
    expect((await call('GET', '/api/usuarios/0x10/', { token, unchecked: true })).status).toBe(404);
  });

  it('ids in query strings (list filters and lookups), placeholders aside', async () => {
    for (const v of bad.filter((b) => b !== '-1' && b !== '0' && b !== '%20')) {
      for (const [path, field] of [
        ['/api/bdocente/', 'id_area'],
        ['/api/capsulas/', 'area'],
        ['/api/manuales/', 'area'],
        ['/api/usuarios/profesores/', 'colegio'],
        ['/api/capsulas/procesando/', 'usuario_id'],
      ]) {
        const res = await call('GET', `${path}?${field}=${v}`, { token });
        expect(res.status, `${path}?${field}=${v}`).toBe(400);
        expect((await res.json()).errors?.[field as string]).toEqual(['Filtro no válido']);
      }
    }
    for (const v of bad) {
      const res = await call('GET', `/api/curriculum_escolar/oas/?unidad=${v}`, { token });
      expect(res.status, v).toBe(400);
      expect((await res.json()).detail).toBe('Unidad no válida');
    }
    // Placeholders still mean 'no filter'; page numbers and sizes out of place still mean the default.
    expect(
      (await call('GET', '/api/bdocente/?id_area=-1&id_unidad=0&pagina=99999999999999999999&tamano_pagina=1e400', { token })).status,
    ).toBe(200);
  });

  it('ids in bodies: JSON numbers, digits in forms, multipart fields', async () => {
    for (const raw of ['99999999999999999999', '1e400', '-1', '1.5', '"0x10"', 'true']) {
      const body = `{"id_conversacion": ${raw}, "id_like": 1, "action": "like"}`;
      const res = await call('POST', '/api/foro/conversacion/like/', { token, body, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(400);
      expect((await res.json()).errors?.id_conversacion).toEqual(['Conversación no válida']);
    }
    const edit = { id: '1', titulo: 't', descripcion: 'd', id_area: '99999999999999999999' };
    const manual = await call('PUT', '/api/manuales/', { token: admin.token, json: edit });
    expect(manual.status).toBe(400);
    expect((await manual.json()).errors?.id_area).toEqual(['Debe ingresar una area']);
    const material = {
      id_area: '99999999999999999999',
      id_nivel: '1B',
      id_unidad: '1',
      oas: ['1'],
      titulo: 'T',
      descripcion: 'd',
      tipo_material_docente: '1',
    };
    const upload = await call('POST', '/api/bdocente/', { token, body: formData(material, { data: '%PDF-1.4', name: 'a.pdf' }) });
    expect(upload.status).toBe(400);
    expect((await upload.json()).errors?.id_area).toEqual(['Debe ingresar una area']);
  });
});

describe('Spanish everywhere', () => {
  it('a body that is not an object says so', async () => {
    for (const json of [[], [1], 'texto', 42, null, true]) {
      for (const path of ['/auth/login/', '/auth/logout/', '/api/admin/usuarios/']) {
        const res = await call('POST', path, { json, headers: { 'x-admin-key': 'nope' }, token: admin.token });
        if (path === '/api/admin/usuarios/' && res.status === 403) continue;
        expect(res.status, `${path} ${JSON.stringify(json)}`).toBe(400);
        expect((await res.json()).detail).toBe('El cuerpo de la solicitud debe ser un objeto JSON');
      }
    }
  });

  it('a field of the wrong type gets zod in Spanish', async () => {
    const logout = await call('POST', '/auth/logout/', { json: { refresh: true } });
    expect(logout.status).toBe(400);
    expect((await logout.json()).errors?.refresh).toEqual(['Entrada inválida: se esperaba texto, recibido booleano']);
    const crear = await call('POST', '/api/admin/usuarios/', {
      token: admin.token,
      json: { email: true, nombres: 1, apellidos: [], admin: 'quizá' },
    });
    expect(crear.status).toBe(400);
    const body = await crear.json();
    expect(Object.keys(body.errors)).toEqual(expect.arrayContaining(['email', 'nombres', 'apellidos', 'admin']));
  });

  it('no answer of this suite spoke library English', () => {
    expect(checkedBodies).toBeGreaterThan(300);
  });
});

describe('unknown paths and methods', () => {
  async function expectShape(res: Response, status: number, detail: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ detail, statusCode: status });
  }

  it('answer 404 under every prefix, in the error shape', async () => {
    for (const path of ['/api/nada/', '/auth/nada/', '/streaming/', '/streaming/1/', '/miniaturas/nada/1/', '/api/usuarios/abc/']) {
      await expectShape(await call('GET', path, { unchecked: true, token }), 404, `No existe el recurso GET ${path}`);
    }
  });

  it('answer 405 with Allow for a known path and another method', async () => {
    const cases: Array<[string, string, string]> = [
      ['PUT', '/auth/login/', 'POST, OPTIONS'],
      ['GET', '/auth/logout/', 'POST, OPTIONS'],
      ['DELETE', '/api/capsulas/', 'GET, HEAD, POST, PUT, OPTIONS'],
      ['PATCH', '/api/capsulas/1/', 'GET, HEAD, DELETE, OPTIONS'],
      ['POST', '/miniaturas/capsulas/1/', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/streaming/1/index.m3u8', 'GET, HEAD, OPTIONS'],
      ['POST', '/healthz', 'GET, HEAD, OPTIONS'],
      ['PUT', `/api/usuarios/profesores/${userId}/areas/`, 'POST, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await call(method, path, { unchecked: true, token });
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      await expectShape(res, 405, `El método ${method} no está permitido en ${path}`);
    }
  });

  it('HEAD follows GET; OPTIONS lists the methods', async () => {
    const head = await call('HEAD', '/api/metodologias/', { unchecked: true, token });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = await call('OPTIONS', '/api/capsulas/1/', { unchecked: true });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
    expect((await call('OPTIONS', '/api/nada/', { unchecked: true })).status).toBe(404);
  });
});
