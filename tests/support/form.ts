/** Multipart bodies as the site's upload forms send them, for the API tests and the scripts. */

/** A file to upload: its bytes (or text) with the name and type a browser would send. */
export interface Archivo {
  data: Buffer | string;
  name: string;
  /** Left out, the part has no type of its own (the server sees application/octet-stream). */
  type?: string;
}

/** Each field once, every value of an array field as its own part (as the OA lists are sent), the file under 'archivo'. */
export function formData(fields: Record<string, string | readonly string[]>, archivo?: Archivo): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of typeof value === 'string' ? [value] : value) form.append(name, v);
  if (archivo) {
    const bytes = typeof archivo.data === 'string' ? archivo.data : new Uint8Array(archivo.data);
    form.set('archivo', new Blob([bytes], archivo.type ? { type: archivo.type } : {}), archivo.name);
  }
  return form;
}

/**
 * An openapi-fetch `bodySerializer` that sends the contract-typed body as a multipart form: numbers
 * and booleans as the text a form would hold, and the file itself under 'archivo' (where the
 * contract's body only names it).
 */
export function multipart(archivo: Archivo): (body: object) => FormData {
  return (body) => {
    const fields: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(body)) {
      if (name === 'archivo' || value === undefined || value === null) continue;
      fields[name] = Array.isArray(value) ? value.map(String) : String(value);
    }
    return formData(fields, archivo);
  };
}
