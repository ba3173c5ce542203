/**
 * The real type of an uploaded file, read from its bytes (never from its name or the browser's
 * MIME type): videos, PDF, images, and the Office families (OOXML zips are told apart by the
 * folders their central directory lists).
 */
import { open } from 'node:fs/promises';

export type Sniffed =
  | 'mp4'
  | 'mov'
  | 'avi'
  | 'mpeg'
  | 'pdf'
  | 'jpeg'
  | 'png'
  | 'webp'
  | 'word'
  | 'excel'
  | 'powerpoint'
  /** An OLE2 compound file: legacy .doc, .xls or .ppt (the family is not told apart here). */
  | 'office-legacy'
  | 'unknown';

const ascii = (b: Buffer, start: number, end: number) => b.subarray(start, end).toString('latin1');

async function readAt(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** Names in a zip's central directory, or null when it is not a readable zip. */
async function zipEntries(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<string[] | null> {
  const tailLength = Math.min(size, 65_557);
  const tail = await readAt(handle, size - tailLength, tailLength);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > tail.length) return null;
  const count = tail.readUInt16LE(eocd + 10);
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  if (dirOffset + dirSize > size || dirSize > 16 * 1024 * 1024) return null;
  const dir = await readAt(handle, dirOffset, dirSize);
  const names: string[] = [];
  let p = 0;
  for (let i = 0; i < count && p + 46 <= dir.length; i++) {
    if (dir.readUInt32LE(p) !== 0x02014b50) return null;
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    names.push(dir.subarray(p + 46, p + 46 + nameLength).toString('utf8'));
    p += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

export async function sniffFile(file: string): Promise<Sniffed> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const b = await readAt(handle, 0, 1024);
    if (b.length < 12) return 'unknown';
    if (ascii(b, 4, 8) === 'ftyp') return ascii(b, 8, 12) === 'qt  ' ? 'mov' : 'mp4';
    if (['moov', 'mdat', 'wide', 'free', 'pnot'].includes(ascii(b, 4, 8))) return 'mov';
    if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'AVI ') return 'avi';
    if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
    if (b[0] === 0 && b[1] === 0 && b[2] === 1 && (b[3] === 0xba || b[3] === 0xb3)) return 'mpeg';
    if (b[0] === 0x47 && size > 188 && (await readAt(handle, 188, 1))[0] === 0x47) return 'mpeg';
    if (b.indexOf('%PDF-') >= 0 && b.indexOf('%PDF-') < 1024) return 'pdf';
    if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
    if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
    if (b.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'office-legacy';
    if (ascii(b, 0, 4) === 'PK\u0003\u0004') {
      const names = (await zipEntries(handle, size)) ?? [];
      if (!names.includes('[Content_Types].xml')) return 'unknown';
      if (names.some((n) => n.startsWith('word/'))) return 'word';
      if (names.some((n) => n.startsWith('xl/'))) return 'excel';
      if (names.some((n) => n.startsWith('ppt/'))) return 'powerpoint';
    }
    return 'unknown';
  } finally {
    await handle.close();
  }
}
