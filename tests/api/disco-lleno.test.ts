/**
 * A full disk loses nothing (issue 28 item 6): when the files' disk refuses a write, an upload
 * fails with a clear Spanish message (507, never 'El formulario enviado no es válido' or a 500),
 * the database is left as before, nothing half-written stays, and the server keeps serving what
 * it has. The disk is a 2 MB tmpfs the test mounts (as root, like the whole suite). A bucket that
 * stops answering is the server's fault too (503).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas, manuales } from '../../src/lib/server/db/schema.server.ts';
import { ALMACENAMIENTO_NO_RESPONDE, SIN_ESPACIO_ARCHIVO } from '../../src/lib/server/storage/fallas.server.ts';
import { createStorage } from '../../src/lib/server/storage/storage.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { S3_CREDENTIALS, startS3 } from '../support/s3.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-disco-lleno-'));
let t: TestApi;
let admin: string;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };

beforeAll(async () => {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]);
  t = await createTestApi({ filesDir: dir });
  admin = (await t.session({ admin: true })).token;
});
afterAll(async () => {
  await t?.close();
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
});

async function subirManual(bytes: Buffer, api = t, token = admin) {
  const [ma] = await api.db.select().from(areas).where(eq(areas.codigo, 'MA'));
  return api.call('POST', '/api/manuales/', {
    token,
    body: formData(
      { titulo: 'Manual', descripcion: 'Un manual', id_area: String(ma?.id) },
      { data: bytes, name: 'manual.pdf', type: 'application/pdf' },
    ),
  });
}

/** Every file under the disk, temporary ones and resumable uploads' chunks included. */
const archivos = () =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

describe('a full disk', () => {
  it('refuses a form upload with 507 and a clear message, keeps the database as it was, and serves on', async () => {
    const res = await subirManual(pdf(1, 3 * 1024 * 1024));
    expect(res.status).toBe(507);
    expect((await res.json()).detail).toBe(SIN_ESPACIO_ARCHIVO);
    expect(await t.db.select().from(manuales)).toEqual([]);
    expect(archivos()).toEqual([]);

    // What fits is still taken, and what is stored is still served.
    const pequeno = await subirManual(pdf(2));
    expect(pequeno.status, await pequeno.clone().text()).toBe(201);
    const { id } = await pequeno.json();
    expect((await t.call('GET', '/api/manuales/', { token: admin })).status).toBe(200);
    const leer = await t.call('GET', `/api/manuales/${id}/leer/`, { token: admin });
    expect(leer.status).toBe(200);
    expect(
      Buffer.from(await leer.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('refuses a resumable chunk with 507 and a clear message; what arrived before stays, to go on once there is room', async () => {
    const largo = 3 * 1024 * 1024;
    const creada = await t.call('POST', '/api/subidas/', {
      token: admin,
      headers: { ...TUS, 'upload-length': String(largo), 'upload-metadata': `filename ${b64('manual.pdf')},destino ${b64('manual')}` },
    });
    expect(creada.status, await creada.clone().text()).toBe(201);
    const url = `${creada.headers.get('location')}/`;
    const res = await t.call('PATCH', url, {
      token: admin,
      body: new Uint8Array(pdf(1, largo - 600).subarray(0, largo)),
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    expect(res.status).toBe(507);
    expect((await res.json()).detail).toBe(SIN_ESPACIO_ARCHIVO);
    const estado = await t.call('HEAD', url, { token: admin, headers: TUS });
    expect(estado.status).toBe(200);
    expect(Number(estado.headers.get('upload-offset'))).toBeLessThan(largo);
    expect((await t.call('GET', '/api/manuales/', { token: admin })).status).toBe(200);
  });
});

describe('a bucket that does not answer', () => {
  it('refuses an upload with 503 and a clear message, and leaves the database as it was', async () => {
    Object.assign(process.env, S3_CREDENTIALS);
    const s3 = await startS3();
    const b = await createTestApi({ storage: (filesDir) => createStorage({ url: s3.url, filesDir }) });
    try {
      const token = (await b.session({ admin: true })).token;
      expect((await subirManual(pdf(1), b, token)).status).toBe(201);
      await s3.close();
      const res = await subirManual(pdf(2), b, token);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('60');
      expect((await res.json()).detail).toBe(ALMACENAMIENTO_NO_RESPONDE);
      expect(await b.db.select().from(manuales)).toHaveLength(1);
      expect((await b.call('GET', '/api/manuales/', { token })).status).toBe(200);
    } finally {
      await b.close();
    }
  });
});
