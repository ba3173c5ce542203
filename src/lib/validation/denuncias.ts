/** Reports of abuse and the moderation queue (issue 17): the report form and the admin's decision. */
import { z } from 'zod';
import { idPositivo } from './campos.ts';
import { pagina } from './listas.ts';
import { cadena } from './texto.ts';

/** What can be reported: the three kinds of content, their comments, the forum and a profile. */
export const TIPOS_DENUNCIA = [
  'capsula',
  'material',
  'manual',
  'comentario_capsula',
  'comentario_material',
  'comentario_manual',
  'conversacion',
  'comentario_foro',
  'usuario',
] as const;
export type TipoDenuncia = (typeof TIPOS_DENUNCIA)[number];

export const MOTIVOS_DENUNCIA = ['spam', 'ofensivo', 'inapropiado', 'otro'] as const;
export type MotivoDenuncia = (typeof MOTIVOS_DENUNCIA)[number];

/** The report form's labels for each reason, in the order shown. */
export const ETIQUETAS_MOTIVO: Record<MotivoDenuncia, string> = {
  spam: 'Spam o publicidad',
  ofensivo: 'Ofensivo',
  inapropiado: 'Inapropiado',
  otro: 'Otro',
};

export const ACCIONES_MODERACION = ['ocultar', 'restaurar', 'eliminar', 'descartar'] as const;
export type AccionModeracion = (typeof ACCIONES_MODERACION)[number];

/** The moderation queue's button labels. */
export const ETIQUETAS_ACCION: Record<AccionModeracion, string> = {
  ocultar: 'Ocultar',
  restaurar: 'Restaurar',
  eliminar: 'Eliminar',
  descartar: 'Descartar',
};

const detalle = cadena({ error: 'Ingresa un texto válido' }).trim().max(1000, 'Puede ingresar hasta 1000 caracteres');

export const denunciaSchema = z.object({
  tipo: z.enum(TIPOS_DENUNCIA, { error: 'Tipo de contenido no válido' }),
  id: idPositivo('Identificador no válido'),
  motivo: z.enum(MOTIVOS_DENUNCIA, { error: 'Elige un motivo' }),
  detalle: detalle.optional().default(''),
});
export type DenunciaEntrada = z.input<typeof denunciaSchema>;

export const resolucionSchema = z.object({
  accion: z.enum(ACCIONES_MODERACION, { error: 'Elige una acción válida' }),
  motivo: detalle.optional().default(''),
});

export const ESTADOS_DENUNCIA = ['abierta', 'resuelta'] as const;

export const listaDenunciasQuery = z.object({
  estado: z.enum(ESTADOS_DENUNCIA, { error: "El estado debe ser 'abierta' o 'resuelta'" }).default('abierta'),
  pagina,
});
