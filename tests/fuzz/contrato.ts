/**
 * What the fuzz suite knows of the API: every operation of openapi.yaml with its parameters and
 * request body, `$ref`s resolved, and a plausible value for any schema (so a mutated request is
 * one wrong thing away from a valid one and reaches the code behind the first check).
 */

import { contractDocument, resolveLocalRef } from '../support/openapi.ts';
import type { Azar } from './azar.ts';

export type Esquema = { readonly [key: string]: unknown };

export interface Parametro {
  nombre: string;
  en: 'path' | 'query' | 'cookie' | 'header';
  esquema: Esquema;
}

export interface Operacion {
  id: string;
  metodo: string;
  plantilla: string;
  /** Signed-in only (bearer or cookie), else public. */
  conSesion: boolean;
  parametros: Parametro[];
  /** The request body's media type and schema, when it has one. */
  cuerpo?: { tipo: 'application/json' | 'multipart/form-data'; esquema: Esquema };
}

const esObjeto = (v: unknown): v is Esquema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `$ref` (and flattens `allOf`) until a plain schema or object. */
export function resolver(nodo: unknown): Esquema {
  let actual = nodo;
  for (let i = 0; esObjeto(actual) && typeof actual.$ref === 'string'; i++) {
    if (i > 20) throw new Error('reference loop in openapi.yaml');
    actual = resolveLocalRef(actual.$ref);
  }
  if (!esObjeto(actual)) throw new Error('openapi.yaml: a schema that is not an object');
  if (Array.isArray(actual.allOf)) {
    const partes = actual.allOf.map(resolver);
    return {
      ...actual,
      type: 'object',
      required: partes.flatMap((p) => (Array.isArray(p.required) ? p.required : [])),
      properties: Object.assign({}, ...partes.map((p) => (esObjeto(p.properties) ? p.properties : {}))),
    };
  }
  return actual;
}

/** Every operation of the contract, in document order. */
export function operaciones(): Operacion[] {
  const doc = contractDocument();
  const paths = doc.paths;
  if (!esObjeto(paths)) throw new Error('openapi.yaml has no paths');
  const global = Array.isArray(doc.security) ? doc.security : [];
  const out: Operacion[] = [];
  for (const [plantilla, item] of Object.entries(paths)) {
    const ruta = resolver(item);
    const comunes = Array.isArray(ruta.parameters) ? ruta.parameters : [];
    for (const metodo of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = ruta[metodo];
      if (!esObjeto(op)) continue;
      const propios = Array.isArray(op.parameters) ? op.parameters : [];
      const parametros = [...comunes, ...propios].map(resolver).map(
        (p): Parametro => ({
          nombre: String(p.name),
          en: p.in as Parametro['en'],
          esquema: esObjeto(p.schema) ? resolver(p.schema) : {},
        }),
      );
      const seguridad = Array.isArray(op.security) ? op.security : global;
      out.push({
        id: typeof op.operationId === 'string' ? op.operationId : `${metodo} ${plantilla}`,
        metodo: metodo.toUpperCase(),
        plantilla,
        conSesion: seguridad.some((s) => esObjeto(s) && Object.keys(s).length > 0),
        parametros,
        ...cuerpoDe(op),
      });
    }
  }
  return out;
}

function cuerpoDe(op: Esquema): Pick<Operacion, 'cuerpo'> {
  if (op.requestBody === undefined) return {};
  const contenido = resolver(op.requestBody).content;
  if (!esObjeto(contenido)) return {};
  // Upload forms also take JSON (`id_subida`, issue 18): they stay fuzzed as the multipart forms they mostly are.
  for (const tipo of ['multipart/form-data', 'application/json'] as const) {
    const media = contenido[tipo];
    if (esObjeto(media) && media.schema !== undefined) return { cuerpo: { tipo, esquema: resolver(media.schema) } };
  }
  return {};
}

/** The properties of an object schema, resolved. */
export function propiedades(esquema: Esquema): Array<[string, Esquema]> {
  const props = esquema.properties;
  return esObjeto(props) ? Object.entries(props).map(([k, v]) => [k, resolver(v)]) : [];
}

/** The schema's main type ('string' for `[string, 'null']`, 'string' for `const`). */
export function tipoDe(esquema: Esquema): string {
  const t = esquema.type;
  if (Array.isArray(t)) return String(t.find((x) => x !== 'null') ?? 'null');
  if (typeof t === 'string') return t;
  if (esquema.const !== undefined) return typeof esquema.const;
  if (Array.isArray(esquema.enum)) return typeof esquema.enum[0];
  return 'string';
}

/**
 * Ids the run knows to exist (the actor's own user id, a category, a conversation...), by the
 * name of the field or parameter that takes them.
 */
export type Conocidos = (campo: string) => number | undefined;

/** A value the schema accepts (or close to it): what the site's own forms would send. */
export function plausible(esquema: Esquema, campo: string, azar: Azar, conocidos: Conocidos): unknown {
  if (esquema.const !== undefined) return esquema.const;
  if (Array.isArray(esquema.enum) && esquema.enum.length > 0) return azar.uno(esquema.enum);
  if (esquema.default !== undefined && azar.siguiente() < 0.3) return esquema.default;
  switch (tipoDe(esquema)) {
    case 'integer':
    case 'number': {
      const conocido = conocidos(campo);
      if (conocido !== undefined) return conocido;
      const min = typeof esquema.minimum === 'number' ? esquema.minimum : 1;
      return Math.max(min, azar.entero(1, 3));
    }
    case 'boolean':
      return azar.siguiente() < 0.5;
    case 'array': {
      const items = esObjeto(esquema.items) ? resolver(esquema.items) : {};
      return [plausible(items, campo, azar, conocidos)];
    }
    case 'object':
      return Object.fromEntries(propiedades(esquema).map(([k, v]) => [k, plausible(v, k, azar, conocidos)]));
    default:
      return textoPlausible(esquema, campo, azar);
  }
}

function textoPlausible(esquema: Esquema, campo: string, azar: Azar): string {
  if (esquema.format === 'email') return `fuzz.${azar.entero(1, 1e9)}@colegio.cl`;
  if (esquema.format === 'date') return '2020-03-15';
  if (esquema.format === 'date-time') return '2020-03-15T10:00:00Z';
  if (/password|contrase/i.test(campo)) return 'Clave12345';
  const max = typeof esquema.maxLength === 'number' ? esquema.maxLength : 60;
  return 'Texto de prueba número 1 para el campo'.slice(0, Math.max(1, Math.min(max, 40)));
}
