/**
 * What every answer to a fuzz case must be: never a 5xx; under /api and /auth, every 4xx is the
 * contract's one error shape `{ detail, statusCode, errors?, non_field_errors? }` in JSON, with
 * Spanish text (no message of a library reaching a person). A case that needs an answer gets one.
 */
import type { Caso } from './casos.ts';
import type { Respuesta } from './enviar.ts';

/** Phrases of zod, Hono, busboy and Node that must never reach a person. */
const INGLES =
  /\b(Invalid input|expected|received|Unexpected|Required|Malformed|Bad Request|Not Found|Internal Server Error|Payload Too Large|Method Not Allowed)\b/;

export interface Falla {
  /** The kind of failure, e.g. '5xx', 'forma', 'ingles', 'sin-respuesta'. */
  tipo: string;
  detalle: string;
}

const esObjeto = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const textos = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The failures of one answer (none when it is what the contract allows). */
export function verificar(caso: Caso, r: Respuesta): Falla[] {
  if (r.estado === 0) {
    return caso.respuesta === 'debe' ? [{ tipo: 'sin-respuesta', detalle: r.error ?? 'no answer' }] : [];
  }
  if (r.estado >= 500) return [{ tipo: `${r.estado}`, detalle: r.cuerpo.slice(0, 300) }];
  // The path as URL parsing leaves it (browsers and the server alike): '/api/%2e%2e/x' is '/x'.
  const ruta = new URL(caso.ruta, 'http://fuzz.invalid').pathname;
  if (r.estado < 400 || !/^\/(api|auth)(\/|$)/.test(ruta)) return [];
  return formaDeError(r);
}

function formaDeError(r: Respuesta): Falla[] {
  if (!/^application\/json\b/i.test(r.tipo)) {
    return [{ tipo: 'no-json', detalle: `${r.estado} ${r.tipo || 'without content type'}: ${r.cuerpo.slice(0, 200)}` }];
  }
  let cuerpo: unknown;
  try {
    cuerpo = JSON.parse(r.cuerpo);
  } catch {
    return [{ tipo: 'no-json', detalle: `${r.estado}: ${r.cuerpo.slice(0, 200)}` }];
  }
  const problemas: string[] = [];
  if (!esObjeto(cuerpo)) problemas.push('not an object');
  else {
    const { detail, statusCode, errors, non_field_errors, ...otros } = cuerpo;
    if (typeof detail !== 'string' || detail.length === 0) problemas.push('detail is not a non-empty string');
    if (statusCode !== r.estado) problemas.push(`statusCode ${String(statusCode)} is not the status ${r.estado}`);
    if (errors !== undefined && !(esObjeto(errors) && Object.values(errors).every(textos)))
      problemas.push('errors is not { field: string[] }');
    if (non_field_errors !== undefined && !textos(non_field_errors)) problemas.push('non_field_errors is not string[]');
    if (Object.keys(otros).length > 0) problemas.push(`undocumented members: ${Object.keys(otros).join(', ')}`);
  }
  if (problemas.length > 0) return [{ tipo: 'forma', detalle: `${r.estado} ${problemas.join('; ')}: ${r.cuerpo.slice(0, 200)}` }];
  const ingles = INGLES.exec(r.cuerpo);
  return ingles ? [{ tipo: 'ingles', detalle: `${r.estado} '${ingles[0]}' in ${r.cuerpo.slice(0, 200)}` }] : [];
}
