/**
 * Query strings of every list (SPEC.md section 9): page sizes 5, 10, 20, 50, 100 (default 10),
 * page from 1, order 'fecha' (default) or 'n_visitas', and the placeholder select values (-1, 0,
 * '-1', empty) meaning 'no filter'. Shared by the API and the server-rendered list pages, so a
 * mistyped URL shows the first page instead of an error.
 */
import { z } from 'zod';

export const TAMANOS_PAGINA = [5, 10, 20, 50, 100] as const;
export const ORDENES = ['fecha', 'n_visitas'] as const;
export type Orden = (typeof ORDENES)[number];

export const pagina = z.coerce.number().int().min(1).max(100_000).catch(1);
export const tamanoPagina = z.coerce
  .number()
  .refine((n) => (TAMANOS_PAGINA as readonly number[]).includes(n))
  .catch(10);
const orden = z.enum(ORDENES).catch('fecha');
export const texto = z
  .string()
  .trim()
  .max(200)
  .optional()
  .catch(undefined)
  .transform((v) => v || undefined);

const primero = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** An optional id filter: placeholders and anything unparseable mean 'no filter'. */
export const filtroId = z.preprocess((v) => {
  const n = Number(primero(v));
  return Number.isSafeInteger(n) && n > 0 && n < 2_147_483_648 ? n : undefined;
}, z.number().int().optional());

/** An optional level-code filter ('-1', '0' and '' mean none). */
export const filtroNivel = z.preprocess((v) => {
  const s = String(primero(v) ?? '').trim();
  return s && s !== '-1' && s !== '0' && s.length <= 10 ? s : undefined;
}, z.string().optional());

export const paginacion = { pagina, tamano_pagina: tamanoPagina, order: orden };

/** num_pages is at least 1 (an empty list is one empty page). */
export const numPaginas = (total: number, porPagina: number) => Math.max(1, Math.ceil(total / porPagina));
