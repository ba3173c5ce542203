/**
 * The console's words for what the code names in its own terms (issue 33, decision 0055): each
 * background job type, each kind of record in the audit log and the local admin key, as a
 * coordinator reads them. One place, used by the services that describe a job and by every
 * console page that shows one of these names; no command or internal identifier reaches a screen.
 * No server code here, so the pages, the services and the tests all import it.
 */

/**
 * The job runner's types (the services register their handlers under these names) and what each
 * does, in a coordinator's words. A job type without an entry shows as TRABAJO_DESCONOCIDO, never
 * by its name; tests/api/primeros-pasos.test.ts holds every registered type to an entry.
 */
export const TRABAJOS: Record<string, string> = {
  'capsula-hls': 'Procesar video de una cápsula',
  'notificaciones-correos': 'Enviar por correo los avisos de notificaciones (cada minuto)',
  'respaldo-diario': 'Respaldo diario de la base de datos y los archivos',
  'respaldo-borrado-diferido': 'Borrar los archivos de contenido eliminado mientras se hacía un respaldo',
  'baja-cuenta': 'Eliminar las cuentas cuyo plazo de 14 días para arrepentirse terminó (cada hora)',
  'subidas-limpieza': 'Quitar los archivos de subidas que quedaron a medias (cada hora)',
  'copia-datos': 'Preparar la copia de sus datos que pidió un docente',
  'copias-datos-vencidas': 'Borrar las copias de datos personales que vencieron (cada hora)',
  'retencion-direcciones': 'Borrar las direcciones IP y navegadores de ingresos antiguos (cada día)',
  'mochila-preparar': 'Preparar la mochila (ZIP para usar sin conexión) que pidió un docente',
  'mochilas-vencidas': 'Borrar las mochilas preparadas que vencieron (cada hora)',
  'mantenimiento-base': 'Ordenar la base de datos integrada y actualizar sus estadísticas (cada día, de madrugada)',
};

export const TRABAJO_DESCONOCIDO = 'Tarea interna del servidor';

/** A job type in words. */
export const describirTrabajo = (tipo: string): string => TRABAJOS[tipo] ?? TRABAJO_DESCONOCIDO;

/**
 * Who the audit log names for actions taken with the local admin key (the server's command line):
 * stored as is in `admin_email` (older rows have it), shown as QUIEN_CLAVE_LOCAL.
 */
export const CLAVE_LOCAL = 'Clave local (npm run usuarios)';
export const QUIEN_CLAVE_LOCAL = 'Clave de administración del servidor';

/** Who did an audit-logged action, as the console shows it: an email, or the local key in words. */
export const nombreQuien = (adminEmail: string): string => (adminEmail === CLAVE_LOCAL ? QUIEN_CLAVE_LOCAL : adminEmail);

/**
 * An audit log detail as the console shows it. Rows written before these words existed may name a
 * job by its type ('Reintentó el trabajo n.º 5: Trabajo «subidas-limpieza»') or the local key by its
 * command: both read in words, whatever the row stored.
 */
export const detalleLegible = (detalle: string): string =>
  detalle.replace(/Trabajo «([a-z0-9-]+)»/g, (_, tipo: string) => describirTrabajo(tipo)).replaceAll(CLAVE_LOCAL, QUIEN_CLAVE_LOCAL);

/** The kinds of record the audit log and the reports name (`registro_admin.tipo`, a report's `tipo`). */
const TIPOS_REGISTRO: Record<string, string> = {
  usuario: 'Cuenta',
  trabajo: 'Trabajo',
  correo: 'Correo',
  respaldo: 'Respaldo',
  curriculo: 'Currículum',
  unidad: 'Unidad',
  oa: 'OA',
  capsula: 'Cápsula',
  material: 'Material',
  manual: 'Manual',
  comentario: 'Comentario',
  comentario_capsula: 'Comentario de una cápsula',
  comentario_material: 'Comentario de un material',
  comentario_manual: 'Comentario de un manual',
  conversacion: 'Conversación',
  comentario_foro: 'Comentario del foro',
  categoria: 'Categoría del foro',
  copia_datos: 'Copia de datos personales',
  ajuste: 'Ajuste de la red',
};

