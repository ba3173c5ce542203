/**
 * What moderation may hide (issue 17, `oculto`), each table with the column naming its rows'
 * author, who still sees them hidden. One list for the services' visibility rule
 * (services/recursos.server.ts) and the kept totals' hidden rows (conteos.server.ts).
 */
import { capsulas, comentarios, foroComentarios, foroConversaciones, manuales, materiales, usuarios } from './schema.server.ts';

export const MODERADAS = {
  capsulas: { tabla: capsulas, autor: capsulas.id_usuario },
  materiales: { tabla: materiales, autor: materiales.id_usuario },
  manuales: { tabla: manuales, autor: manuales.id_usuario },
  comentarios: { tabla: comentarios, autor: comentarios.id_usuario },
  foroConversaciones: { tabla: foroConversaciones, autor: foroConversaciones.id_usuario_creador },
  foroComentarios: { tabla: foroComentarios, autor: foroComentarios.id_usuario },
  usuarios: { tabla: usuarios, autor: usuarios.id },
} as const;

export type Moderable = (typeof MODERADAS)[keyof typeof MODERADAS]['tabla'];
