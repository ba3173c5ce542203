/**
 * The forum's forms and searches (docs/SPEC.md sections 5 and 9): new conversation, create and edit
 * category, forum comments and the conversation date search, with the exact Spanish messages.
 * Shared by the islands (loaded lazily, as zod is large) and the server.
 */
import { z } from 'zod';
import { DESCRIPCION_MAX, requerido, requeridoHasta } from './campos.ts';
import { comentarioSchema } from './comentarios.ts';
import { pagina, tamanoPagina, texto } from './listas.ts';
import { cadena } from './texto.ts';

// The category image check is zod-free (archivos.ts), so the form imports it directly; the server
// refuses with the same messages.
export { IMAGEN_INVALIDA, IMAGEN_REQUERIDA } from './archivos.ts';

const TITULO_MAX = 120;
const CONTENIDO_MAX = 3000;
const NOMBRE_MAX = 150;

// ── Conversations ───────────────────────────────────────────────────────────────────────────────

export const conversacionSchema = z.object({
  titulo: requerido('Debe ingresar un titulo').max(TITULO_MAX, `Se permiten hasta ${TITULO_MAX} caractéres`),
  contenido: requerido('Debe ingresar el contenido de la conversación').max(CONTENIDO_MAX, `Se permiten hasta ${CONTENIDO_MAX} caractéres`),
});
export type ConversacionInput = z.infer<typeof conversacionSchema>;

/** A forum comment or reply: the same rule as every comment ('Debe ingresar un comentario'). */
export const comentarioForoSchema = comentarioSchema;

// ── Categories ──────────────────────────────────────────────────────────────────────────────────

const nombre = requeridoHasta('Debe ingresar un nombre', NOMBRE_MAX);
const descripcionMax = cadena().trim().max(DESCRIPCION_MAX, `Puede ingresar hasta ${DESCRIPCION_MAX} caracteres`);

/** The Si/No select (default No): forms send 'true'/'false'; JSON clients send booleans. */
const activa = z.preprocess(
  (v) => {
    if (typeof v === 'boolean') return v;
    const s = String(Array.isArray(v) ? v[0] : (v ?? ''))
      .trim()
      .toLowerCase();
    if (s === '' || s === 'false' || s === 'no' || s === '0') return false;
    if (s === 'true' || s === 'si' || s === 'sí' || s === '1') return true;
    return v;
  },
  z.boolean({ error: 'Debe indicar si la categoria está activa' }),
);

export const categoriaSchema = z.object({
  nombre,
  // docs/SPEC.md section 5 gives this text for a missing description.
  descripcion: requeridoHasta('Puede ingresar una descripción', DESCRIPCION_MAX),
  activa,
});
export type CategoriaInput = z.infer<typeof categoriaSchema>;

/** Editing: the description may be left empty; the image is optional. */
export const categoriaEdicionSchema = z.object({ nombre, descripcion: descripcionMax.optional(), activa });
export type CategoriaEdicionInput = z.infer<typeof categoriaEdicionSchema>;

// ── Lists ───────────────────────────────────────────────────────────────────────────────────────

/** docs/SPEC.md section 9: the category sorts ('fecha', the default, is the category's own date). */
const ORDENES_CATEGORIA = [
  'fecha',
  'fecha_primer_post',
  'fecha_ultimo_post',
  'n_conversaciones',
  'n_comentarios',
  'n_visitas',
  'n_total_reacciones',
] as const;
export type OrdenCategoria = (typeof ORDENES_CATEGORIA)[number];

const ORDENES_CONVERSACION = ['fecha', 'n_visitas'] as const;
export type OrdenConversacion = (typeof ORDENES_CONVERSACION)[number];

const verdadero = z.preprocess((v) => String(Array.isArray(v) ? v[0] : v) === 'true', z.boolean());

export const listaCategoriasSchema = z.object({
  nombre: texto,
  pagina,
  tamano_pagina: tamanoPagina,
  order: z.enum(ORDENES_CATEGORIA).catch('fecha'),
  get_for_edit: verdadero,
});
export type ListaCategoriasInput = z.infer<typeof listaCategoriasSchema>;

// ── Conversation search dates ───────────────────────────────────────────────────────────────────

const FECHA_INVALIDA = 'Formato de fecha inválido';
const FECHA_FUTURA = 'La fecha ingresada no puede ser superior a hoy';
const INICIO_POSTERIOR = 'La fecha de inicio no puede ser superior a la de término';
const TERMINO_ANTERIOR = 'La fecha de término no puede ser inferior a la de inicio';

const chile = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today in Chile as YYYY-MM-DD (the platform's users are there, whatever the server's zone). */
export function hoyEnChile(now: Date = new Date()): string {
  return chile.format(now);
}

/** A real calendar day written YYYY-MM-DD. */
function esFecha(valor: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(valor);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const fecha = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && fecha.getUTCFullYear() === y && fecha.getUTCMonth() === mo - 1 && fecha.getUTCDate() === d;
}

interface ErroresFechas {
  fecha_desde?: string[];
  fecha_hasta?: string[];
}

/** The four date rules of docs/SPEC.md section 5; empty dates mean no bound. `hoy` is YYYY-MM-DD. */
export function erroresFechas(desde: string | undefined, hasta: string | undefined, hoy: string): ErroresFechas {
  const errores: ErroresFechas = {};
  const una = (valor: string | undefined): string | undefined => {
    if (!valor) return undefined;
    if (!esFecha(valor)) return FECHA_INVALIDA;
    return valor > hoy ? FECHA_FUTURA : undefined;
  };
  const d = una(desde);
  const h = una(hasta);
  if (d) errores.fecha_desde = [d];
  if (h) errores.fecha_hasta = [h];
  if (!d && !h && desde && hasta && desde > hasta) {
    errores.fecha_desde = [INICIO_POSTERIOR];
    errores.fecha_hasta = [TERMINO_ANTERIOR];
  }
  return errores;
}

const fechaTexto = z.preprocess(
  (v) => (Array.isArray(v) ? v[0] : v),
  z
    .string()
    .trim()
    .max(20)
    .optional()
    .catch(undefined)
    .transform((v) => v || undefined),
);

/** The conversation list query; `hoy` (YYYY-MM-DD in Chile) comes from the caller's clock. */
export function listaConversacionesSchema(hoy: string) {
  return z
    .object({
      palabra_clave: texto,
      fecha_desde: fechaTexto,
      fecha_hasta: fechaTexto,
      pagina,
      tamano_pagina: tamanoPagina,
      order: z.enum(ORDENES_CONVERSACION).catch('fecha'),
    })
    .superRefine((v, ctx) => {
      for (const [campo, mensajes] of Object.entries(erroresFechas(v.fecha_desde, v.fecha_hasta, hoy))) {
        for (const message of mensajes) ctx.addIssue({ code: 'custom', message, path: [campo] });
      }
    });
}
export type ListaConversacionesInput = z.infer<ReturnType<typeof listaConversacionesSchema>>;
