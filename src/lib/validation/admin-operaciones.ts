/**
 * The admin console's jobs and mail screen (issue 16): the outbox list's query string, shared by
 * the API and the /admin/trabajos page's filter.
 */
import { z } from 'zod';
import { pagina } from './listas.ts';

export const ESTADOS_CORREO = ['pendiente', 'enviado', 'fallido'] as const;
export type EstadoCorreo = (typeof ESTADOS_CORREO)[number];

/** The outbox shows this many mails per page. */
export const TAMANO_PAGINA_CORREOS = 20;

export const filtrosCorreosSchema = z.object({
  // '' (the filter's 'Todos') means no filter.
  estado: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(ESTADOS_CORREO, { error: 'Estado no válido: use pendiente, enviado o fallido' }).optional(),
  ),
  pagina,
});
export type FiltrosCorreos = z.output<typeof filtrosCorreosSchema>;
