/** The active filters of a list in words, for the 'Filtros' summary on a phone (FiltrosMovil.astro). */

/** The searched text in quotes, then the name of each chosen option (an option not chosen is undefined). */
export function filtrosActivos(texto: string | undefined, elegidos: readonly (string | undefined)[]): string[] {
  const buscado = texto?.trim();
  return [buscado ? `«${buscado}»` : undefined, ...elegidos].filter((f): f is string => f !== undefined && f !== '');
}

/** The name of the option whose value is the chosen one, if any is chosen. */
export function nombreElegido<T extends { nombre: string }, V>(
  opciones: readonly T[],
  valor: (o: T) => V,
  elegido: V | undefined,
): string | undefined {
  return elegido === undefined ? undefined : opciones.find((o) => valor(o) === elegido)?.nombre;
}