/** A kind of record in words ('comentario_foro' → 'Comentario del foro'); one not listed loses its underscores. */
export function nombreTipoRegistro(tipo: string): string {
  const texto = tipo.replace(/_/g, ' ');
  return TIPOS_REGISTRO[tipo] ?? texto.charAt(0).toUpperCase() + texto.slice(1);
}

/** The record an audit-logged action was about: 'Cuenta n.º 12', 'Currículum'. */
export const nombreRegistro = (tipo: string, id: number | null): string =>
  id === null ? nombreTipoRegistro(tipo) : `${nombreTipoRegistro(tipo)} n.º ${id}`;

/**
 * The audit log's actions (`registro_admin.accion`, a stable lower-case name) in words: the
 * console's own (users, jobs, moderation, curriculum, backups) and those of the other screens
 * where an admin acts on someone else's content.
 */
const ACCIONES: Record<string, string> = {
  invitar: 'Invitar',
  importar: 'Importar planilla',
  reenviar_activacion: 'Reenviar activación',
  desactivar: 'Desactivar',
  reactivar: 'Reactivar',
  dar_admin: 'Dar admin',
  quitar_admin: 'Quitar admin',
  cambiar_colegio: 'Cambiar colegio',
  reintentar_trabajo: 'Reintentar trabajo',
  reintentar_correo: 'Reintentar correo',
  moderar_ocultar: 'Moderación: ocultar',
  moderar_restaurar: 'Moderación: restaurar',
  moderar_eliminar: 'Moderación: eliminar',
  moderar_descartar: 'Moderación: descartar',
  crear_unidad: 'Currículum: crear unidad',
  renombrar_unidad: 'Currículum: renombrar unidad',
  ordenar_unidad: 'Currículum: ordenar unidad',
  retirar_unidad: 'Currículum: retirar unidad',
  restaurar_unidad: 'Currículum: restaurar unidad',
  eliminar_unidad: 'Currículum: eliminar unidad',
  mover_oa: 'Currículum: mover OA',
  ordenar_oa: 'Currículum: ordenar OA',
  editar_oa: 'Currículum: corregir OA',
  retirar_oa: 'Currículum: retirar OA',
  restaurar_oa: 'Currículum: restaurar OA',
  importar_curriculo: 'Currículum: importar archivo',
  crear_respaldo: 'Crear respaldo',
  descargar_respaldo: 'Descargar respaldo',
  editar_conversacion: 'Foro: editar conversación',
  eliminar_conversacion: 'Foro: eliminar conversación',
  editar_comentario_foro: 'Foro: editar comentario',
  eliminar_comentario_foro: 'Foro: eliminar comentario',
  editar_comentario: 'Editar comentario',
  eliminar_comentario: 'Eliminar comentario',
  subir_subtitulos: 'Subir subtítulos',
  eliminar_subtitulos: 'Eliminar subtítulos',
  revisar_curriculo: 'Currículum: revisar',
  descargar_copia_datos: 'Descargar su copia de datos personales',
  editar_responsable_datos: 'Privacidad: editar el responsable de los datos',
  programar_eliminacion: 'Programar la eliminación de una cuenta',
  eliminar_cuenta: 'Eliminar una cuenta',
  cancelar_eliminacion: 'Cancelar la eliminación de una cuenta',
  oidc_ingreso: 'Ingreso con cuenta del colegio',
  oidc_activar: 'Activación con cuenta del colegio',
  oidc_cuenta_automatica: 'Cuenta creada al ingresar con cuenta del colegio',
  oidc_rechazo: 'Ingreso con cuenta del colegio rechazado',
  activar_segundo_factor: 'Activar la verificación en dos pasos',
  quitar_segundo_factor: 'Quitar la verificación en dos pasos',
  reiniciar_segundo_factor: 'Reiniciar la verificación en dos pasos',
  codigo_segundo_factor_fallido: 'Código de verificación en dos pasos incorrecto',
  usar_codigo_recuperacion: 'Ingreso con un código de recuperación',
  oidc_vincular: 'Vincular cuenta del colegio',
  oidc_desvincular: 'Desvincular cuenta del colegio',
  editar_cuentas_automaticas: 'Cuentas automáticas por dominio',
};

/** An audit log action in words ('dar_admin' → 'Dar admin'); one not listed is written from its code, without underscores. */
export function nombreAccion(accion: string): string {
  const texto = accion.replace(/_/g, ' ');
  return ACCIONES[accion] ?? texto.charAt(0).toUpperCase() + texto.slice(1);
}
