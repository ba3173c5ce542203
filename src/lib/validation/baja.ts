/**
 * Leaving the platform (issue 31, Ley 21.719): the person's own request, with their password, and
 * an admin's, from a written request with its reason. Shared by the pages' forms and the API.
 */
import { z } from 'zod';
import { booleano as booleanoDe, formatoExportacion } from './campos.ts';
import { cadena } from './texto.ts';

/** Days between the request and the erasure: the person may change their mind meanwhile. */
export const DIAS_PARA_ELIMINAR = 14;

/** The display name an erased account keeps as the author of what stays. */
export const DOCENTE_RETIRADO = 'Docente retirado/a';

/**
 * An erased account wherever the console would name it by its address (the register of requests,
 * the audit log, a moderation decision): its number, never its name or its anonymised address.
 */
export const cuentaEliminada = (id: number): string => `Cuenta n.º ${id}`;

/** 'true'/'false' (or a ticked box) from the pages' forms, a boolean from JSON; absent means false. */
const booleano = (campo: string) => booleanoDe(campo, { formulario: true });

export const CONTRASENA_REQUERIDA = 'Debe ingresar tu contraseña';
/** Minutes a sign-in stays fresh enough to confirm the deletion of an account without a password. */
export const MINUTOS_INGRESO_RECIENTE = 10;

/**
 * POST /api/usuarios/{id}/eliminar-cuenta/ and the page /perfil/eliminar-cuenta. The password may
 * be empty only for an account that has none (signed up through a school account): the server
 * then asks for a fresh sign-in instead.
 */
export const eliminarCuentaSchema = z.object({
  password: cadena({ error: CONTRASENA_REQUERIDA }).max(200, 'Contraseña no válida'),
  conservar_aportes: booleano('conservar_aportes'),
});
export type EliminarCuentaInput = z.infer<typeof eliminarCuentaSchema>;

export const MOTIVO_REQUERIDO = 'Escribe el motivo: por ejemplo, «Solicitud escrita recibida el 3 de marzo»';

const motivo = cadena({ error: MOTIVO_REQUERIDO }).trim().min(1, MOTIVO_REQUERIDO).max(500, 'Puedes escribir hasta 500 caracteres');

export const CORREO_CUENTA_REQUERIDO = 'Escribe el correo de la cuenta';

/** What an admin decides on a deletion: keep the contributions or not, now or in 14 days. */
const decisionBaja = {
  conservar_aportes: booleano('conservar_aportes'),
  inmediato: booleano('inmediato'),
};

/** POST /api/admin/usuarios/{id}/eliminar/ (the account is in the path). */
export const eliminarCuentaAdminSchema = z.object({ motivo, ...decisionBaja });
export type EliminarCuentaAdminInput = z.infer<typeof eliminarCuentaAdminSchema>;

/**
 * A request that arrived in writing, as the console's forms take it (/admin/solicitudes): the
 * account by its address, and the reason. As it is, the form of a request of access.
 */
export const solicitudEscritaSchema = z.object({
  correo: cadena({ error: CORREO_CUENTA_REQUERIDO }).trim().min(1, CORREO_CUENTA_REQUERIDO).max(254, 'Correo no válido'),
  motivo,
});

/** The console's form for a written request of deletion: the account and reason, and the decision. */
export const eliminacionEscritaSchema = solicitudEscritaSchema.extend(decisionBaja);

/** GET /api/admin/solicitudes/exportar/: the register of requests as CSV (default) or JSON. */
export const exportarSolicitudesSchema = z.object({
  formato: formatoExportacion,
});

/** The register's words, as the console and its export show them. */
export const TIPOS_SOLICITUD: Record<string, string> = {
  acceso: 'Acceso',
  copia: 'Copia de datos',
  rectificacion: 'Rectificación',
  eliminacion: 'Eliminación de cuenta',
  oposicion: 'Oposición',
  bloqueo: 'Bloqueo',
};
export const ESTADOS_SOLICITUD: Record<string, string> = {
  pendiente: 'Pendiente',
  completada: 'Completada',
  cancelada: 'Cancelada',
  rechazada: 'Rechazada',
};
/** A copy of one's data, as /perfil/mis-datos and the console show its state. */
export const ESTADOS_COPIA = {
  pendiente: 'En preparación',
  lista: 'Lista para descargar',
  fallida: 'No se pudo preparar',
  expirada: 'Vencida',
} as const;
export const ORIGENES_SOLICITUD: Record<string, string> = {
  persona: 'La persona, desde la plataforma',
  admin: 'Solicitud escrita (administración)',
};
