/**
 * A lazy chunk (a schema, the API client) asked for by several events of a form: the first call
 * starts the load and the others share it; a failed load is forgotten, so the next call (the next
 * field left, the next submit) tries again instead of failing forever.
 */
export function cargaUnica<T>(cargar: () => Promise<T>): () => Promise<T> {
  let pendiente: Promise<T> | undefined;
  return () => {
    pendiente ??= cargar().catch((error: unknown) => {
      pendiente = undefined;
      throw error;
    });
    return pendiente;
  };
}
