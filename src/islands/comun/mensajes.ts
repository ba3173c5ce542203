/**
 * The toasts of docs/SPEC.md section 8 for the three kinds of content, word for word (their grammar
 * included: 'la material', 'la manual'), so every screen says the same thing.
 */
import type { TipoRecurso } from './recursos';

export interface Mensajes {
  agregado: (titulo: string) => string;
  noSubido: string;
  editado: (titulo: string) => string;
  noEditado: string;
  eliminado: (titulo: string) => string;
  noEliminado: (titulo: string) => string;
  noDescargado: (titulo: string) => string;
}

export const MENSAJES: Record<TipoRecurso, Mensajes> = {
  capsula: {
    agregado: (t) => `Capsula ${t} agregada exitosamente!`,
    noSubido: 'No se pudo subir la capsula',
    editado: (t) => `Cápsula ${t} editada exitosamente!`,
    noEditado: 'No se pudo editar la cápsula',
    eliminado: (t) => `Capsula ${t} eliminada con exito`,
    noEliminado: (t) => `No se pudo eliminar la capsula ${t}`,
    noDescargado: (t) => `No se pudo descargar la capsula ${t}`,
  },
  material: {
    agregado: (t) => `Material ${t} agregado exitosamente!`,
    noSubido: 'No se pudo subir el material',
    editado: (t) => `Material ${t} modificado exitosamente!`,
    noEditado: 'No se pudieron realizar los cambios',
    eliminado: (t) => `Material ${t} eliminado con exito`,
    noEliminado: (t) => `No se pudo eliminar la material ${t}`,
    noDescargado: (t) => `No se pudo descargar el material ${t}`,
  },
  manual: {
    agregado: (t) => `Manual ${t} agregado exitosamente!`,
    noSubido: 'No se pudo subir el manual',
    editado: (t) => `Manual ${t} editado exitosamente!`,
    noEditado: 'No se pudo editar el manual',
    eliminado: (t) => `Manual ${t} eliminado con exito`,
    noEliminado: (t) => `No se pudo eliminar la manual ${t}`,
    noDescargado: (t) => `No se pudo descargar el manual ${t}`,
  },
};
