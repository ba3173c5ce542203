/** The Spanish sentence of a (grouped) notification, for the list and for mail (issue 17). */

const NOMBRES: Record<string, string> = {
  capsula: 'cápsula',
  material: 'material',
  manual: 'manual',
  conversacion: 'conversación',
  comentario_foro: 'comentario',
  comentario_capsula: 'comentario',
  comentario_material: 'comentario',
  comentario_manual: 'comentario',
  usuario: 'perfil',
};
/** Kinds named by a feminine noun: the participle agrees ('Tu cápsula … fue ocultada'). */
const FEMENINOS = new Set(['capsula', 'conversacion']);
/** A comment's `titulo` is the title of what it is on ('Tu comentario en «…»'). */
const esComentario = (recurso_tipo: string) => recurso_tipo.startsWith('comentario_');

/** What is new where one follows (issue 35), one and many: 'Nuevo material', '3 materiales nuevos'. */
const NOVEDADES: Record<string, [string, string]> = {
  material: ['Nuevo material', 'materiales nuevos'],
  capsula: ['Nueva cápsula', 'cápsulas nuevas'],
  manual: ['Nuevo manual', 'manuales nuevos'],
  conversacion: ['Nueva conversación', 'conversaciones nuevas'],
};
/** Where, by the kind of follow: 'para MA07 OA 03', 'de Ana Pérez', 'en «Evaluación»'. */
const DONDE: Record<string, (titulo: string) => string> = {
  seguimiento_oa: (t) => `para ${t}`,
  seguimiento_area_nivel: (t) => `para ${t}`,
  seguimiento_usuario: (t) => `de ${t}`,
  seguimiento_categoria: (t) => `en «${t}»`,
};

/** A follow's notification: the kind of what is new (`detalle`, 'varios' when mixed) and how many. */
function textoSeguimiento(n: { recurso_tipo: string; titulo: string; detalle?: string; cantidad?: number }): string {
  const cantidad = n.cantidad ?? 1;
  const [uno, varios] = NOVEDADES[n.detalle ?? ''] ?? ['Novedad', 'novedades'];
  const donde = (DONDE[n.recurso_tipo] ?? ((t: string) => `en ${t}`))(n.titulo);
  return cantidad <= 1 ? `${uno} ${donde}` : `${cantidad} ${varios} ${donde}`;
}

/** The Spanish sentence of a (grouped) notification; `cantidad`: how many new items a follow's stands for. */
export function textoNotificacion(
  n: { tipo: string; recurso_tipo: string; titulo: string; detalle?: string; cantidad?: number },
  actores: string[],
): string {
  const uno = actores.length <= 1;
  const quien = actores.length === 0 ? 'Alguien' : uno ? actores[0] : `${actores[0]} y ${actores.length - 1} más`;
  const cosa = NOMBRES[n.recurso_tipo] ?? 'publicación';
  const titulo = `«${n.titulo}»`;
  const motivo = n.detalle ? ` Motivo: ${n.detalle}` : '';
  const queEs = esComentario(n.recurso_tipo) ? `comentario en ${titulo}` : `${cosa} ${titulo}`;
  const participio = (raiz: string) => `${raiz}${FEMENINOS.has(n.recurso_tipo) ? 'a' : 'o'}`;
  switch (n.tipo) {
    case 'respuesta':
      return `${quien} ${uno ? 'respondió' : 'respondieron'} a tu comentario en ${titulo}`;
    case 'comentario':
      return `${quien} ${uno ? 'comentó' : 'comentaron'} tu ${cosa} ${titulo}`;
    case 'me_gusta':
      return `${quien} ${uno ? 'marcó' : 'marcaron'} «Me gusta» en tu ${cosa} ${titulo}`;
    case 'reaccion':
      return n.recurso_tipo === 'comentario_foro'
        ? `${quien} ${uno ? 'reaccionó' : 'reaccionaron'} a tu comentario en ${titulo}`
        : `${quien} ${uno ? 'reaccionó' : 'reaccionaron'} a tu ${cosa} ${titulo}`;
    case 'oculto':
      return `Tu ${queEs} fue ${participio('ocultad')} por moderación.${motivo}`;
    case 'restaurado':
      return `Tu ${queEs} fue ${participio('restaurad')}.${motivo}`;
    case 'eliminado':
      return `Tu ${queEs} fue ${participio('eliminad')} por moderación.${motivo}`;
    case 'denuncia_resuelta':
      return `Tu denuncia sobre ${esComentario(n.recurso_tipo) ? `un comentario en ${titulo}` : titulo} fue resuelta.${motivo}`;
    case 'seguimiento':
      return textoSeguimiento(n);
    case 'copia_lista':
      return 'La copia de tus datos está lista para descargar en Mis datos.';
    case 'mochila_lista':
      return `Tu mochila ${titulo} está lista`;
    default:
      return `Novedad en ${titulo}`;
  }
}
