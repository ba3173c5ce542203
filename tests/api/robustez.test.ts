import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
let token: string;
beforeAll(async () => {
  t = await createTestApi();
  const user = await t.createUser();
  token = (await t.login(user.email)).access;
});
afterAll(() => t.close());

describe('bad input never becomes a 500', () => {
  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.call('GET', '/api/no-existe/', { unchecked: true });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ detail: 'No existe el recurso GET /api/no-existe/', statusCode: 404 });
  });

  it('rejects malformed JSON and unsupported bodies with 400/415', async () => {
    const broken = await t.call('POST', '/auth/login/', { body: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect((await broken.json()).detail).toBe('El cuerpo de la solicitud no es un JSON válido');
    const xml = await t.call('POST', '/auth/login/', { body: '<x/>', headers: { 'content-type': 'application/xml' } });
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
        const res = await t.call('POST', path, { json, token, headers: { 'x-admin-key': 'nope' } });
        expect(res.status, JSON.stringify(json)).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    });
  }

  it('logout and renewal take odd bodies without failing (their token is optional)', async () => {
    for (const path of ['/auth/logout/', '/auth/renovar_token/']) {
      for (const json of garbage) {
        const res = await t.call('POST', path, { json });
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
        const res = await t.call('GET', `${path}?${q}`, { token });
        expect([200, 400], `${path}?${q}`).toContain(res.status);
      }
    }
  });

  it('reports health', async () => {
    const res = await t.call('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: true, jobs: true });
  });
});

describe('body size', () => {
  it('refuses JSON bodies over 1 MB with 413 while reading them', async () => {
    const huge = JSON.stringify({ email: 'a@b.cl', password: 'x'.repeat(1024 * 1024) });
    const res = await t.call('POST', '/auth/login/', { body: huge, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toBe('El contenido enviado es demasiado grande');
  });
});
