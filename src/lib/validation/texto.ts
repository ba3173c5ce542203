/**
 * The one rule for text a person sends: no control characters but tab, line feed and carriage
 * return, and no lone UTF-16 surrogates (PostgreSQL refuses NUL in text, and the rest is never
 * meant to be typed). The shared schemas build every text field on `cadena`, so a form shows the
 * message before sending; the server also checks every string of every input (input.server.ts).
 */
import { z } from 'zod';
import './zod-es.ts';

export const TEXTO_NO_PERMITIDO = 'El texto contiene caracteres no permitidos';

/** Whether the text has no control character (tab, LF and CR aside) and no lone surrogate. */
export function textoPermitido(texto: string): boolean {
  for (let i = 0; i < texto.length; i++) {
    const c = texto.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
    } else if (c >= 0x7f && c <= 0x9f) {
      return false;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A high surrogate must be followed by a low one; a low one must never come first.
      const siguiente = texto.charCodeAt(i + 1);
      if (c > 0xdbff || !(siguiente >= 0xdc00 && siguiente <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}

/**
 * Where the first refused text of an input is: its field path ([] for the input itself), or null
 * when every string (values and keys, at any depth) follows the rule. It walks with its own stack,
 * not by recursion, so a body nested a hundred thousand levels deep cannot overflow the call stack.
 */
export function textoNoPermitidoEn(valor: unknown): string[] | null {
  // Each pending value keeps a link to its parent, so the path is built only for a refusal.
  interface Nodo {
    valor: unknown;
    clave?: string;
    padre?: Nodo;
  }
  const ruta = (nodo: Nodo | undefined, clave?: string): string[] => {
    const partes = clave === undefined ? [] : [clave];
    for (let n = nodo; n; n = n.padre) if (n.clave !== undefined) partes.unshift(n.clave);
    return partes;
  };
  const pendientes: Nodo[] = [{ valor }];
  for (let nodo = pendientes.pop(); nodo; nodo = pendientes.pop()) {
    const actual = nodo.valor;
    if (typeof actual === 'string') {
      if (!textoPermitido(actual)) return ruta(nodo);
    } else if (Array.isArray(actual)) {
      // Array items share their array's path (the field), as the error names the field.
      for (let i = actual.length - 1; i >= 0; i--) pendientes.push({ valor: actual[i], padre: nodo });
    } else if (typeof actual === 'object' && actual !== null) {
      const entradas = Object.entries(actual);
      for (const [clave] of entradas) if (!textoPermitido(clave)) return ruta(nodo, clave);
      for (let i = entradas.length - 1; i >= 0; i--) {
        const [clave, elemento] = entradas[i] as [string, unknown];
        pendientes.push({ valor: elemento, clave, padre: nodo });
      }
    }
  }
  return null;
}

/** A text field: a string that follows the rule (its other rules, trim first, chain on). */
export const cadena = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(textoPermitido, { error: TEXTO_NO_PERMITIDO, abort: true });
