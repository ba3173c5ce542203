/**
 * The contract (openapi.yaml, generated into schema.d.ts) binding the routes at compile time: an
 * answer's body must be what the contract gives for its method, path and status, and a schema
 * that parses a request body must produce the contract's fields for that operation. A field
 * renamed or retyped in openapi.yaml fails `npm run typecheck` here, not in a browser.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type {
  Consulta,
  Entrada,
  EstadoJson,
  EstadoVacio,
  Operacion,
  OperacionConConsulta,
  OperacionConEntrada,
  RespuestaJson,
} from '../../api/contrato.ts';
import type { FormOptions } from '../http/upload.server.ts';

/** Answers operation K with status S and a body of the contract's type for that status. */
export function responder<K extends Operacion, S extends EstadoJson<K> & ContentfulStatusCode>(
  c: Context,
  _operacion: K,
  estado: S,
  cuerpo: NoInfer<RespuestaJson<K, S>>,
): Response {
  return c.json(cuerpo, estado);
}

/** Answers operation K with 204, which the contract must give it. */
export function sinContenido<K extends Operacion>(c: Context, _operacion: K & (204 extends EstadoVacio<K> ? unknown : never)): Response {
  return c.body(null, 204);
}

type Requeridos<C> = { [K in keyof C]-?: object extends Pick<C, K> ? never : K }[keyof C];
/** The named fields of a schema's output (`z.object({})` gives an index signature and no names). */
type Campos<O> = keyof { [K in keyof O as string extends K ? never : K]: O[K] };

/**
 * How a schema's output O departs from the contract's fields C by name: fields the contract does
 * not have, and required fields the schema does not read. A field the contract requires may be
 * optional in the schema (the server may be lenient).
 */
interface Nombres<O, C> {
  sobran: Exclude<Campos<O>, keyof C>;
  faltan: Exclude<Requeridos<C>, keyof O>;
}

/** Also the fields whose values the contract does not allow. */
interface Desajuste<O, C> extends Nombres<O, C> {
  distintos: { [K in Campos<O> & keyof C]: [Exclude<O[K], undefined>] extends [C[K]] ? never : K }[Campos<O> & keyof C];
}

/** `unknown` when nothing departs, else a property no schema has, which tsc reports with D. */
type Sin<D> = [D[keyof D]] extends [never] ? unknown : { 'no coincide con el contrato': D };
type Conforme<O, C> = Sin<Desajuste<O, C>>;

/** The schema of operation K's body (JSON or form), checked against the contract; unchanged. */
export function entrada<K extends OperacionConEntrada, S extends z.ZodType>(
  _operacion: K,
  schema: S & Conforme<z.output<S>, Entrada<K>>,
): S {
  return schema;
}

/**
 * The query schema of operation K, checked against the contract's query parameters by name (their
 * values arrive as text, which the schema turns into numbers and defaults); unchanged.
 */
export function consulta<K extends OperacionConConsulta, S extends z.ZodType>(
  _operacion: K,
  schema: S & Sin<Nombres<z.output<S>, Consulta<K>>>,
): S {
  return schema;
}

/**
 * The multipart form of operation K: its file part must be a field of the contract's body and
 * its text fields' schema must give the rest of that body.
 */
export function formulario<K extends OperacionConEntrada, S extends z.ZodType, F extends keyof Entrada<K> & string>(
  _operacion: K,
  form: FormOptions<S> & { file: F; fields: Conforme<z.output<S>, Omit<Entrada<K>, F>> },
): FormOptions<S> {
  return form;
}

/**
 * `unknown` when operation K answers status S with a body that B fits, else a type no value has
 * that names K: for routes shared by several sections, whose operations are only known where each
 * section mounts them.
 */
export type Responde<K, S, B> = K extends Operacion
  ? S extends EstadoJson<K>
    ? [B] extends [RespuestaJson<K, S>]
      ? unknown
      : { 'no responde lo que da el contrato': K; estado: S }
    : { 'no está en el contrato': K; estado: S }
  : { 'no está en el contrato': K; estado: S };
