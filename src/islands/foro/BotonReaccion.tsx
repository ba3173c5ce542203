/**
 * One reaction as a toggle button (aria-pressed): its icon from the forum's sprite, its name and
 * the count the server answered. Disabled until the island is live, after the person signs out
 * and while its call is out, so a double click sends one call.
 */
export interface BotonReaccionProps {
  nombre: string;
  icono: string;
  cantidad: number;
  activa: boolean;
  ocupada: boolean;
  activo: boolean;
  chica?: boolean;
  onAlternar: () => void;
}

export function BotonReaccion({ nombre, icono, cantidad, activa, ocupada, activo, chica, onAlternar }: BotonReaccionProps) {
  return (
    <button
      type="button"
      className={chica ? 'reaccion chica' : 'reaccion'}
      aria-pressed={activa}
      aria-busy={ocupada || undefined}
      disabled={!activo || ocupada}
      onClick={onAlternar}
      title={`${nombre}: ${cantidad}`}
    >
      <svg className="icono" aria-hidden="true">
        <use href={`#i-${icono}`} />
      </svg>
      <span>{nombre}</span>
      <span className="conteo">{cantidad}</span>
    </button>
  );
}
