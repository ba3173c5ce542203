/** Notifications: the list's query, marking as read, and the email preference (issue 17). */
import { z } from 'zod';
import { idPositivo } from './campos.ts';
import { pagina } from './listas.ts';

export const PREFERENCIAS_CORREO = ['cada_vez', 'diario', 'nunca'] as const;
export type PreferenciaCorreo = (typeof PREFERENCIAS_CORREO)[number];

/** The profile's labels for each choice, in the order shown. */
export const ETIQUETAS_PREFERENCIA: Record<PreferenciaCorreo, string> = {
  cada_vez: 'Cada vez',
  diario: 'Resumen diario',
  nunca: 'Nunca',
};

export const preferenciasSchema = z.object({
  preferencia_correo: z.enum(PREFERENCIAS_CORREO, { error: 'Elige una opción válida' }),
  /** 'Ahorro de datos' (issue 20). */
  ahorro_datos: z.boolean({ error: 'Indique sí o no' }),
  /** Opposition (issue 31, Ley 21.719): out of the community directory, its search and contact. */
  oculto_directorio: z.boolean({ error: 'Indique sí o no' }),
});

/** A change of preferences: any of them, at least one (PUT /api/usuarios/{id}/preferencias/). */
export const cambioPreferenciasSchema = preferenciasSchema
  .partial()
  .refine((p) => Object.keys(p).length > 0, { error: 'Indique al menos una preferencia' });

export const listaNotificacionesQuery = z.object({
  no_leidas: z
    .enum(['true', 'false'], { error: 'no_leidas debe ser true o false' })
    .optional()
    .transform((v) => v === 'true'),
  pagina,
});

export const marcarLeidasSchema = z.object({
  ids: z.array(idPositivo('Identificador no válido')).max(500).optional(),
});
