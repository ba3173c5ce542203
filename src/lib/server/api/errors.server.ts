/**
 * The one error shape of the API (openapi.yaml components.schemas.Error): a Spanish sentence for
 * a person in `detail`, per-field messages in `errors`, and the HTTP status echoed in `statusCode`
 * (the session store of SPEC.md section 4 reads it from the body).
 */
import type { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';

export type FieldErrors = Record<string, string[]>;

/** The contract's error, whose `statusCode` this server always sends. */
export type ErrorBody = Esquema<'Error'> & { statusCode: number };

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 416 | 429 | 503 | 507;

export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;

  constructor(
    status: ErrorStatus,
    detail: string,
    extra: Omit<ErrorBody, 'detail' | 'statusCode'> = {},
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = status;
    this.body = { detail, statusCode: status, ...extra };
    this.headers = headers;
  }
}

/** The error as an HTTP response (also for the few answers built outside a Hono handler). */
export function errorResponse(status: number, body: ErrorBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

const REVISAR = 'Revise los datos ingresados';

export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'non_field_errors';
    const list = out[key] ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    out[key] = list;
  }
  return out;
}

export function validationError(error: z.ZodError): ApiError {
  const errors = fieldErrors(error);
  const { non_field_errors, ...fields } = errors;
  const first = Object.values(fields)[0]?.[0] ?? non_field_errors?.[0];
  return new ApiError(400, first ?? REVISAR, {
    errors: fields,
    ...(non_field_errors ? { non_field_errors } : {}),
  });
}

export const noAutenticado = () => new ApiError(401, 'Debe iniciar sesión para continuar');
export const sinPermisos = () => new ApiError(403, 'No tienes permisos');
