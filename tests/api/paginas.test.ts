/**
 * Signed-in pages sent again from memory (http/paginas.server.ts, decision 0046): a render is
 * followed through the database's tracker, kept only when it wrote nothing and set no cookie, sent
 * again while none of the tables it read was written, and never to anyone but its person with a
 * session that still holds. The render here stands in for Astro's handler and the page
 * middleware: it reads the database, as pages do, and hands its Response to `locals.pagina`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDeLecturas } from '../../src/lib/server/db/cache.server.ts';
import { cambiosDe, createCambios, type Lectura } from '../../src/lib/server/db/cambios.server.ts';
import { areas, notificaciones, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { createCachePaginas, type PaginaEnCurso } from '../../src/lib/server/http/paginas.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

describe('a followed piece of work', () => {
  it('notes the tables its statements read, those of the read caches it used, and whether it wrote', async () => {
    const cambios = createCambios(false);
    const sql = cambios.conexion();
    const lectura: Lectura = { tablas: new Set(), escribio: false };
    await cambios.seguir(lectura, async () => {
      await Promise.resolve();
      sql('select "id" from "capsulas" left join "usuarios" on "usuarios"."id" = "capsulas"."id_usuario"');
      await new Promise((resolve) => setTimeout(resolve, 1));
      sql('select count(*) from (select 1 from areas where id = $1) x');
      cambios.leyo(['notificaciones']);
    });
    expect([...lectura.tablas].sort()).toEqual(['areas', 'capsulas', 'notificaciones', 'usuarios']);
    expect(lectura.escribio).toBe(false);

    const escribe: Lectura = { tablas: new Set(), escribio: false };
    await cambios.seguir(escribe, async () => sql('update "capsulas" set "n_visitas" = $1'));
    expect(escribe.escribio).toBe(true);
    // Work outside `seguir` notes nothing anywhere.
    sql('select "id" from "foros"');
    expect(lectura.tablas.has('foros')).toBe(false);
  });
});

describe('the page cache', () => {
  let t: TestApi;
  let server: http.Server;
  let url: string;
  let docente: { id: number; email: string; token: string };
  let otro: { id: number; email: string; token: string };
  let renders = 0;
  /** What the next render does besides reading: a write, a cookie, an admin path's answer. */
  let escribirAlRenderizar = false;
  let cookieAlRenderizar = false;
  let cortarAlEnviar = false;
  const reloj = { ms: Date.now() };

  beforeAll(async () => {
    t = await createTestApi();
    docente = await t.session();
    otro = await t.session();
    const cambios = cambiosDe(t.db);
    if (!cambios) throw new Error('the test database reports no statements');
    const avisos = cacheDeLecturas<number>(t.db, { tablas: [notificaciones], segundos: 2, max: 100, now: () => t.clock.now });
    const paginas = createCachePaginas({
      cambios,
      keys: t.api.keys,
      now: () => reloj.ms,
      segundos: 5,
      maxSegundos: 30,
      max: 100,
      maxBytes: 1024 * 1024,
    });
    const render = async (req: http.IncomingMessage, res: http.ServerResponse, locals: { pagina?: PaginaEnCurso }) => {
      renders += 1;
      const id = Number(/sub=(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      const [persona] = await t.db.select({ nombre: usuarios.primer_nombre }).from(usuarios).where(eq(usuarios.id, id));
      const n = await avisos.leer(
        String(id),
        async () => (await t.db.select().from(notificaciones).where(eq(notificaciones.id_usuario, id))).length,
      );
      if (escribirAlRenderizar) await t.db.update(areas).set({ nombre: 'Matemática' }).where(eq(areas.nombre, 'Matemática'));
      if (req.url?.startsWith('/api/')) {
        const cuerpo = Buffer.from(JSON.stringify({ nombre: persona?.nombre, avisos: n, render: renders }));
        const headers = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': String(req.headers['x-request-id']) };
        res.writeHead(200, headers);
        res.end(cuerpo);
        locals.pagina?.guardarJson(200, headers, cuerpo);
        return;
      }
      const html = `<!doctype html><title>${persona?.nombre}</title><p>${n} avisos</p><p>render ${renders}</p>`;
      const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-cache' });
      if (cookieAlRenderizar) headers.append('set-cookie', 'ed_access=nuevo; Path=/');
      const response = new Response(html, { headers });
      const enviada = locals.pagina?.guardar(response, { fijaCookies: false }) ?? response;
      // The client goes away before the answer is written (the body itself is whole).
      if (cortarAlEnviar) return void res.destroy();
      res.writeHead(enviada.status, Object.fromEntries(enviada.headers));
      res.end(Buffer.from(await enviada.arrayBuffer()));
    };
    server = http.createServer((req, res) => {
      void paginas.atender(req, res, (locals) => render(req, res, locals));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const pedir = async (persona: { id: number; token: string }, ruta = '/capsulas/', headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${ruta}${ruta.includes('?') ? '&' : '?'}sub=${persona.id}`, {
      headers: { cookie: `otra=1; ed_access=${persona.token}`, 'accept-encoding': 'identity', ...headers },
    });
    return { status: res.status, hit: res.headers.get('server-timing') === 'cache;desc="hit"', texto: await res.text() };
  };

  it('sends the same page again without rendering it, while nothing it read was written', async () => {
    const primera = await pedir(docente);
    expect(primera).toMatchObject({ status: 200, hit: false });
    const segunda = await pedir(docente);
    expect(segunda).toEqual({ ...primera, hit: true });
    // Another address, another person, another connection type: each its own render.
    expect((await pedir(docente, '/capsulas/?pagina=2')).hit).toBe(false);
    expect((await pedir(otro)).hit).toBe(false);
    expect((await pedir(docente, '/capsulas/', { 'save-data': 'on' })).hit).toBe(false);
    expect((await pedir(docente)).hit).toBe(true);
  });

  it('renders again once a table it read, directly or through a read cache, is written', async () => {
    await pedir(docente);
    expect((await pedir(docente)).hit).toBe(true);
    await t.db.update(usuarios).set({ primer_nombre: 'Ana Luisa' }).where(eq(usuarios.id, docente.id));
    const cambiada = await pedir(docente);
    expect(cambiada).toMatchObject({ hit: false });
    expect(cambiada.texto).toContain('<title>Ana Luisa</title>');
    expect((await pedir(docente)).hit).toBe(true);
    // The count came from a read cache: no statement ran on a reload, and still it is followed.
    await t.db
      .insert(notificaciones)
      .values({ id_usuario: docente.id, tipo: 'me_gusta', recurso_tipo: 'capsula', id_recurso: 1, enlace: '/capsulas/1/' });
    const conAviso = await pedir(docente);
    expect(conAviso.hit).toBe(false);
    expect(conAviso.texto).toContain('1 avisos');
  });

  it('keeps no render that wrote, set a cookie or never reached its client, nor an admin page', async () => {
    escribirAlRenderizar = true;
    await pedir(docente, '/capsulas/?escribe=1');
    expect((await pedir(docente, '/capsulas/?escribe=1')).hit).toBe(false);
    escribirAlRenderizar = false;

    cookieAlRenderizar = true;
    await pedir(docente, '/capsulas/?cookie=1');
    expect((await pedir(docente, '/capsulas/?cookie=1')).hit).toBe(false);
    cookieAlRenderizar = false;

    cortarAlEnviar = true;
    await expect(pedir(docente, '/capsulas/?cortada=1')).rejects.toThrow();
    cortarAlEnviar = false;
    expect((await pedir(docente, '/capsulas/?cortada=1')).hit).toBe(false);

    for (const ruta of ['/admin/usuarios/', '/admin']) {
      await pedir(docente, ruta);
      expect((await pedir(docente, ruta)).hit, ruta).toBe(false);
    }
  });

  it('keeps the JSON reads of the API too, by Bearer token, with the request id of each request', async () => {
    const leer = async (ruta: string, id: string) => {
      const res = await fetch(`${url}${ruta}?sub=${docente.id}`, {
        headers: { authorization: `Bearer ${docente.token}`, 'x-request-id': id },
      });
      return { hit: res.headers.get('server-timing') === 'cache;desc="hit"', id: res.headers.get('x-request-id'), json: await res.json() };
    };
    const primera = await leer('/api/capsulas/', 'primera-0001');
    const segunda = await leer('/api/capsulas/', 'segunda-0002');
    expect(primera.hit).toBe(false);
    expect(segunda).toEqual({ hit: true, id: 'segunda-0002', json: primera.json });
    await leer('/api/admin/usuarios/', 'admin-0003');
    expect((await leer('/api/admin/usuarios/', 'admin-0004')).hit).toBe(false);
  });

  it('asks on every request whether the session still holds, and lets pages age out', async () => {
    const { access, refresh } = await t.login(otro.email);
    const sesion = { id: otro.id, token: access };
    await pedir(sesion, '/foro/');
    expect((await pedir(sesion, '/foro/')).hit).toBe(true);
    expect((await t.call('POST', '/auth/logout/', { json: { refresh } })).status).toBe(200);
    const despues = await pedir(sesion, '/foro/');
    expect(despues.hit).toBe(false);
    // Without a valid access token nothing is kept either: Astro renews or redirects.
    expect((await pedir({ id: otro.id, token: 'no-es-un-token' }, '/foro/')).hit).toBe(false);
    expect((await pedir({ id: otro.id, token: 'no-es-un-token' }, '/foro/')).hit).toBe(false);

    await pedir(docente, '/manuales/');
    expect((await pedir(docente, '/manuales/')).hit).toBe(true);
    reloj.ms += 30_001;
    expect((await pedir(docente, '/manuales/')).hit).toBe(false);
  });
});
