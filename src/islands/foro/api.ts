/**
 * What the forum islands' calls share (docs/SPEC.md section 7): the result shape. Each call goes
 * through the one API client, answers what the island needs and never throws: a network failure
 * is a failed call. The calls live in one small module per page, so a page loads only its own.
 */
import type { components } from '../../lib/api/schema';

export type ComentarioForo = components['schemas']['ComentarioForo'];
type FieldErrors = Record<string, string[]>;

/** A failed call: the server's sentence and field messages when it sent them. */
interface Fallo {
  status: number;
  detail?: string | undefined;
  errors?: FieldErrors | undefined;
}

export type Resultado<T> = { ok: true; data: T } | ({ ok: false } & Fallo);

export const sinRed = { ok: false, status: 0 } as const;

export function fallo(response: Response, error: { detail?: string; errors?: FieldErrors } | undefined): { ok: false } & Fallo {
  return { ok: false, status: response.status, detail: error?.detail, errors: error?.errors };
}
