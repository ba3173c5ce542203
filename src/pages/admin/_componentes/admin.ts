/**
 * What the admin console's pages share (issue 16): who may see them, the console's own menu, the
 * Spanish names of account states and the query strings of its lists. A bad query value is
 * dropped (the list shows without it), as on the other lists.
 */
import type { AstroGlobal } from 'astro';
import { z } from 'zod';
import { esAdmin } from '../../../lib/permisos.ts';
import { filtrosPagina, pagina, tamanoPagina, texto } from '../../../lib/validation/listas.ts';
import { usuarioDe } from '../../_componentes/paginas.ts';

type Usuario = ReturnType<typeof usuarioDe>;

/**
 * What every console page starts with: whether the signed-in person may see it (a 403 status
 * otherwise; the page then shows SIN_PERMISOS) and, given its query schema, the filters of the
 * URL with what is wrong dropped.
 */
export function accesoAdmin(astro: AstroGlobal): { usuario: Usuario; permitido: boolean };
export function accesoAdmin<S extends z.ZodType>(
  astro: AstroGlobal,
  schema: S,
): { usuario: Usuario; permitido: boolean; filtros: z.output<S> };
export function accesoAdmin(astro: AstroGlobal, schema?: z.ZodType) {
  const usuario = usuarioDe(astro.locals);
  const permitido = esAdmin(usuario);
  if (!permitido) astro.response.status = 403;
  return schema ? { usuario, permitido, filtros: filtrosPagina(schema, astro.url.searchParams) } : { usuario, permitido };
}

export const SIN_PERMISOS = {
  titulo: 'No tienes permisos',
  texto: 'Solo los administradores pueden usar la consola de administración.',
};

export const SECCIONES_ADMIN = [
  { href: '/admin/usuarios', nombre: 'Usuarios' },
  { href: '/admin/moderacion', nombre: 'Moderación' },
  { href: '/admin/curriculo', nombre: 'Currículum' },
  { href: '/admin/trabajos', nombre: 'Trabajos y correos' },
  { href: '/admin/respaldos', nombre: 'Respaldos' },
  { href: '/admin/estadisticas', nombre: 'Estadísticas' },
  { href: '/admin/solicitudes', nombre: 'Solicitudes de datos' },
  { href: '/admin/registro', nombre: 'Registro' },
  { href: '/admin/privacidad-aviso', nombre: 'Aviso de privacidad' },
  { href: '/admin/licencias', nombre: 'Licencias' },
  { href: '/admin/ingreso-externo', nombre: 'Ingreso con cuentas del colegio' },
] as const;

/** An email's two halves, so a narrow cell breaks it before the '@' (with <wbr>) and nowhere else. */
export function partesCorreo(email: string): [string, string] {
  const arroba = email.lastIndexOf('@');
  return arroba > 0 ? [email.slice(0, arroba), email.slice(arroba)] : [email, ''];
}

export const ESTADOS_CUENTA = {
  activa: 'Activa',
  pendiente: 'Pendiente de activación',
  desactivada: 'Desactivada',
  eliminada: 'Eliminada',
} as const;
export const ROLES = { docente: 'Docente', admin: 'Administrador' } as const;
export const ORDENES_USUARIOS = {
  nombre: 'Nombre (A-Z)',
  '-nombre': 'Nombre (Z-A)',
  email: 'Correo (A-Z)',
  '-email': 'Correo (Z-A)',
  '-fecha': 'Más recientes',
  fecha: 'Más antiguas',
} as const;

const opcion = <T extends string>(valores: readonly [T, ...T[]]) => z.enum(valores).optional().catch(undefined);
const claves = <T extends string>(o: Record<T, unknown>) => Object.keys(o) as [T, ...T[]];

export const filtrosUsuariosSchema = z.object({
  q: texto,
  rol: opcion(claves(ROLES)),
  estado: opcion(claves(ESTADOS_CUENTA)),
  orden: z.enum(claves(ORDENES_USUARIOS)).catch('nombre'),
  pagina,
  tamano_pagina: tamanoPagina,
});

export const ESTADOS_CORREO = { pendiente: 'Pendientes', enviado: 'Enviados', fallido: 'Fallidos' } as const;
export const filtrosCorreosSchema = z.object({ estado: opcion(claves(ESTADOS_CORREO)), pagina });

export const filtrosRegistroSchema = z.object({ q: texto, pagina, tamano_pagina: tamanoPagina });
