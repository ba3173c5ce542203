/**
 * The privacy notice (issue 31, Ley 21.719, decision 0057): its version, the responsible party an
 * admin sets in the console, and the acceptance at activation. Shared by the forms and the server.
 */
import { z } from 'zod';
import { requeridoHasta } from './campos.ts';

/**
 * The notice's version, in one place: a person whose accepted version differs is asked once, at
 * their next sign-in (the pages' middleware). Change it whenever the notice's text changes what
 * is kept, why, for how long or who sees it.
 */
export const PRIVACIDAD_VERSION = '2026-12-01';

/** The `ajustes` key of the responsible party. */
export const CLAVE_RESPONSABLE = 'privacidad_responsable';

/** Who is responsible for the data (the network), as the notice names it. */
export const responsableSchema = z.object({
  nombre: requeridoHasta('Debe ingresar el nombre del responsable', 200),
  direccion: requeridoHasta('Debe ingresar una dirección', 300),
  correo: requeridoHasta('Debe ingresar un correo', 254).pipe(z.email('Debe ingresar un correo válido')),
});
export type Responsable = z.infer<typeof responsableSchema>;

export const ACEPTA_PRIVACIDAD = 'Debes aceptar el aviso de privacidad para activar tu cuenta';

/** The activation form's checkbox: it must be ticked (a boolean, so the form can start unticked). */
export const aceptaPrivacidad = z.boolean({ error: ACEPTA_PRIVACIDAD }).refine((v) => v, ACEPTA_PRIVACIDAD);

/** A run of the retention job keeps addresses this many days by default (RETENCION_DIRECCIONES_DIAS). */
export const RETENCION_DIRECCIONES_DIAS = 90;
