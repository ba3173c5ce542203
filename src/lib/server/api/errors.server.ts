/**
 * The one error shape of the API (openapi.yaml components.schemas.Error): a Spanish sentence for
 * a person in `detail`, per-field messages in `errors`, and the HTTP status echoed in `statusCode`
 * (the session store of docs/SPEC.md section 4 reads it from the body).
 */
import type { z } from 'zod';
import { type ErrorBody, ErrorDeDominio, fieldErrors } from '../errores.server.ts';

// The services' refusal is the API's error: the HTTP layer names it ApiError and sends its status.
export {
  type ErrorBody,
  ErrorDeDominio as ApiError,
  type ErrorStatus,
  type FieldErrors,
  fieldErrors,
  noAutenticado,
  sinPermisos,
} from '../errores.server.ts';

/** The error as an HTTP response (also for the few answers built outside a Hono handler). */
export function errorResponse(status: number, body: ErrorBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

const REVISAR = 'Revisa los datos ingresados';

export function validationError(error: z.ZodError): ErrorDeDominio {
  const errors = fieldErrors(error);
  const { non_field_errors, ...fields } = errors;
  const first = Object.values(fields)[0]?.[0] ?? non_field_errors?.[0];
  return new ErrorDeDominio(400, first ?? REVISAR, {
    errors: fields,
    ...(non_field_errors ? { non_field_errors } : {}),
  });
}
