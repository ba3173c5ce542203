/** Formatting shared by pages and islands: dates in es-CL, short view counts, truncation. */

const fecha = new Intl.DateTimeFormat('es-CL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'America/Santiago' });

/** '5 de marzo de 2026'. */
export function formatearFecha(value: string | Date): string {
  return fecha.format(typeof value === 'string' ? new Date(value) : value);
}

const fechaHora = new Intl.DateTimeFormat('es-CL', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'America/Santiago',
});

/** '5 mar 2026, 14:07' (Chilean time): when a thing happened, for the admin console's tables. */
export function formatearFechaHora(value: string | Date): string {
  return fechaHora.format(typeof value === 'string' ? new Date(value) : value);
}

const numero = [0, 1].map((decimales) => new Intl.NumberFormat('es-CL', { maximumFractionDigits: decimales }));

/**
 * '1.234' or '1,5': a number as written in Chile, rounded to `decimales` (0 or 1, default 1). Through
 * formatters made once: `toLocaleString` with options makes a new one on every call (18 µs, a tenth
 * of the admin statistics page's server time).
 */
export const formatearNumero = (n: number, decimales: 0 | 1 = 1): string => (numero[decimales] as Intl.NumberFormat).format(n);

const decimal = (n: number) => formatearNumero(Math.floor(n * 10) / 10);

/** View counts shortened as docs/SPEC.md section 9 says: thousands 'mil', millions 'M', billions 'B'. */
export function formatearVisitas(n: number): string {
  if (n >= 1e9) return `${decimal(n / 1e9)} B`;
  if (n >= 1e6) return `${decimal(n / 1e6)} M`;
  if (n >= 1e3) return `${decimal(n / 1e3)} mil`;
  return String(n);
}

/** Cuts at `max` characters, on a word boundary when one is close, with an ellipsis. */
export function truncar(texto: string, max: number): string {
  const chars = Array.from(texto);
  if (chars.length <= max) return texto;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** '1,2 MB', for download buttons. */
export function formatearTamano(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${decimal(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${decimal(bytes / 1024 ** 2)} MB`;
  return `${decimal(bytes / 1024 ** 3)} GB`;
}

/** A border colour per author, the same on every page (docs/SPEC.md section 9); dark enough for text on white. */
export function colorAutor(id: number): string {
  return `hsl(${(id * 137) % 360} 60% 28%)`;
}

/** 'AP' for Ana Pérez: the avatar when there is no photo. */
export function iniciales(nombre: string): string {
  return nombre
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p.charAt(0).toUpperCase())
    .join('');
}

/** 'Ciencias Naturales' → 'ciencias-naturales': a name as a class or URL fragment. */
export function slug(texto: string): string {
  return texto
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The class of an area's badge (the colours of docs/SPEC.md section 9 are keyed on it). */
export const claseArea = (nombre: string) => `area-${slug(nombre)}`;

/** A count and its noun, singular for one: '1 comentario', '3 comentarios', '0 comentarios'. */
export const plural = (n: number, uno: string, varios: string) => `${n} ${n === 1 ? uno : varios}`;

/** A person as the product names them (docs/SPEC.md section 2): first name and paternal surname. */
export const nombreCorto = (p: { primer_nombre: string; apellido_paterno: string }) => `${p.primer_nombre} ${p.apellido_paterno}`.trim();

interface Nombres {
  primer_nombre: string;
  segundo_nombre?: string;
  apellido_paterno: string;
  apellido_materno: string;
}

/**
 * A person's full name without its empty parts: 'Ana María Pérez Soto' on a profile; the
 * directory's cards and the contact page leave the second name out ('Ana Pérez Soto').
 */
export function nombreCompleto(p: Nombres, { segundoNombre = true } = {}): string {
  return [p.primer_nombre, segundoNombre ? p.segundo_nombre : '', p.apellido_paterno, p.apellido_materno].filter(Boolean).join(' ');
}

/** '12345678-K' → '12.345.678-K'; anything else as it came. */
export function formatearRut(rut: string): string {
  const m = /^(\d+)-([\dK])$/.exec(rut);
  return m?.[1] && m[2] ? `${formatearNumero(Number(m[1]), 0)}-${m[2]}` : rut;
}
