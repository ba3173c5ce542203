/**
 * Query strings of every list (docs/SPEC.md section 9): page sizes 5, 10, 20, 50, 100 (default 10),
 * page from 1, order 'fecha' (default) or 'n_visitas', and the placeholder select values (-1, 0,
 * '-1', empty) meaning 'no filter'. Shared by the API and the server-rendered list pages: a page
 * number, size or order out of place means the default; an id filter that is no id is a 400 on
 * the API and no filter on a page (`filtrosPagina`).
 */
import { z } from 'zod';
import { idPositivo } from './campos.ts';
import { cadena, textoPermitido } from './texto.ts';

export const TAMANOS_PAGINA = [5, 10, 20, 50, 100] as const;
export const ORDENES = ['fecha', 'n_visitas'] as const;
export type Orden = (typeof ORDENES)[number];

export const pagina = z.coerce.number().int().min(1).max(100_000).catch(1);
export const tamanoPagina = z.coerce
  .number()
  .refine((n) => (TAMANOS_PAGINA as readonly number[]).includes(n))
  .catch(10);
const orden = z.enum(ORDENES).catch('fecha');
/** The longest search a list takes, in characters. */
export const TEXTO_BUSQUEDA_MAX = 200;
/**
 * A list's search text, trimmed. A longer one is cut at TEXTO_BUSQUEDA_MAX characters (whole ones,
 * never half of an emoji) and searched as such: it finds what starts that way, most often nothing.
 * Dropped, it would list everything as if nothing had been asked (decision 0090). A refused text
 * or a value that is no text is no search.
 */
export const texto = cadena()
  .optional()
  .catch(undefined)
  .transform((v) => (v === undefined ? undefined : Array.from(v.trim()).slice(0, TEXTO_BUSQUEDA_MAX).join('').trim() || undefined));

const primero = (v: unknown) => (Array.isArray(v) ? v[0] : v);

const FILTRO_NO_VALIDO = 'Filtro no válido';

/** An optional id filter: placeholders mean 'no filter'; anything else must be an id. */
export const filtroId = z.preprocess((v) => {
  const p = primero(v);
  const s = typeof p === 'string' || typeof p === 'number' ? String(p).trim() : p;
  return s === undefined || s === null || s === '' || s === '-1' || s === '0' ? undefined : s;
}, idPositivo(FILTRO_NO_VALIDO).optional());

/** An optional level-code filter ('-1', '0' and '' mean none). */
export const filtroNivel = z.preprocess((v) => {
  const s = String(primero(v) ?? '').trim();
  return s && s !== '-1' && s !== '0' && s.length <= 10 && textoPermitido(s) ? s : undefined;
}, z.string().optional());

export const paginacion = { pagina, tamano_pagina: tamanoPagina, order: orden };

/**
 * A list page's filters from its query string: what a mistyped or pasted URL gets wrong is
 * dropped (the page shows the list without that filter) instead of failing the page.
 */
export function filtrosPagina<S extends z.ZodType>(schema: S, consulta: URLSearchParams | Record<string, unknown>): z.output<S> {
  const entrada: Record<string, unknown> = consulta instanceof URLSearchParams ? Object.fromEntries(consulta) : { ...consulta };
  for (;;) {
    const resultado = schema.safeParse(entrada);
    if (resultado.success) return resultado.data;
    const campos = new Set(resultado.error.issues.map((i) => String(i.path[0] ?? '')).filter((c) => c in entrada));
    // Nothing left to drop: the defaults of an empty query.
    if (campos.size === 0) return schema.parse({});
    for (const campo of campos) delete entrada[campo];
  }
}

/** num_pages is at least 1 (an empty list is one empty page). */
export const numPaginas = (total: number, porPagina: number) => Math.max(1, Math.ceil(total / porPagina));
