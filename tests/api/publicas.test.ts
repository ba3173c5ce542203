/**
 * Issue 34 point 5, cheap to serve: the public pages' ETag and 304, and the per-address limit of
 * visitors with no session on the public pages and the public files they link, which never counts
 * a request that brings a session (http/publicas.server.ts, api/publico.server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimitePublico } from '../../src/lib/server/auth/limite-publico.server.ts';
import { conEtiqueta, paginaPublica } from '../../src/lib/server/http/publicas.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { camposDeMaterial, type Sesion } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

describe('the limit of one address', () => {
  it('lets `max` requests a window through, then says how long to wait, and starts again with the next window', () => {
    const reloj = { ahora: new Date('2026-11-29T10:00:00Z') };
    const limite = createLimitePublico({ max: 3, ventanaSegundos: 60, now: () => reloj.ahora });
    expect([1, 2, 3].map(() => limite.contar('198.51.100.1'))).toEqual([0, 0, 0]);
    reloj.ahora = new Date('2026-11-29T10:00:20Z');
    expect(limite.contar('198.51.100.1')).toBe(40);
    expect(limite.contar('198.51.100.2')).toBe(0);
    reloj.ahora = new Date('2026-11-29T10:01:00Z');
    expect(limite.contar('198.51.100.1')).toBe(0);
  });

  it('is off with max 0, and forgets the oldest addresses first when it remembers too many', () => {
    const ahora = new Date('2026-11-29T10:00:00Z');
    const apagado = createLimitePublico({ max: 0, ventanaSegundos: 60, now: () => ahora });
    expect(Array.from({ length: 50 }, () => apagado.contar('198.51.100.1')).every((s) => s === 0)).toBe(true);
    const pequeno = createLimitePublico({ max: 1, ventanaSegundos: 60, now: () => ahora, maxDirecciones: 2 });
    pequeno.contar('a');
    pequeno.contar('b');
    expect(pequeno.contar('b')).toBe(60);
    pequeno.contar('c');
    // 'a' was forgotten to make room for 'c'; 'b' is still remembered.
    expect(pequeno.contar('a')).toBe(0);
    expect(pequeno.contar('c')).toBe(60);
  });

  it('a crawler at 50 requests a second for a minute gets the limit and then only refusals', () => {
    const reloj = { ms: Date.parse('2026-11-29T10:00:00Z') };
    const limite = createLimitePublico({ max: 300, ventanaSegundos: 60, now: () => new Date(reloj.ms) });
    let servidas = 0;
    for (let i = 0; i < 50 * 60; i += 1) {
      reloj.ms += 20;
      if (limite.contar('203.0.113.50') === 0) servidas += 1;
    }
    expect(servidas).toBe(300);
  });
});

describe("a public page's answer", () => {
  const html = (texto: string) =>
    new Response(`<!doctype html><title>${texto}</title>`, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
  const pedido = (headers: Record<string, string> = {}) => new Request('http://localhost/explorar/', { headers });
  const sinLimite = createLimitePublico({ max: 0, ventanaSegundos: 60, now: () => new Date() });

  it('carries a weak ETag of its bytes, and is a 304 without a body for a client that has them', async () => {
    const primera = await paginaPublica(pedido(), '198.51.100.1', sinLimite, async () => html('Explorar'));
    const etag = primera.headers.get('etag') ?? '';
    expect(primera.status).toBe(200);
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(await primera.text()).toBe('<!doctype html><title>Explorar</title>');

    for (const enviada of [etag, etag.slice(2), `"otra", ${etag}`, '*']) {
      const otra = await paginaPublica(pedido({ 'if-none-match': enviada }), '198.51.100.1', sinLimite, async () => html('Explorar'));
      expect(otra.status).toBe(304);
      expect(otra.body).toBeNull();
      expect(otra.headers.get('etag')).toBe(etag);
    }
    // The page changed: the old tag no longer matches.
    const cambiada = await paginaPublica(pedido({ 'if-none-match': etag }), '198.51.100.1', sinLimite, async () => html('Explorar 2'));
    expect(cambiada.status).toBe(200);
    expect(cambiada.headers.get('etag')).not.toBe(etag);
  });

  it("a private item's 404 goes out as it is, without a tag", async () => {
    const noExiste = new Response('<!doctype html><title>No encontrada</title>', { status: 404 });
    const res = await conEtiqueta(pedido({ 'if-none-match': '*' }), noExiste);
    expect(res.status).toBe(404);
    expect(res.headers.get('etag')).toBeNull();
  });

  it('over the limit: a 429 with Retry-After and a Spanish page, and nothing rendered', async () => {
    const limite = createLimitePublico({ max: 1, ventanaSegundos: 60, now: () => new Date('2026-11-29T10:00:00Z') });
    let renders = 0;
    const render = async () => {
      renders += 1;
      return html('Explorar');
    };
    expect((await paginaPublica(pedido(), '198.51.100.9', limite, render)).status).toBe(200);
    const rechazo = await paginaPublica(pedido(), '198.51.100.9', limite, render);
    expect(renders).toBe(1);
    expect(rechazo.status).toBe(429);
    expect(rechazo.headers.get('retry-after')).toBe('60');
    expect(rechazo.headers.get('cache-control')).toBe('no-store');
    const texto = await rechazo.text();
    expect(texto).toContain('<html lang="es-CL">');
    expect(texto).toContain('Recibimos demasiadas visitas seguidas desde tu conexión. Espera 60 segundos y vuelve a intentarlo.');
    expect(texto).toContain('<a href="/ingresar/">ingresa</a>');
  });
});

describe('the public files', () => {
  let t: TestApi;
  let ana: Sesion;
  let publico: number;
  let privado: number;

  beforeAll(async () => {
    t = await createTestApi({ publicoPorMinuto: 3 });
    ana = await t.session({ nombre: 'Ana' });
    const campos = await camposDeMaterial(t);
    const subir = async (extra: Record<string, string>) => {
      const body = formData({ ...campos, ...extra }, { data: pdf(1), name: 'guia.pdf' });
      const res = await t.call('POST', '/api/bdocente/', { token: ana.token, body });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    publico = await subir({ licencia: 'CC-BY-4.0', visibilidad: 'publico' });
    privado = await subir({ licencia: 'CC-BY-4.0' });
  });
  afterAll(() => t.close());

  const anonimo = (path: string, clientAddress = '198.51.100.20') => t.call('GET', path, { clientAddress });
  const conSesion = (path: string, clientAddress = '198.51.100.20') =>
    t.call('GET', path, { clientAddress, headers: { cookie: `ed_access=${ana.token}` } });

  it('an address with no session gets PUBLICO_POR_MINUTO a minute, then a 429 in Spanish; a teacher with a session is never counted', async () => {
    const descarga = `/api/bdocente/${publico}/descargar/`;
    // Requests with a session, before and between, do not count.
    for (let i = 0; i < 5; i += 1) expect((await conSesion(descarga)).status).toBe(200);
    expect((await anonimo(descarga)).status).toBe(200);
    expect((await anonimo(`/miniaturas/bdocente/${publico}/`)).status).toBe(200);
    // A private one's file still needs a session, and the anonymous request is counted all the same.
    expect((await anonimo(`/api/bdocente/${privado}/descargar/`)).status).toBe(401);

    const rechazo = await anonimo(descarga);
    expect(rechazo.status).toBe(429);
    expect(rechazo.headers.get('retry-after')).toBe('60');
    expect(rechazo.headers.get('cache-control')).toBe('no-store');
    expect((await rechazo.json()).detail).toBe(
      'Recibimos demasiadas visitas seguidas desde tu conexión. Espera 60 segundos y vuelve a intentarlo.',
    );

    // Meanwhile a teacher at the same address, and a visitor at another, are served.
    expect((await conSesion(descarga)).status).toBe(200);
    expect((await conSesion(`/api/bdocente/${privado}/descargar/`)).status).toBe(200);
    expect((await anonimo(descarga, '198.51.100.21')).status).toBe(200);

    // The next minute the address is served again.
    t.clock.now = new Date(t.clock.now.getTime() + 61_000);
    expect((await anonimo(descarga)).status).toBe(200);
  });

  it('behind a trusted proxy, the forwarded address is the one counted', async () => {
    const descarga = `/api/bdocente/${publico}/descargar/`;
    const porProxy = (cliente: string) =>
      t.call('GET', descarga, { clientAddress: '10.0.0.1', trustProxy: 1, headers: { 'x-forwarded-for': cliente } });
    for (let i = 0; i < 3; i += 1) expect((await porProxy('192.0.2.1')).status).toBe(200);
    expect((await porProxy('192.0.2.1')).status).toBe(429);
    expect((await porProxy('192.0.2.2')).status).toBe(200);
  });
});
