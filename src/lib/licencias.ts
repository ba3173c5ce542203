/**
 * The licence and the visibility of a capsule, a material or a manual (issue 34, decision 0067):
 * the one list of licences an author may choose, with their names and the official Creative
 * Commons deed addresses, shared by the forms, the server, the pages and the API. Free of zod, so
 * a form island shows the choices without loading the validation (validation/licencias.ts).
 */

export interface Licencia {
  /** The contract's code (SPDX identifiers, and 'reservados'). */
  codigo: string;
  /** The short name shown beside the content. */
  nombre: string;
  /** The Spanish name of the deed. */
  titulo: string;
  /** The official deed (creativecommons.org); null for all rights reserved. */
  url: string | null;
}

/** The last choice, and what an unknown code reads as. */
const RESERVADOS = {
  codigo: 'reservados',
  nombre: 'Todos los derechos reservados',
  titulo: 'Todos los derechos reservados',
  url: null,
} as const satisfies Licencia;

export const LICENCIAS = [
  {
    codigo: 'CC-BY-4.0',
    nombre: 'CC BY 4.0',
    titulo: 'Creative Commons Atribución 4.0 Internacional',
    url: 'https://creativecommons.org/licenses/by/4.0/',
  },
  {
    codigo: 'CC-BY-SA-4.0',
    nombre: 'CC BY-SA 4.0',
    titulo: 'Creative Commons Atribución-CompartirIgual 4.0 Internacional',
    url: 'https://creativecommons.org/licenses/by-sa/4.0/',
  },
  {
    codigo: 'CC-BY-NC-4.0',
    nombre: 'CC BY-NC 4.0',
    titulo: 'Creative Commons Atribución-NoComercial 4.0 Internacional',
    url: 'https://creativecommons.org/licenses/by-nc/4.0/',
  },
  {
    codigo: 'CC-BY-NC-SA-4.0',
    nombre: 'CC BY-NC-SA 4.0',
    titulo: 'Creative Commons Atribución-NoComercial-CompartirIgual 4.0 Internacional',
    url: 'https://creativecommons.org/licenses/by-nc-sa/4.0/',
  },
  {
    codigo: 'CC0-1.0',
    nombre: 'CC0 1.0',
    titulo: 'CC0 1.0 Universal (dominio público)',
    url: 'https://creativecommons.org/publicdomain/zero/1.0/',
  },
  RESERVADOS,
] as const satisfies readonly Licencia[];

export type CodigoLicencia = (typeof LICENCIAS)[number]['codigo'];
export const CODIGOS_LICENCIA = LICENCIAS.map((l) => l.codigo) as [CodigoLicencia, ...CodigoLicencia[]];

/** Rows from before licences existed, and the network's default until an admin sets one (decision 0067). */
export const LICENCIA_INICIAL: CodigoLicencia = 'reservados';

/** The `ajustes` row that holds the network's default licence. */
export const LICENCIA_POR_DEFECTO = 'LICENCIA_POR_DEFECTO';

/** A code's licence; an unknown code reads as all rights reserved (never as an open licence). */
export const licenciaDe = (codigo: string): Licencia => LICENCIAS.find((l) => l.codigo === codigo) ?? RESERVADOS;

/** Whether the licence lets anyone reuse the work (every choice but 'reservados'). */
export const esAbierta = (codigo: string): boolean => licenciaDe(codigo).url !== null;

export const VISIBILIDADES = ['red', 'publico'] as const;
export type Visibilidad = (typeof VISIBILIDADES)[number];
export const NOMBRES_VISIBILIDAD: Record<Visibilidad, string> = { red: 'La red', publico: 'Cualquier persona' };
