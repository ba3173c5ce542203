/**
 * Profile forms (docs/SPEC.md sections 5 and 9): personal information, specialties and areas, and the
 * directory's query. One zod schema per form, shared by the islands and the server, with the
 * exact Spanish messages. The rules without zod live in perfil-reglas.ts, so islands can use
 * them without loading zod up front.
 */
import { z } from 'zod';
import { requerido } from './campos.ts';
import { filtroId, pagina, tamanoPagina, texto } from './listas.ts';
import {
  AREA_REQUERIDA,
  EMAIL_INVALIDO,
  ESPECIALIDAD_MAX,
  ESPECIALIDAD_MIN,
  ESPECIALIDAD_REQUERIDA,
  GENEROS,
  normalizarTelefono,
  OTRA_ESPECIALIDAD,
  TELEFONO_INVALIDO,
} from './perfil-reglas.ts';
import { cadena } from './texto.ts';

export * from './perfil-reglas.ts';

/**
 * The directory's query string (openapi.yaml listProfesores), shared by the API and the page: a
 * mistyped URL shows the first page without filters instead of an error.
 */
export const busquedaProfesoresSchema = z.object({
  profesor: texto,
  colegio: filtroId,
  area: filtroId,
  pagina,
  tamano_pagina: tamanoPagina,
  usuario: filtroId,
});

/** The personal-information modal: name, rut, nationality and birth date are read-only. */
export const datosPersonalesSchema = z.object({
  email: requerido('Debe ingresar un email')
    .max(254, EMAIL_INVALIDO)
    .pipe(z.email(EMAIL_INVALIDO))
    .transform((e) => e.toLowerCase()),
  genero: z.enum(GENEROS, { error: 'Debe ingresar un género' }),
  telefono: requerido('Debe ingresar un telefono')
    .max(30, TELEFONO_INVALIDO)
    .refine((t) => normalizarTelefono(t) !== null, TELEFONO_INVALIDO)
    .transform((t) => normalizarTelefono(t) ?? t),
});
export type DatosPersonalesEntrada = z.input<typeof datosPersonalesSchema>;
export type DatosPersonales = z.output<typeof datosPersonalesSchema>;

/** A specialty chosen from the list or written by the teacher. */
export const especialidadSchema = z.object({
  especialidad: requerido(ESPECIALIDAD_REQUERIDA)
    .max(ESPECIALIDAD_MAX, { error: 'Debe ser menor a 100 caracteres', abort: true })
    .min(ESPECIALIDAD_MIN, 'Debe ser mayor a 4 caracteres')
    .transform((e) => e.replace(/\s+/g, ' ')),
});
export type EspecialidadEntrada = z.infer<typeof especialidadSchema>;

/**
 * The specialty picker: a name from the list, or 'Otra' and a written name. Each message lands
 * on the field the person must fix; the output is what the server receives.
 */
export const eleccionEspecialidadSchema = z
  .object({ seleccion: cadena().default(''), otra: cadena().default('') })
  .superRefine((v, ctx) => {
    if (!v.seleccion) {
      ctx.addIssue({ code: 'custom', message: ESPECIALIDAD_REQUERIDA, path: ['seleccion'] });
      return;
    }
    const nombre = especialidadSchema.shape.especialidad.safeParse(v.seleccion === OTRA_ESPECIALIDAD ? v.otra : v.seleccion);
    for (const issue of nombre.error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: [v.seleccion === OTRA_ESPECIALIDAD ? 'otra' : 'seleccion'] });
    }
  })
  .transform((v) => ({ especialidad: (v.seleccion === OTRA_ESPECIALIDAD ? v.otra : v.seleccion).trim().replace(/\s+/g, ' ') }));
export type EleccionEspecialidad = z.input<typeof eleccionEspecialidadSchema>;

/** A curriculum area, by its name. */
export const areaPerfilSchema = z.object({
  area: requerido(AREA_REQUERIDA).max(200, AREA_REQUERIDA),
});
export type AreaPerfilEntrada = z.infer<typeof areaPerfilSchema>;

export const NIVEL_PERFIL_REQUERIDO = 'Debe seleccionar un nivel';

/** A curriculum level the teacher teaches, by its name ('7° Básico'), as areas are (issue 21). */
export const nivelPerfilSchema = z.object({
  nivel: requerido(NIVEL_PERFIL_REQUERIDO).max(200, NIVEL_PERFIL_REQUERIDO),
});
export type NivelPerfilEntrada = z.infer<typeof nivelPerfilSchema>;
