/**
 * The built client's files (http/static.server.ts) served from memory: a directory replaced under
 * a running server (what `npm run build` does) does not turn its files into 404s. The browser
 * suite hammers the real build (tests/e2e/servidor.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler } from '../../src/lib/server/http/static.server.ts';

let dir: string;
let server: http.Server;
let url: string;
const CSS = 'body { color: #123456; }\n'.repeat(40);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ed-estaticos-'));
  const client = path.join(dir, 'client');
  mkdirSync(path.join(client, '_astro'), { recursive: true });
  mkdirSync(path.join(client, 'ingresar'), { recursive: true });
  writeFileSync(path.join(client, '_astro', 'app.abc123.css'), CSS);
  writeFileSync(path.join(client, '_astro', 'app.abc123.css.br'), brotliCompressSync(CSS));
  writeFileSync(path.join(client, 'ingresar', 'index.html'), '<!doctype html><title>Ingresar</title>');
  writeFileSync(path.join(client, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const serveStatic = createStaticHandler(client);
  server = http.createServer((req, res) => {
    void serveStatic(req, res).then((served) => {
      if (!served) res.writeHead(404).end('no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('built files', () => {
  it('are served with their variants, and stay served when the directory is emptied under the server', async () => {
    const css = await fetch(`${url}/_astro/app.abc123.css`, { headers: { 'accept-encoding': 'br' } });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-encoding')).toBe('br');
    expect(await css.text()).toBe(CSS);

    // What a build does first: the client directory goes away.
    rmSync(path.join(dir, 'client'), { recursive: true, force: true });
    const paths = ['/_astro/app.abc123.css', '/ingresar/', '/favicon.svg'];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${url}${paths[i % paths.length]}`).then(async (r) => ({ status: r.status, body: await r.text() })),
      ),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(answers[0]?.body).toBe(CSS);
    expect(answers[1]?.body).toContain('<title>Ingresar</title>');
    expect((await fetch(`${url}/_astro/otro.css`)).status).toBe(404);
  });
});
