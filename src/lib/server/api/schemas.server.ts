/** Small zod pieces for path and query parameters. */
import { z } from 'zod';

/** A positive database id in a path or query string. */
export const id = (mensaje = 'Identificador no válido') =>
  z.coerce.number({ error: mensaje }).int(mensaje).positive(mensaje).max(2_147_483_647, mensaje);

export const idParam = z.object({ id: id() });
