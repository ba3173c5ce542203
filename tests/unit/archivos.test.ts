import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/server/api/errors.server.ts';
import { contentDisposition, fileResponse } from '../../src/lib/server/http/file-response.server.ts';
import { receiveUpload } from '../../src/lib/server/http/upload.server.ts';
import { sniffFile } from '../../src/lib/server/media/sniff.server.ts';
import { createDiskStorage } from '../../src/lib/server/storage/storage.server.ts';
import { removeDir } from '../support/server.ts';
import { zip } from '../support/zip.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-archivos-'));
afterAll(() => removeDir(dir));
const file = (name: string, data: Buffer | string) => {
  const p = path.join(dir, name);
  writeFileSync(p, data);
  return p;
};
const pad = (head: Buffer) => Buffer.concat([head, Buffer.alloc(64)]);

describe('type from the bytes', () => {
  it('recognises the allowed videos, PDF and images whatever their names say', async () => {
    expect(await sniffFile(file('a.bin', pad(Buffer.from('\0\0\0\x18ftypisom\0\0\0\0', 'latin1'))))).toBe('mp4');
    expect(await sniffFile(file('b.mp4', pad(Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0', 'latin1'))))).toBe('mov');
    expect(await sniffFile(file('c', pad(Buffer.from('RIFF\x10\0\0\0AVI LIST', 'latin1'))))).toBe('avi');
    expect(await sniffFile(file('d', pad(Buffer.from([0, 0, 1, 0xba, 0x44]))))).toBe('mpeg');
    expect(await sniffFile(file('e.txt', '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'))).toBe('pdf');
    expect(await sniffFile(file('f', pad(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))))).toBe('png');
    expect(await sniffFile(file('g', pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))))).toBe('jpeg');
  });

  it('tells Office families apart from their zip contents, and refuses other zips and text', async () => {
    expect(await sniffFile(file('w.pdf', zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w/>' })))).toBe('word');
    expect(await sniffFile(file('x', zip({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<x/>' })))).toBe('excel');
    expect(await sniffFile(file('p', zip({ '[Content_Types].xml': '<Types/>', 'ppt/presentation.xml': '<p/>' })))).toBe('powerpoint');
    expect(await sniffFile(file('z.docx', zip({ 'hola.txt': 'hola' })))).toBe('unknown');
    expect(await sniffFile(file('h.mp4', 'esto no es un video, aunque se llame así'))).toBe('unknown');
    expect(await sniffFile(file('o', pad(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))))).toBe('office-legacy');
  });
});

const multipart = (form: FormData) => new Request('http://x/subir', { method: 'POST', body: form });

describe('streamed uploads', () => {
  it('writes the file to a temporary file and keeps the fields, repeated ones as lists', async () => {
    const form = new FormData();
    form.set('titulo', 'Guía de fracciones');
    form.append('oas', '1');
    form.append('oas', '2');
    form.set('archivo', new Blob(['%PDF-1.4 contenido']), 'guía.pdf');
    const upload = await receiveUpload(multipart(form), path.join(dir, 'tmp1'), { maxFileBytes: 1024 });
    expect(upload.fields).toEqual({ titulo: 'Guía de fracciones', oas: ['1', '2'] });
    expect(upload.files).toHaveLength(1);
    expect(upload.files[0]).toMatchObject({ field: 'archivo', filename: 'guía.pdf', size: 18 });
    expect(readFileSync(upload.files[0]?.tmpPath ?? '', 'utf8')).toBe('%PDF-1.4 contenido');
    await upload.discard();
    expect(readdirSync(path.join(dir, 'tmp1'))).toEqual([]);
  });

  it('stops at the size limit with 413 and leaves nothing behind', async () => {
    const form = new FormData();
    form.set('archivo', new Blob([Buffer.alloc(5000)]), 'grande.mp4');
    const error = await receiveUpload(multipart(form), path.join(dir, 'tmp2'), { maxFileBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
    expect((error as ApiError).body.detail).toBe('El archivo supera el tamaño máximo permitido (0 MB)');
    expect(readdirSync(path.join(dir, 'tmp2'))).toEqual([]);
  });

  it('refuses a body that is not multipart, and a second file', async () => {
    await expect(
      receiveUpload(new Request('http://x', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }), dir, {
        maxFileBytes: 10,
      }),
    ).rejects.toMatchObject({ status: 415 });
    const form = new FormData();
    form.append('a', new Blob(['1']), 'a.pdf');
    form.append('b', new Blob(['2']), 'b.pdf');
    await expect(receiveUpload(multipart(form), path.join(dir, 'tmp3'), { maxFileBytes: 10 })).rejects.toMatchObject({ status: 400 });
    expect(readdirSync(path.join(dir, 'tmp3'))).toEqual([]);
  });
});

describe('file responses', () => {
  const storage = createDiskStorage(path.join(dir, 'files'));

  it('names downloads with their accents and an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'Guía "Ñandú".pdf')).toBe(
      `attachment; filename="Guia  Nandu .pdf"; filename*=UTF-8''Gu%C3%ADa%20%20%C3%91and%C3%BA%20.pdf`,
    );
  });

  it('streams whole files and single byte ranges, and answers 416 outside the file', async () => {
    await storage.write('manuales/1/original.pdf', Readable.from([Buffer.from('0123456789')]));
    const whole = await fileResponse(storage, { key: 'manuales/1/original.pdf', contentType: 'application/pdf', filename: 'Manual.pdf' });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe('10');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(await whole.text()).toBe('0123456789');
    const part = await fileResponse(storage, { key: 'manuales/1/original.pdf', contentType: 'application/pdf', range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await part.text()).toBe('2345');
    const suffix = await fileResponse(storage, { key: 'manuales/1/original.pdf', contentType: 'application/pdf', range: 'bytes=-3' });
    expect(await suffix.text()).toBe('789');
    const outside = await fileResponse(storage, { key: 'manuales/1/original.pdf', contentType: 'application/pdf', range: 'bytes=20-' });
    expect(outside.status).toBe(416);
    await expect(fileResponse(storage, { key: 'manuales/9/nada.pdf', contentType: 'application/pdf' })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('refuses keys that climb out of the storage folder', async () => {
    await expect(storage.read('../secretos/jwt')).rejects.toThrow('invalid storage key');
    await expect(storage.write('../secretos/jwt', Buffer.from('x'))).rejects.toThrow('invalid storage key');
  });
});
