/** The Spanish names of the forum's sorts (docs/SPEC.md section 9), in the order the selects show them. */
import type { OrdenCategoria, OrdenConversacion } from '../../../lib/validation/foro.ts';

export const ETIQUETAS_ORDEN_CATEGORIA: Record<OrdenCategoria, string> = {
  fecha: 'Fecha',
  fecha_primer_post: 'Fecha del primer post',
  fecha_ultimo_post: 'Fecha del último post',
  n_conversaciones: 'Número de conversaciones',
  n_comentarios: 'Número de comentarios',
  n_visitas: 'Número de visitas',
  n_total_reacciones: 'Número de reacciones',
};

export const ETIQUETAS_ORDEN_CONVERSACION: Record<OrdenConversacion, string> = {
  fecha: 'Fecha',
  n_visitas: 'Número de visitas',
};
