/**
 * The forum's forms and searches (SPEC.md sections 5 and 9): new conversation, create and edit
 * category, forum comments and the conversation date search, with the exact Spanish messages.
 * Shared by the islands (loaded lazily, as zod is large) and the server.
 */
import { z } from 'zod';
import { comentarioSchema } from './comentarios.ts';
import { pagina, tamanoPagina, texto } from './listas.ts';

export const TITULO_MAX = 120;
export const CONTENIDO_MAX = 3000;
export const NOMBRE_MAX = 150;
export const DESCRIPCION_MAX = 1000;

const requerido = (mensaje: string) => z.string({ error: mensaje }).trim().min(1, { error: mensaje, abort: true });

// ── Conversations ───────────────────────────────────────────────────────────────────────────────

export const conversacionSchema = z.object({
  titulo: requerido('Debe ingresar un titulo').max(TITULO_MAX, `Se permiten hasta ${TITULO_MAX} caractéres`),
  contenido: requerido('Debe ingresar el contenido de la conversación').max(CONTENIDO_MAX, `Se permiten hasta ${CONTENIDO_MAX} caractéres`),
});
export type ConversacionInput = z.infer<typeof conversacionSchema>;

/** A forum comment or reply: the same rule as every comment ('Debe ingresar un comentario'). */
export const comentarioForoSchema = comentarioSchema;

// ── Categories ──────────────────────────────────────────────────────────────────────────────────

export const IMAGEN_REQUERIDA = 'Debe subir una imagen para la categoria';
/**
 * Both forms use this message. SPEC.md shows the teacher-material message on the edit form
 * ('…word, pdf, ppt o excel.'), which would ask an admin for a Word file in place of an image.
 */
export const IMAGEN_INVALIDA = 'El archivo no es válido. Debe subir un archivo png o jpg.';
export const TIPOS_IMAGEN = ['image/jpeg', 'image/png'] as const;

const nombre = requerido('Debe ingresar un nombre').max(NOMBRE_MAX, `Puede ingresar hasta ${NOMBRE_MAX} caracteres`);
const descripcionMax = z.string().trim().max(DESCRIPCION_MAX, `Puede ingresar hasta ${DESCRIPCION_MAX} caracteres`);

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
  // SPEC.md section 5 gives this text for a missing description.
  descripcion: requerido('Puede ingresar una descripción').max(DESCRIPCION_MAX, `Puede ingresar hasta ${DESCRIPCION_MAX} caracteres`),
  activa,
});
export type CategoriaInput = z.infer<typeof categoriaSchema>;

/** Editing: the description may be left empty; the image is optional. */
export const categoriaEdicionSchema = z.object({ nombre, descripcion: descripcionMax.optional(), activa });
export type CategoriaEdicionInput = z.infer<typeof categoriaEdicionSchema>;

/** What the browser can check before sending (the server reads the bytes again). */
export function validarImagenCategoria(file: { type: string } | undefined | null, requerida: boolean): string | null {
  if (!file) return requerida ? IMAGEN_REQUERIDA : null;
  return (TIPOS_IMAGEN as readonly string[]).includes(file.type) ? null : IMAGEN_INVALIDA;
}

// ── Lists ───────────────────────────────────────────────────────────────────────────────────────

/** SPEC.md section 9: the category sorts ('fecha', the default, is the category's own date). */
export const ORDENES_CATEGORIA = [
  'fecha',
  'fecha_primer_post',
  'fecha_ultimo_post',
  'n_conversaciones',
  'n_comentarios',
  'n_visitas',
  'n_total_reacciones',
] as const;
export type OrdenCategoria = (typeof ORDENES_CATEGORIA)[number];

export const ORDENES_CONVERSACION = ['fecha', 'n_visitas'] as const;
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

export const FECHA_INVALIDA = 'Formato de fecha inválido';
export const FECHA_FUTURA = 'La fecha ingresada no puede ser superior a hoy';
export const INICIO_POSTERIOR = 'La fecha de inicio no puede ser superior a la de término';
export const TERMINO_ANTERIOR = 'La fecha de término no puede ser inferior a la de inicio';

const chile = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today in Chile as YYYY-MM-DD (the platform's users are there, whatever the server's zone). */
export function hoyEnChile(now: Date = new Date()): string {
  return chile.format(now);
}

/** A real calendar day written YYYY-MM-DD. */
export function esFecha(valor: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(valor);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const fecha = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && fecha.getUTCFullYear() === y && fecha.getUTCMonth() === mo - 1 && fecha.getUTCDate() === d;
}

export interface ErroresFechas {
  fecha_desde?: string[];
  fecha_hasta?: string[];
}

/** The four date rules of SPEC.md section 5; empty dates mean no bound. `hoy` is YYYY-MM-DD. */
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
