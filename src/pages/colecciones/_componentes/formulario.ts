/** The collection pages' plain form posts (issue 35). */

/** A name, a description and up to 500 notes of 1000 characters: anything longer is not these forms. */
const MAX_BYTES = 2 * 1024 * 1024;

/** The fields of a urlencoded form post, the body cut at a bound (getAll reads repeated ones in order). */
export async function leerFormulario(request: Request): Promise<URLSearchParams> {
  return new URLSearchParams((await request.text()).slice(0, MAX_BYTES));
}

/** 'true' from a checked box, anything else false. */
export const marcada = (datos: URLSearchParams, nombre: string): boolean => datos.get(nombre) === 'true';
