/**
 * Request bodies on the wire: a JSON text or a multipart form built byte by byte (so it can be
 * wrong in ways FormData never is: no closing boundary, a part cut after its headers, a filename
 * with NUL, two files), and the odd files the fuzz suite uploads (tiny and cheap).
 */
import { wtf8 } from './valores.ts';

export interface Archivo {
  nombre: string;
  tipo?: string;
  bytes: Buffer;
}

/** A form part: a field, or a file when `archivo` is given. */
export interface Parte {
  nombre: string;
  valor: Buffer | string;
  archivo?: { nombre: string; tipo?: string | undefined };
}

/** Marks a binary field in a value map: that field's part is the file. */
export const ARCHIVO = Symbol('archivo');

/** A plain object as form parts: arrays repeat the field, objects go as their JSON, null as 'null'. */
export function partesDe(valores: Record<string, unknown>, archivo: Archivo): Parte[] {
  const partes: Parte[] = [];
  for (const [nombre, valor] of Object.entries(valores)) {
    if (valor === ARCHIVO) {
      partes.push({ nombre, valor: archivo.bytes, archivo: { nombre: archivo.nombre, tipo: archivo.tipo } });
      continue;
    }
    for (const v of Array.isArray(valor) ? valor : [valor]) {
      partes.push({ nombre, valor: typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined') });
    }
  }
  return partes;
}

export interface Formulario {
  bytes: Buffer;
  /** Where the first file part's content starts and ends in `bytes` (for cutting it there). */
  archivo?: { inicio: number; fin: number };
}

/** The multipart body of the parts; `cierre: false` leaves out the closing boundary. */
export function multipart(partes: readonly Parte[], boundary: string, cierre = true): Formulario {
  const trozos: Buffer[] = [];
  let largo = 0;
  let archivo: Formulario['archivo'];
  const poner = (b: Buffer) => {
    trozos.push(b);
    largo += b.length;
  };
  for (const parte of partes) {
    const disposicion = parte.archivo
      ? `form-data; name="${parte.nombre}"; filename="${parte.archivo.nombre}"`
      : `form-data; name="${parte.nombre}"`;
    const tipo = parte.archivo?.tipo ? `Content-Type: ${parte.archivo.tipo}\r\n` : '';
    poner(wtf8(`--${boundary}\r\nContent-Disposition: ${disposicion}\r\n${tipo}\r\n`));
    const contenido = typeof parte.valor === 'string' ? wtf8(parte.valor) : parte.valor;
    if (parte.archivo && !archivo) archivo = { inicio: largo, fin: largo + contenido.length };
    poner(contenido);
    poner(Buffer.from('\r\n'));
  }
  if (cierre) poner(Buffer.from(`--${boundary}--\r\n`));
  return { bytes: Buffer.concat(trozos), ...(archivo ? { archivo } : {}) };
}

/** JSON text of a value; lone surrogates come out as escapes (\ud800), as JSON.stringify writes them. */
export const json = (valor: unknown): Buffer => Buffer.from(JSON.stringify(valor) ?? 'null', 'utf8');

/** Bodies that are not JSON at all, or JSON that no parser should enjoy. */
export const JSON_ROTOS: readonly Buffer[] = [
  Buffer.from('{'),
  Buffer.from('{"email":'),
  Buffer.from('{"a":1,}'),
  Buffer.from("{'a':1}"),
  Buffer.from('NaN'),
  Buffer.from('{"a":1}{"b":2}'),
  Buffer.from('\u0000'),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  Buffer.from('\ufeff{}'),
  Buffer.from('{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}'),
  // Deep nesting (JSON.parse copes; code that walks the value recursively may not).
  Buffer.from(`${'['.repeat(20_000)}${']'.repeat(20_000)}`),
  Buffer.from(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`),
  Buffer.from(`{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`),
];

/** JSON texts that parse but are not an object. */
export const NO_OBJETOS: readonly string[] = ['[]', '[{}]', '"texto"', '1', '-0.5', 'null', 'true', '""'];

/** File contents: a few magic numbers followed by junk, so type sniffing passes and decoding fails. */
export const ARCHIVOS_RAROS: readonly Archivo[] = [
  { nombre: 'roto.pdf', tipo: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\n%%EOF basura') },
  {
    nombre: 'roto.png',
    tipo: 'image/png',
    bytes: Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(40, 7)]),
  },
  { nombre: 'roto.jpg', tipo: 'image/jpeg', bytes: Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(40, 1)]) },
  { nombre: 'roto.mp4', tipo: 'video/mp4', bytes: Buffer.concat([Buffer.from('0000001866747970697336', 'hex'), Buffer.alloc(64, 3)]) },
  {
    nombre: 'roto.docx',
    tipo: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: Buffer.from('PK\u0003\u0004basura'),
  },
  { nombre: 'vacio.pdf', tipo: 'application/pdf', bytes: Buffer.alloc(0) },
  { nombre: 'texto.pdf', tipo: 'application/pdf', bytes: Buffer.from('no soy un pdf') },
];

/** File names no upload should trust. */
export const NOMBRES_RAROS: readonly string[] = [
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  'nul\u0000.pdf',
  `${'n'.repeat(400)}.pdf`,
  '',
  '.pdf',
  'con.pdf',
  'sustituto\ud800.pdf',
  'comillas".pdf',
];
