/**
 * Input validation for Hono routes: every body, query and path parameter goes through a zod
 * schema; anything malformed (bad JSON, wrong types, unknown encodings) becomes a 400 with the
 * contract's error shape, never a 500.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { ApiError, validationError } from './errors.server.ts';

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

async function readBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('application/json')) {
    try {
      return await c.req.json();
    } catch {
      throw new ApiError(400, 'El cuerpo de la solicitud no es un JSON válido');
    }
  }
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
    try {
      return await c.req.parseBody({ all: true });
    } catch {
      throw new ApiError(400, 'El formulario enviado no es válido');
    }
  }
  // No declared type: an empty body (e.g. a logout with the token in its cookie).
  if (type === '') return {};
  throw new ApiError(415, 'Tipo de contenido no soportado; envíe JSON o un formulario');
}

/**
 * Validates the request body, JSON or form (urlencoded or multipart), against a schema; handlers
 * read the result with `c.req.valid('json')`. Hono's own json validator would refuse form bodies.
 */
export function body<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<Env, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async (c, next) => {
    c.req.addValidatedData('json', parseWith(schema, await readBody(c)) as object);
    await next();
  };
}

/** Validates the query string; repeated keys arrive as arrays only where the schema wants them. */
export const query = <S extends z.ZodType>(schema: S) => validator('query', (value) => parseWith(schema, value) as z.output<S>);

export const params = <S extends z.ZodType>(schema: S) => validator('param', (value) => parseWith(schema, value) as z.output<S>);
