/**
 * Input validation for Hono routes: every body, query and path parameter goes through a zod
 * schema; anything malformed (bad JSON, wrong types, unknown encodings, control characters)
 * becomes a 400 with the contract's error shape, never a 500.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { TEXTO_NO_PERMITIDO, textoNoPermitidoEn } from '../../validation/texto.ts';
import { ApiError, validationError } from './errors.server.ts';

/**
 * Every input of every route (JSON and form bodies, multipart text fields, query strings, path
 * parameters) comes through here: first the one text rule over all its strings, whatever the
 * schema says of them, then the schema.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const donde = textoNoPermitidoEn(value);
  if (donde) {
    const campo = donde.join('.');
    throw new ApiError(400, TEXTO_NO_PERMITIDO, campo ? { errors: { [campo]: [TEXTO_NO_PERMITIDO] } } : {});
  }
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** JSON and form bodies (not file uploads) are small: anything larger is refused while reading. */
const MAX_BODY_BYTES = 1024 * 1024;

async function readLimited(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const tooLarge = () => new ApiError(413, 'El contenido enviado es demasiado grande');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return bytes.length === 0 ? {} : JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ApiError(400, 'El cuerpo de la solicitud no es un JSON válido');
  }
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, 'El cuerpo de la solicitud debe ser un objeto JSON');
  }
  return value as Record<string, unknown>;
}

/** A JSON object body read within the API's size limit, for handlers that read their body themselves. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  return asObject(parseJson(await readLimited(request)));
}

async function readBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  const isJson = type.startsWith('application/json');
  const isForm = type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
  // No declared type: an empty body (e.g. a logout with the token in its cookie).
  if (type === '') return {};
  if (!isJson && !isForm) throw new ApiError(415, 'Tipo de contenido no soportado; envía JSON o un formulario');
  const bytes = await readLimited(c.req.raw);
  if (isJson) return parseJson(bytes);
  try {
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    const out: Record<string, string | string[]> = {};
    for (const [key, value] of form.entries()) {
      if (typeof value !== 'string') continue;
      const current = out[key];
      out[key] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
    }
    return out;
  } catch {
    throw new ApiError(400, 'El formulario enviado no es válido');
  }
}

/**
 * Validates the request body, JSON or form (urlencoded or multipart), against a schema; handlers
 * read the result with `c.req.valid('json')`. Hono's own json validator would refuse form bodies.
 */
export function body<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<Env, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async (c, next) => {
    const value = asObject(await readBody(c));
    c.req.addValidatedData('json', parseWith(schema, value) as object);
    await next();
  };
}

/**
 * Validates a JSON-only body (issue 32's login CSRF): a page of another site can post a form to
 * us without asking, but not JSON, which needs a CORS preflight we never grant. Sign-in takes
 * this, so no other site can sign a teacher into someone else's account.
 */
export function bodyJson<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<Env, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async (c, next) => {
    if (!(c.req.header('content-type') ?? '').startsWith('application/json'))
      throw new ApiError(415, 'Tipo de contenido no soportado; envía JSON');
    c.req.addValidatedData('json', parseWith(schema, asObject(parseJson(await readLimited(c.req.raw)))) as object);
    await next();
  };
}

/** Validates the query string; repeated keys arrive as arrays only where the schema wants them. */
export const query = <S extends z.ZodType>(schema: S) => validator('query', (value) => parseWith(schema, value) as z.output<S>);

export const params = <S extends z.ZodType>(schema: S) => validator('param', (value) => parseWith(schema, value) as z.output<S>);
