/**
 * The admin console's accounts and audit log (issue 16): the query strings of its lists and the
 * account change, shared by the API and the /admin pages' forms.
 */
import { z } from 'zod';
import { booleano } from './campos.ts';
import { pagina, texto } from './listas.ts';
import { cadena } from './texto.ts';

export const ROLES_ADMIN = ['docente', 'admin'] as const;
export const ESTADOS_CUENTA = ['activa', 'pendiente', 'desactivada', 'eliminada'] as const;
export const ORDENES_USUARIOS = ['nombre', '-nombre', 'email', '-email', 'fecha', '-fecha'] as const;
export type EstadoCuenta = (typeof ESTADOS_CUENTA)[number];
export type OrdenUsuarios = (typeof ORDENES_USUARIOS)[number];

export const TAMANO_PAGINA_ADMIN = 25;
export const TAMANO_PAGINA_ADMIN_MAX = 100;

/** A page size from 1 to 100; anything else means the default (25), as in every list. */
const tamanoPaginaAdmin = z.coerce.number().int().min(1).max(TAMANO_PAGINA_ADMIN_MAX).catch(TAMANO_PAGINA_ADMIN);

/** An optional choice among `valores`; '' means none. */
const opcion = <const T extends readonly [string, ...string[]]>(valores: T, mensaje: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(valores, { error: mensaje }).optional());

export const filtrosUsuariosSchema = z.object({
  q: texto,
  rol: opcion(ROLES_ADMIN, 'Rol no válido: use docente o admin'),
  estado: opcion(ESTADOS_CUENTA, 'Estado no válido: use activa, pendiente, desactivada o eliminada'),
  orden: opcion(ORDENES_USUARIOS, 'Orden no válido'),
  pagina,
  tamano_pagina: tamanoPaginaAdmin,
});
export type FiltrosUsuarios = z.output<typeof filtrosUsuariosSchema>;

export const filtrosRegistroSchema = z.object({ q: texto, pagina, tamano_pagina: tamanoPaginaAdmin });
export type FiltrosRegistro = z.output<typeof filtrosRegistroSchema>;

export const CAMBIO_VACIO = 'Indique al menos un cambio: activo, admin o colegio';

/** PATCH /api/admin/usuarios/{id}/: any of activo, admin, colegio ('' removes the school). */
export const cambioUsuarioSchema = z
  .strictObject(
    {
      activo: booleano('activo').optional(),
      admin: booleano('admin').optional(),
      colegio: cadena({ error: 'El colegio debe ser un texto' }).trim().max(150, 'Puede ingresar hasta 150 caracteres').optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Campo no permitido: ${issue.keys.join(', ')}` : undefined) },
  )
  .refine((v) => v.activo !== undefined || v.admin !== undefined || v.colegio !== undefined, CAMBIO_VACIO);
export type CambioUsuario = z.output<typeof cambioUsuarioSchema>;

/** The text fields of the roster import's form (the file travels in `archivo`). */
export const importacionSchema = z.object({
  confirmar: z.preprocess(
    (v) => (v === undefined || v === '' ? 'false' : v),
    z.enum(['true', 'false'], { error: 'confirmar debe ser true o false' }),
  ),
});

/** The roster's limits: a school's staff fits many times over. */
export const IMPORTACION_MAX_BYTES = 1024 * 1024;
export const IMPORTACION_MAX_LINEAS = 2000;
