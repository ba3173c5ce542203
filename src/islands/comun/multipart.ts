/**
 * A form as multipart/form-data, the encoding the contract gives uploads and profile edits: one
 * part per value of a list, and the files last, so the server reads the fields before the bytes
 * arrive. Undefined values are left out.
 */
export function multipart(campos: object): FormData {
  const datos = new FormData();
  const archivos: [string, Blob][] = [];
  for (const [campo, valor] of Object.entries(campos)) {
    if (valor instanceof Blob) archivos.push([campo, valor]);
    else if (Array.isArray(valor)) for (const v of valor) datos.append(campo, String(v));
    else if (valor !== undefined) datos.append(campo, String(valor));
  }
  for (const [campo, archivo] of archivos) datos.append(campo, archivo);
  return datos;
}
