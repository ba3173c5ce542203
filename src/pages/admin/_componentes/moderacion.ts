/** What /admin/moderacion writes about a reported item (issue 17): its kind and the decision taken. */
import { type AccionModeracion, ETIQUETAS_ACCION, type TipoDenuncia } from '../../../lib/validation/denuncias.ts';

/** The kind of a reported item, as the card's label says it. */
export const NOMBRES_TIPO: Record<TipoDenuncia, string> = {
  capsula: 'Cápsula',
  material: 'Material',
  manual: 'Manual',
  comentario_capsula: 'Comentario',
  comentario_material: 'Comentario',
  comentario_manual: 'Comentario',
  conversacion: 'Conversación',
  comentario_foro: 'Comentario',
  usuario: 'Perfil',
};

/** A resolved item's decision, in the past tense. */
export const DECISIONES: Record<AccionModeracion, string> = {
  ocultar: 'Ocultado',
  restaurar: 'Restaurado',
  eliminar: 'Eliminado',
  descartar: 'Denuncias descartadas',
};

export const denunciasEn = (n: number) => (n === 1 ? '1 denuncia' : `${n} denuncias`);

type Item = { tipo: TipoDenuncia; titulo: string; oculto: boolean; existe: boolean };

const esComentario = (tipo: TipoDenuncia) => tipo.startsWith('comentario_');

/** The item in the buttons' names and the delete question: 'el comentario en «Fracciones»'. */
export function descripcionItem({ tipo, titulo }: Item): string {
  if (esComentario(tipo)) return `el comentario en «${titulo}»`;
  if (tipo === 'usuario') return `el perfil de ${titulo}`;
  const articulo = tipo === 'capsula' || tipo === 'conversacion' ? 'la' : 'el';
  return `${articulo} ${NOMBRES_TIPO[tipo].toLowerCase()} «${titulo}»`;
}

/** The card's heading: the item's title; a comment's names what it is on. */
export const encabezadoItem = ({ tipo, titulo }: Item): string => (esComentario(tipo) ? `Comentario en «${titulo}»` : titulo);

/** What Eliminar does to each kind, as its author's own delete (or, for a profile, /admin/usuarios) does it. */
export function efectoEliminar(tipo: TipoDenuncia): string {
  if (esComentario(tipo)) return "Si tiene respuestas, quedará como 'Comentario eliminado'.";
  if (tipo === 'usuario') return 'Se desactivará la cuenta de la persona.';
  return 'Se borrarán también sus comentarios.';
}

/** The decisions an open item admits: hide what shows or show what is hidden, delete what still exists, dismiss. */
export function accionesDe({ oculto, existe }: Item): { accion: AccionModeracion; etiqueta: string; hecho: string }[] {
  const acciones: AccionModeracion[] = existe ? [oculto ? 'restaurar' : 'ocultar', 'eliminar', 'descartar'] : ['descartar'];
  return acciones.map((accion) => ({ accion, etiqueta: ETIQUETAS_ACCION[accion], hecho: `${DECISIONES[accion]}.` }));
}
