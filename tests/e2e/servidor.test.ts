/**
 * The built server over real HTTP: what only a real process shows (crash safety, the data
 * directory lock, the admin CLI beside a running server, headers, compression).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { signIn } from '../support/client.ts';
import { ADMIN, lastLinkTo, type RunningServer, removeDir, root, runCli, startServer, waitForMail } from '../support/server.ts';

const adminKey = (dataDir: string) =>
  import('node:fs').then((fs) => fs.readFileSync(path.join(dataDir, 'secretos', 'admin-key'), 'utf8').trim());

const invite = (url: string, key: string, email: string) =>
  fetch(`${url}/api/admin/usuarios/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-key': key },
    body: JSON.stringify({ email, nombres: 'Docente', apellidos: 'Prueba' }),
  });

describe('crash safety', () => {
  it('loses no acknowledged write when killed with SIGKILL mid-writes, and opens again', async () => {
    const first = await startServer();
    const key = await adminKey(first.dataDir);
    const acknowledged: string[] = [];
    let n = 0;
    // Writers keep going while the process is killed under them.
    const writers = Array.from({ length: 3 }, async () => {
      for (;;) {
        const email = `crash${n++}@example.cl`;
        try {
          const res = await invite(first.url, key, email);
          if (res.status === 201) acknowledged.push(email);
        } catch {
          return;
        }
      }
    });
    // Killed once enough writes were acknowledged, in the middle of the ones that follow.
    await vi.waitUntil(() => acknowledged.length >= 20, { timeout: 30_000, interval: 20 });
    first.process.kill('SIGKILL');
    await Promise.all(writers);
    await first.stop();
    expect(acknowledged.length).toBeGreaterThan(5);

    const second = await startServer({ dataDir: first.dataDir });
    try {
      const key2 = await adminKey(second.dataDir);
      for (const email of acknowledged) {
        expect((await invite(second.url, key2, email)).status, email).toBe(409);
      }
    } finally {
      await second.stop();
      removeDir(first.dataDir);
    }
  });
});

describe('one process per embedded database', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('refuses a second server on the same DATA_DIR with a clear message', async () => {
    await expect(startServer({ dataDir: server.dataDir })).rejects.toThrow(
      /Another server \(pid \d+, http:\/\/127\.0\.0\.1:\d+\) is already using the data directory/,
    );
  });

  it('lets the admin CLI create an account through the running server', async () => {
    const result = await runCli(
      ['crear', '--email', 'cli@example.cl', '--nombres', 'Rosa Elena', '--apellidos', 'Núñez Vera', '--rut', '12.345.678-5'],
      server.env,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Cuenta creada para cli@example.cl; se envió el correo de activación.\n');
    expect(result.code).toBe(0);
    const mail = await waitForMail(server.dataDir, (m) => m.to === 'cli@example.cl');
    expect(mail?.subject).toBe('Activa tu cuenta en Entre Docentes');
    expect(mail?.link).toMatch(new RegExp(`^${server.url}/activar-cuenta/[\\w-]{43}$`));
    const check = await fetch(`${server.url}/api/usuarios/activar-cuenta/?token=${mail?.link?.split('/').at(-1)}`);
    expect(await check.json()).toEqual({ email: 'cli@example.cl' });
  });

  it('imports a roster: per-line errors, existing emails skipped', async () => {
    const file = path.join(server.dataDir, 'roster.csv');
    const fs = await import('node:fs');
    fs.writeFileSync(
      file,
      'email;nombres;apellidos;colegio\nnuevo1@example.cl;Uno;Apellido;Escuela Básica Los Aromos\ncli@example.cl;Repetida;X;\nno-es-correo;Dos;Y;\n',
    );
    const result = await runCli(['importar', file], server.env);
    expect(result.stdout).toContain('Línea 2: invitado nuevo1@example.cl.');
    expect(result.stdout).toContain(
      'Línea 3: omitido cli@example.cl: Ya existe una cuenta sin activar con ese correo. Para enviarle un nuevo enlace de activación usa «npm run usuarios -- reenviar --email cli@example.cl»',
    );
    expect(result.stderr).toContain('Línea 4: error: Debe ingresar un email válido');
    expect(result.stdout).toContain('1 invitados, 1 omitidos, 1 con errores.');
    expect(result.code).toBe(1);
  });

  it('resends an activation link through the running server: the old link stops working', async () => {
    const viejo = await lastLinkTo(server.dataDir, 'cli@example.cl');
    const result = await runCli(['reenviar', '--email', 'cli@example.cl'], server.env);
    expect(result).toMatchObject({
      code: 0,
      stdout: 'Se envió un nuevo enlace de activación a cli@example.cl; el anterior ya no funciona.\n',
    });
    const nuevo = (await waitForMail(server.dataDir, (m) => m.to === 'cli@example.cl' && m.link !== viejo)).link ?? '';
    const estado = async (link: string) =>
      (await fetch(`${server.url}/api/usuarios/activar-cuenta/?token=${link.split('/').at(-1)}`)).status;
    expect([await estado(viejo), await estado(nuevo)]).toEqual([404, 200]);
  });

  it('accepts a multipart POST from a script with no Origin header', async () => {
    const form = new FormData();
    form.set('email', 'multipart@example.cl');
    form.set('nombres', 'Multi');
    form.set('apellidos', 'Parte');
    const res = await fetch(`${server.url}/api/admin/usuarios/`, {
      method: 'POST',
      headers: { 'x-admin-key': await adminKey(server.dataDir) },
      body: form,
    });
    expect(res.status).toBe(201);
  });
});

describe('HTTP behaviour of the shared server', () => {
  const url = () => inject('baseUrl');

  it('answers unknown API routes with a JSON 404 and reports health', async () => {
    const res = await fetch(`${url()}/api/nada/`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: 404 });
    expect(await (await fetch(`${url()}/healthz`)).json()).toEqual({ status: 'ok', db: true, razones: [] });
    expect(await (await fetch(`${url()}/healthz/detalle`)).json()).toMatchObject({ status: 'ok', db: true, jobs: true, razones: [] });
  });

  it('compresses API responses and keeps them out of shared caches', async () => {
    const res = await fetch(`${url()}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
      body: JSON.stringify(ADMIN),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);
    expect((await res.json()).usuario.email).toBe(ADMIN.email);
  });

  it('sends a signed-in page again from memory until what it shows changes, and never after sign-out (decision 0046)', async () => {
    const sesion = await signIn(url(), ADMIN);
    const pagina = () => fetch(`${url()}/perfil/editar`, { headers: { cookie: sesion.cookie }, redirect: 'manual' });
    const ahorro = (html: string) => /<input[^>]*name="ahorro_datos"[^>]*checked/.test(html);
    const preferencia = (valor: boolean) =>
      fetch(`${url()}/api/usuarios/${sesion.usuarioId}/preferencias/`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${sesion.access}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ahorro_datos: valor }),
      });
    expect((await preferencia(false)).status).toBe(200);
    const primera = await pagina();
    expect(primera.status).toBe(200);
    const html = await primera.text();
    expect(ahorro(html)).toBe(false);
    const segunda = await pagina();
    expect(segunda.headers.get('server-timing')).toBe('cache;desc="hit"');
    expect(await segunda.text()).toBe(html);

    // The person's own change shows on the very next request.
    expect((await preferencia(true)).status).toBe(200);
    const cambiada = await pagina();
    expect(cambiada.headers.get('server-timing')).toBeNull();
    expect(ahorro(await cambiada.text())).toBe(true);
    expect((await pagina()).headers.get('server-timing')).toBe('cache;desc="hit"');
    expect((await preferencia(false)).status).toBe(200);

    // Signed out: the same cookies get the sign-in page, not the page kept for them.
    const refresh = /ed_refresh=([^;]+)/.exec(sesion.cookie)?.[1];
    const salida = await fetch(`${url()}/auth/logout/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh }),
    });
    expect(salida.status).toBe(200);
    const despues = await pagina();
    expect(despues.status).toBe(302);
    expect(despues.headers.get('location')).toMatch(/^\/ingresar\//);
  });

  it('caches hashed assets for a year and serves them precompressed', async () => {
    const assets = readdirSync(path.join(root, 'dist/client/_astro')).filter((f) => /\.(js|css)$/.test(f));
    expect(assets.length).toBeGreaterThan(0);
    const res = await fetch(`${url()}/_astro/${assets[0]}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await fetch(`${url()}/_astro/${assets[0]}`, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it('serves every built file to many clients at once, never a 404 (issue 15)', async () => {
    const client = path.join(root, 'dist/client');
    const files = readdirSync(client, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !/\.(br|gz)$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name));
    expect(files.length).toBeGreaterThan(20);
    const urls = files.map((f) => `/${path.relative(client, f).split(path.sep).map(encodeURIComponent).join('/')}`);
    const sizes = new Map(files.map((f, i) => [urls[i], statSync(f).size]));
    // Three rounds through every file, 32 requests in flight, half of them accepting brotli.
    const total = urls.length * 3;
    let next = 0;
    const wrong: string[] = [];
    const cliente = async () => {
      for (let i = next++; i < total; i = next++) {
        const u = urls[i % urls.length] ?? '/';
        const res = await fetch(`${url()}${u}`, { headers: { 'accept-encoding': i % 2 ? 'br' : 'identity' } });
        const body = await res.arrayBuffer();
        if (res.status !== 200) wrong.push(`${u}: ${res.status}`);
        else if (i % 2 === 0 && body.byteLength !== sizes.get(u))
          wrong.push(`${u}: ${body.byteLength} bytes, the file has ${sizes.get(u)}`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, cliente));
    expect(wrong).toEqual([]);
  });
});
