/**
 * Following (issue 35, decision 0074): an OA, an area and level, a colleague or a forum category.
 * One flat shape, `tipo` and the field(s) it names, shared by the buttons' forms and the API.
 */
import { z } from 'zod';
import { codigoNivel, idPositivo } from './campos.ts';

/** What a person can follow. */
export const TIPOS_SEGUIMIENTO = ['oa', 'area_nivel', 'usuario', 'categoria'] as const;
export type TipoSeguimiento = (typeof TIPOS_SEGUIMIENTO)[number];

/** Follows per person: a teacher's OAs for a year and their colleagues, not a copy of the catalogue. */
export const SEGUIMIENTOS_MAX = 300;
export const LIMITE_SEGUIMIENTOS = `Puedes seguir hasta ${SEGUIMIENTOS_MAX} cosas. Deja de seguir alguna para seguir otra.`;

const opcional = <T extends z.ZodType>(s: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), s.optional());

/** Which field each kind requires, and the message when it is missing. */
const REQUERIDOS: Record<TipoSeguimiento, { campos: ('oa' | 'area' | 'nivel' | 'usuario' | 'categoria')[]; mensaje: string }> = {
  oa: { campos: ['oa'], mensaje: 'Indica el OA que quieres seguir' },
  area_nivel: { campos: ['area', 'nivel'], mensaje: 'Indica el área y el nivel que quieres seguir' },
  usuario: { campos: ['usuario'], mensaje: 'Indica a quién quieres seguir' },
  categoria: { campos: ['categoria'], mensaje: 'Indica la categoría que quieres seguir' },
};

/** The fields without the rule of which one `tipo` needs (a form adds its own fields to it). */
export const camposSeguimiento = z.object({
  tipo: z.enum(TIPOS_SEGUIMIENTO, { error: 'Tipo de seguimiento no válido: use oa, area_nivel, usuario o categoria' }),
  oa: opcional(idPositivo('OA no válido')),
  area: opcional(idPositivo('Área no válida')),
  nivel: opcional(codigoNivel('Nivel no válido')),
  usuario: opcional(idPositivo('Docente no válido')),
  categoria: opcional(idPositivo('Categoría no válida')),
});

/** The rule: the field(s) `tipo` names are there. */
export function requeridosPorTipo(v: z.output<typeof camposSeguimiento>, ctx: z.RefinementCtx): void {
  const { campos, mensaje } = REQUERIDOS[v.tipo];
  for (const campo of campos) if (v[campo] === undefined) ctx.addIssue({ code: 'custom', path: [campo], message: mensaje });
}

export const seguimientoSchema = camposSeguimiento.superRefine(requeridosPorTipo);
export type SeguimientoEntrada = z.input<typeof seguimientoSchema>;
export type NuevoSeguimiento = z.output<typeof seguimientoSchema>;
