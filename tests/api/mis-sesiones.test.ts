/**
 * 'Mis sesiones' (issue 32): a person lists their open sessions with browser, system, address and
 * dates, and closes one or all the others; a closed session's token stops working at once; nobody
 * sees or closes another person's sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, PASSWORD, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 13; SM-A146M) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36';

async function ingresar(email: string, agente: string, clientAddress: string): Promise<string> {
  const res = await t.call('POST', '/auth/login/', {
    json: { email, password: PASSWORD },
    headers: { 'user-agent': agente },
    clientAddress,
  });
  expect(res.status).toBe(200);
  return (await res.json()).access;
}

interface Abierta {
  id: string;
  navegador: string;
  sistema: string;
  ip: string | null;
  iniciada: string;
  ultimo_uso: string;
  actual: boolean;
}

async function listar(id: number, token: string): Promise<Abierta[]> {
  const res = await t.call('GET', `/api/usuarios/${id}/sesiones/`, { token });
  expect(res.status).toBe(200);
  return (await res.json()).sesiones;
}

const vive = async (token: string) => (await t.call('GET', '/api/notificaciones/', { token, unchecked: true })).status;

describe('GET and DELETE /api/usuarios/{id}/sesiones/', () => {
  it('lists each open session with its browser, system, address and dates, the asking one marked', async () => {
    const u = await t.createUser();
    const enLaSala = await ingresar(u.email, WINDOWS, '198.51.100.20');
    const enElTelefono = await ingresar(u.email, ANDROID, '203.0.113.99');
    const sesiones = await listar(u.id, enLaSala);
    expect(sesiones).toHaveLength(2);
    const sala = sesiones.find((s) => s.actual);
    const telefono = sesiones.find((s) => !s.actual);
    expect(sala).toMatchObject({ navegador: 'Chrome 131', sistema: 'Windows', ip: '198.51.100.20' });
    expect(telefono).toMatchObject({ navegador: 'Samsung Internet 25', sistema: 'Android', ip: '203.0.113.99' });
    expect(Date.parse(sala?.iniciada ?? '')).not.toBeNaN();
    expect(Date.parse(sala?.ultimo_uso ?? '')).toBeGreaterThanOrEqual(Date.parse(sala?.iniciada ?? ''));
    // From the phone, the phone is the one asking.
    expect((await listar(u.id, enElTelefono)).find((s) => s.actual)?.id).toBe(telefono?.id);
  });

  it('closes one session: its token stops working at once, the others go on; closing it again is a 404', async () => {
    const u = await t.createUser();
    const a = await ingresar(u.email, WINDOWS, '198.51.100.21');
    const b = await ingresar(u.email, ANDROID, '198.51.100.22');
    const idB = (await listar(u.id, a)).find((s) => !s.actual)?.id ?? '';
    expect(await vive(b)).toBe(200);

    const cerrada = await t.call('DELETE', `/api/usuarios/${u.id}/sesiones/${idB}/`, { token: a });
    expect(cerrada.status).toBe(200);
    expect(await cerrada.json()).toEqual({ detail: 'Cerramos 1 sesión', cerradas: 1 });
    expect(await vive(b)).toBe(401);
    expect(await vive(a)).toBe(200);
    expect((await listar(u.id, a)).map((s) => s.actual)).toEqual([true]);

    const otraVez = await t.call('DELETE', `/api/usuarios/${u.id}/sesiones/${idB}/`, { token: a });
    expect(otraVez.status).toBe(404);
    expect((await otraVez.json()).detail).toBe('La sesión no existe o ya estaba cerrada');
  });

  it('closes all the others and keeps the one asking', async () => {
    const u = await t.createUser();
    const yo = await ingresar(u.email, WINDOWS, '198.51.100.23');
    const otras = [await ingresar(u.email, ANDROID, '198.51.100.24'), await ingresar(u.email, ANDROID, '198.51.100.25')];
    const res = await t.call('DELETE', `/api/usuarios/${u.id}/sesiones/`, { token: yo });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ detail: 'Cerramos 2 sesiones', cerradas: 2 });
    for (const token of otras) expect(await vive(token)).toBe(401);
    expect(await vive(yo)).toBe(200);
    const nada = await t.call('DELETE', `/api/usuarios/${u.id}/sesiones/`, { token: yo });
    expect(await nada.json()).toEqual({ detail: 'No había otras sesiones abiertas', cerradas: 0 });
  });

  it("never shows or closes another person's sessions, admins included; a malformed id is a 400", async () => {
    const ana = await t.createUser();
    const tokenAna = await ingresar(ana.email, WINDOWS, '198.51.100.26');
    const idAna = (await listar(ana.id, tokenAna))[0]?.id ?? '';
    const luis = await t.session();
    const admin = await t.session({ admin: true });
    for (const token of [luis.token, admin.token]) {
      expect((await t.call('GET', `/api/usuarios/${ana.id}/sesiones/`, { token })).status).toBe(403);
      expect((await t.call('DELETE', `/api/usuarios/${ana.id}/sesiones/`, { token })).status).toBe(403);
      expect((await t.call('DELETE', `/api/usuarios/${ana.id}/sesiones/${idAna}/`, { token })).status).toBe(403);
    }
    // Ana's session id under Luis's own account closes nothing.
    expect((await t.call('DELETE', `/api/usuarios/${luis.id}/sesiones/${idAna}/`, { token: luis.token })).status).toBe(404);
    expect(await vive(tokenAna)).toBe(200);
    expect((await t.call('GET', `/api/usuarios/${ana.id}/sesiones/`)).status).toBe(401);
    for (const malo of ['%27%20or%201=1', 'a'.repeat(101), '..%2F..']) {
      expect((await t.call('DELETE', `/api/usuarios/${ana.id}/sesiones/${malo}/`, { token: tokenAna })).status).toBe(400);
    }
  });
});
