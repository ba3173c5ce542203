/**
 * A moment of a video as people say it (issue 20: 'mencionado en el minuto 3:12'): minutes and
 * seconds, with hours only past the hour: 0:12, 3:12, 1:02:03. Whole seconds, rounded down, so
 * the moment shown is never after the words it points at.
 */
export function formatearMomento(segundos: number): string {
  const total = Number.isFinite(segundos) && segundos > 0 ? Math.floor(segundos) : 0;
  const horas = Math.floor(total / 3600);
  const minutos = Math.floor((total % 3600) / 60);
  const resto = String(total % 60).padStart(2, '0');
  return horas > 0 ? `${horas}:${String(minutos).padStart(2, '0')}:${resto}` : `${minutos}:${resto}`;
}

/** The second a link to a moment names (`?t=192`), whole and not negative; null when there is none. */
export function segundoDe(valor: string | null | undefined): number | null {
  if (!valor || !/^\d{1,6}$/.test(valor.trim())) return null;
  return Number(valor.trim());
}
