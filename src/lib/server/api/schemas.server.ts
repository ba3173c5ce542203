/** Small zod pieces for path and query parameters. */
import { z } from 'zod';
import { idPositivo } from '../../validation/campos.ts';

/**
 * A database id in a path, a query string or a body: every route parses ids with this one rule
 * (the forms' idPositivo), so '1.5', '0x10', -1 and 99999999999999999999 are a 400, never a 500.
 */
export const id = (mensaje = 'Identificador no válido') => idPositivo(mensaje);

export const idParam = z.object({ id: id() });
