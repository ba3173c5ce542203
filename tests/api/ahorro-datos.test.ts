/**
 * 'Ahorro de datos' (issue 20) through GET/PUT /api/usuarios/{id}/preferencias/: off by default, a
 * partial change that leaves the email preference alone, the owner only, Spanish messages for a
 * bad or empty body and hostile input, and the page user (what pages render with) carrying it at
 * once after a change, without a query of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionCookies } from '../../src/lib/server/http/session.server.ts';
import { sessionFromCookies } from '../../src/lib/server/http/session.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
let ana: { id: number; email: string; token: string };
let luis: { id: number; email: string; token: string };

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
});

afterAll(() => t.close());

const url = (id: number) => `/api/usuarios/${id}/preferencias/`;
const poner = (token: string, id: number, json: unknown) => t.call('PUT', url(id), { token, json });

describe('the data saver preference', () => {
  it('is off by default, beside the email preference', async () => {
    const res = await t.call('GET', url(ana.id), { token: ana.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ preferencia_correo: 'diario', ahorro_datos: false, oculto_directorio: false });
  });

  it('changes alone: the email preference stays as it was, and back', async () => {
    expect((await poner(ana.token, ana.id, { preferencia_correo: 'nunca' })).status).toBe(200);
    const res = await poner(ana.token, ana.id, { ahorro_datos: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ preferencia_correo: 'nunca', ahorro_datos: true, oculto_directorio: false });
    expect(await (await t.call('GET', url(ana.id), { token: ana.token })).json()).toEqual({
      preferencia_correo: 'nunca',
      ahorro_datos: true,
      oculto_directorio: false,
    });
    // Changing the email preference leaves the data saver on.
    expect(await (await poner(ana.token, ana.id, { preferencia_correo: 'cada_vez' })).json()).toEqual({
      preferencia_correo: 'cada_vez',
      ahorro_datos: true,
      oculto_directorio: false,
    });
    expect(await (await poner(ana.token, ana.id, { ahorro_datos: false, preferencia_correo: 'diario' })).json()).toEqual({
      preferencia_correo: 'diario',
      ahorro_datos: false,
      oculto_directorio: false,
    });
  });

  it('is the owner’s only: another person gets 403 and changes nothing; no session, 401', async () => {
    expect((await t.call('GET', url(ana.id), { token: luis.token })).status).toBe(403);
    expect((await poner(luis.token, ana.id, { ahorro_datos: true })).status).toBe(403);
    expect((await t.call('PUT', url(ana.id), { json: { ahorro_datos: true } })).status).toBe(401);
    expect((await (await t.call('GET', url(ana.id), { token: ana.token })).json()).ahorro_datos).toBe(false);
  });

  it('refuses a value that is not a boolean with a Spanish message, and changes nothing', async () => {
    for (const valor of ['true', 'sí', 1, 0, null, [], {}, 'x'.repeat(100_000)]) {
      const res = await poner(ana.token, ana.id, { ahorro_datos: valor });
      expect(res.status, JSON.stringify(valor).slice(0, 20)).toBe(400);
      expect((await res.json()).errors).toEqual({ ahorro_datos: ['Indique sí o no'] });
    }
    expect((await (await t.call('GET', url(ana.id), { token: ana.token })).json()).ahorro_datos).toBe(false);
  });

  it('refuses an empty change, an unknown field alone, and a body that is not JSON', async () => {
    const vacio = await poner(ana.token, ana.id, {});
    expect(vacio.status).toBe(400);
    expect(JSON.stringify(await vacio.json())).toContain('Indique al menos una preferencia');
    expect((await poner(ana.token, ana.id, { ahorro: true })).status).toBe(400);
    for (const body of ['', '{', '\u0000\u00ff binario', 'true']) {
      const res = await t.call('PUT', url(ana.id), { token: ana.token, headers: { 'content-type': 'application/json' }, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('reaches the page user at once after a change (the cached user pages render with)', async () => {
    const { access, refresh } = await t.login(luis.email);
    const cookies: SessionCookies = {
      get: (name) => (name === 'ed_access' ? { value: access } : name === 'ed_refresh' ? { value: refresh } : undefined),
      set: () => undefined,
    };
    const pagina = () => sessionFromCookies({ api: t.api }, cookies);
    expect((await pagina())?.ahorro_datos).toBe(false);
    expect((await poner(access, luis.id, { ahorro_datos: true })).status).toBe(200);
    expect((await pagina())?.ahorro_datos).toBe(true);
    // A renewed session (the access token gone) carries it too.
    const renovada = await sessionFromCookies(
      { api: t.api },
      { get: (n) => (n === 'ed_refresh' ? { value: refresh } : undefined), set: () => undefined },
    );
    expect(renovada?.ahorro_datos).toBe(true);
  });
});
