/** The sections of the product: the side menu (docs/SPEC.md section 2) and the home cards. */
import { esAdmin } from './permisos.ts';

export type Icono = 'inicio' | 'capsulas' | 'manuales' | 'biblioteca' | 'comunidad' | 'foro' | 'perfil' | 'ayuda' | 'admin';

export interface Seccion {
  nombre: string;
  href: string;
  icono: Icono;
}

export interface Tarjeta extends Seccion {
  descripcion: string;
}

export const MENU: readonly Seccion[] = [
  { nombre: 'Inicio', href: '/', icono: 'inicio' },
  { nombre: 'Cápsulas Docentes', href: '/capsulas/', icono: 'capsulas' },
  { nombre: 'Manuales Pedagógicos', href: '/manuales/', icono: 'manuales' },
  { nombre: 'Biblioteca Docente', href: '/biblioteca-docente/', icono: 'biblioteca' },
  { nombre: 'Comunidad Docente', href: '/comunidad/', icono: 'comunidad' },
  { nombre: 'Foro', href: '/foro/', icono: 'foro' },
  { nombre: 'Perfil', href: '/perfil/editar', icono: 'perfil' },
];

/** The admin console (issue 16): in the menu of admins only. */
export const ADMINISTRACION: Seccion = { nombre: 'Administración', href: '/admin/usuarios', icono: 'admin' };

/** The side menu of a signed-in person: admins also get 'Administración'. */
export const menuDe = (groups: readonly string[] = []): readonly Seccion[] => (esAdmin({ groups }) ? [...MENU, ADMINISTRACION] : MENU);

export const TARJETAS_INICIO: readonly Tarjeta[] = [
  {
    nombre: 'Cápsulas Docentes',
    href: '/capsulas/',
    icono: 'capsulas',
    descripcion: 'Videos breves de prácticas de aula para ver, comentar y compartir.',
  },
  {
    nombre: 'Manuales Pedagógicos',
    href: '/manuales/',
    icono: 'manuales',
    descripcion: 'Manuales con orientaciones pedagógicas para leer y descargar.',
  },
  {
    nombre: 'Biblioteca Docente',
    href: '/biblioteca-docente/',
    icono: 'biblioteca',
    descripcion: 'Materiales de la red por nivel, asignatura y objetivo de aprendizaje.',
  },
  {
    nombre: 'Comunidad Docente',
    href: '/comunidad/',
    icono: 'comunidad',
    descripcion: 'Encuentra colegas por establecimiento y área, y contáctalos.',
  },
  { nombre: 'Foro', href: '/foro/', icono: 'foro', descripcion: 'Conversaciones por categoría para compartir ideas y experiencias.' },
  { nombre: 'Ayuda', href: '/ayuda', icono: 'ayuda', descripcion: 'Escríbenos una sugerencia, un reclamo o una consulta.' },
];

/** The menu item of a path: Inicio only for '/', the others for their whole subtree. */
export function seccionActual(pathname: string): string | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return '/';
  if (path.startsWith('/perfil')) return '/perfil/editar';
  if (path === '/admin' || path.startsWith('/admin/')) return ADMINISTRACION.href;
  return MENU.find((s) => s.href !== '/' && (path === s.href.replace(/\/$/, '') || path.startsWith(s.href)))?.href;
}
