/**
 * The refusals the services speak (issue 29 item 2): a Spanish sentence for a person in `detail`,
 * per-field messages in `errors`, and the contract's code for the kind of refusal in `status`
 * (400 invalid, 401 not signed in, 403 not allowed, 404 not there or hidden, 409 taken, 413 too
 * large, 429 too many tries). The services throw it without knowing HTTP; the API's `onError`
 * (api/app.server.ts) is the one place that turns it, and the server's own faults, into a response.
 */
import type { z } from 'zod';
import type { Esquema } from '../api/contrato.ts';

export type FieldErrors = Record<string, string[]>;

/** The contract's error, whose `statusCode` this server always sends. */
export type ErrorBody = Esquema<'Error'> & { statusCode: number };

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 416 | 429 | 503 | 507;

export class ErrorDeDominio extends Error {
  readonly status: ErrorStatus;
  readonly body: ErrorBody;
  /** What the answer adds for the client (a 429's Retry-After). */
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

export const noAutenticado = () => new ErrorDeDominio(401, 'Debe iniciar sesión para continuar');
export const sinPermisos = () => new ErrorDeDominio(403, 'No tienes permisos');

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
export const tooLarge = (maxFileBytes: number) =>
  new ErrorDeDominio(413, `El archivo supera el tamaño máximo permitido (${megabytes(maxFileBytes)})`);
