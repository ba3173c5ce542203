/**
 * The odd values the fuzz suite puts where the contract expects something sensible: wrong types,
 * control characters, lone surrogates, huge strings and numbers, traversal in paths. Text is
 * turned into bytes as WTF-8, so a lone surrogate reaches the server as the bytes ED A0 80 (in a
 * form or a URL) or as the escape \ud800 (in JSON), never silently replaced by U+FFFD.
 */

/** A megabyte and a bit: over every JSON and text limit of the server. */
export const MEGA = 1024 * 1024 + 17;

/** Text the server must refuse (or accept) with a Spanish 400, never a 500. */
export const TEXTOS_RAROS: readonly string[] = [
  'nul\u0000medio',
  '\u0000',
  'campana\u0007 y escape\u001b[31m',
  'retroceso\u0008\u007f',
  'sustituto solo \ud800',
  'sustituto bajo \udfff al revés',
  'emoji 👩‍🏫 y acentos ñáéíóú',
  'línea\r\nnueva\ttab',
  '\u202eal revés\u202c y ancho cero\u200b',
  '',
  ' ',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '$' + '{jndi:ldap://x}',
  '\ufeffbom',
  'x'.repeat(5000),
];

/** Numbers as JSON values: out of the database's range, negative, fractional, in exponent form. */
export const NUMEROS_RAROS: readonly unknown[] = [
  0,
  -1,
  -2147483649,
  2147483648,
  9007199254740994,
  1e308,
  -1e308,
  1.5,
  0.0001,
  1e-7,
  Number.MAX_SAFE_INTEGER,
];

/** The same in text (query strings, form fields, path segments), where JSON cannot say them. */
export const NUMEROS_TEXTO: readonly string[] = [
  '0',
  '-1',
  '99999999999999999999',
  '2147483648',
  '-2147483649',
  '1.5',
  '1e3',
  '1e400',
  '0x10',
  '+1',
  ' 1',
  '1 ',
  '١',
  'NaN',
  'Infinity',
  '-0',
  '00000000000000000000001',
  'abc',
  '',
  'true',
  'null',
  '[1]',
];

/** Any JSON value of the wrong kind for a field. */
export const TIPOS_EQUIVOCADOS: readonly unknown[] = [null, true, false, 'texto', 42, -3.5, [], [1, 'a'], {}, { a: { b: [] } }];

/** A path segment as it goes on the wire (already percent-encoded where it must be). */
export const SEGMENTOS_RAROS: readonly string[] = [
  '..%2f..%2fetc%2fpasswd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '..%5c..%5cwindows',
  '%00',
  '1%00',
  '99999999999999999999',
  '2147483648',
  '-1',
  '0',
  'abc',
  '1.5',
  '1e3',
  '%20',
  '%ED%A0%80',
  '%C0%AF',
  '%E0%A4%A',
  '%',
  '%%',
  '%7B%7D',
  'a'.repeat(3000),
];

/** Query strings attached whole (after the '?'), to any operation. */
export const CONSULTAS_RARAS: readonly string[] = [
  '%',
  '%zz=1',
  'a=%E0%A4%A',
  '=',
  '&&&',
  'pagina',
  'pagina=1&pagina=2&pagina=abc',
  'pagina[]=1&pagina[x]=2',
  '__proto__[x]=1&constructor[prototype][x]=1',
  'a=%00',
  'a=%ED%A0%80',
  `a=${'x'.repeat(6000)}`,
];

/** Bytes of the text, lone surrogates included (WTF-8). */
export function wtf8(texto: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < texto.length; i++) {
    const c = texto.charCodeAt(i);
    const d = texto.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
      bytes.push(...Buffer.from(texto.slice(i, i + 2), 'utf8'));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      bytes.push(0xed, 0xa0 | ((c >> 6) & 0x0f), 0x80 | (c & 0x3f));
    } else {
      bytes.push(...Buffer.from(texto[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** Percent-encodes every byte of the text's WTF-8 except the unreserved ones. */
export function enUrl(texto: string): string {
  let out = '';
  for (const b of wtf8(texto)) {
    const ch = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A string of about `bytes` bytes, with a few letters that need escaping spread through it. */
export function enorme(bytes = MEGA): string {
  return 'ñ"\\'.concat('a'.repeat(bytes));
}
