/**
 * Saved items and collections (issue 35): what can be kept (capsules, materials, manuals and
 * forum conversations), the collection form and its items. Shared by the forms and the server.
 */
import { z } from 'zod';
import { idPositivo, requeridoHasta } from './campos.ts';
import { cadena } from './texto.ts';

/** What a person can save or put in a collection. */
export const TIPOS_GUARDABLES = ['capsula', 'material', 'manual', 'conversacion'] as const;
export type TipoGuardable = (typeof TIPOS_GUARDABLES)[number];

/** Each kind's name in lists and headings ('Cápsulas', …), in the order 'Mis guardados' shows them. */
export const NOMBRES_TIPO: Record<TipoGuardable, { uno: string; varios: string }> = {
  capsula: { uno: 'Cápsula', varios: 'Cápsulas' },
  material: { uno: 'Material', varios: 'Materiales' },
  manual: { uno: 'Manual', varios: 'Manuales' },
  conversacion: { uno: 'Conversación', varios: 'Conversaciones' },
};

export const NOMBRE_COLECCION_MAX = 120;
export const DESCRIPCION_COLECCION_MAX = 2000;
/** A note beside an item: a few sentences ('Usar después de la guía 2'), not a document. */
export const NOTA_MAX = 1000;
/** Items in one collection: a unit or a semester's worth, not an archive. */
export const ITEMS_MAX = 500;
/** Collections per person. */
export const COLECCIONES_MAX = 200;

const tipo = z.enum(TIPOS_GUARDABLES, { error: 'Tipo de contenido no válido' });
const id = idPositivo('Identificador no válido');

export const guardadoSchema = z.object({ tipo, id });
export type GuardadoEntrada = z.input<typeof guardadoSchema>;

/** The path of DELETE /api/guardados/{tipo}/{id}/. */
export const guardadoParam = z.object({ tipo, id });

const nota = cadena({ error: 'Ingresa un texto válido' }).trim().max(NOTA_MAX, `La nota puede tener hasta ${NOTA_MAX} caracteres`);

/** A collection's own fields, when created or edited. */
export const coleccionSchema = z.object({
  nombre: requeridoHasta('Debe ingresar un nombre', NOMBRE_COLECCION_MAX),
  descripcion: cadena({ error: 'Ingresa un texto válido' })
    .trim()
    .max(DESCRIPCION_COLECCION_MAX, `Puede ingresar hasta ${DESCRIPCION_COLECCION_MAX} caracteres`)
    .optional()
    .default(''),
  compartida: z.boolean({ error: 'Indica si la colección se comparte' }).optional().default(false),
});
export type ColeccionEntrada = z.input<typeof coleccionSchema>;

const version = z.number({ error: 'Falta la versión de la colección' }).int().min(0);

/**
 * An edit: its fields and, optionally, its items in their new order with their notes (an item
 * left out is removed). `version` is the one the editor read: another edit in between is a 409.
 */
export const edicionColeccionSchema = coleccionSchema.extend({
  version,
  items: z
    .array(z.object({ id: id, nota: nota.optional().default('') }), { error: 'Lista de elementos no válida' })
    .max(ITEMS_MAX, `Una colección puede tener hasta ${ITEMS_MAX} elementos`)
    .optional(),
});
export type EdicionColeccionEntrada = z.input<typeof edicionColeccionSchema>;

/** An item added to a collection. */
export const itemColeccionSchema = z.object({ tipo, id, nota: nota.optional().default('') });
export type ItemColeccionEntrada = z.input<typeof itemColeccionSchema>;

/** The path of an item: the collection and the item's own id (not the content's). */
export const itemParam = z.object({ id, item: idPositivo('Identificador no válido') });
