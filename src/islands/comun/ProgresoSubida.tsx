/**
 * Inside the drop zone (issue 18): the resumable upload as it goes, with its percentage, speed
 * and time left ('2,1 MB/s · quedan 40 s'), what is happening when it is not simply going (paused,
 * no network, refused) and Pausar / Reanudar / Cancelar; or, before any file is picked, the
 * offer to continue an unfinished upload of this form, which needs the same file picked again
 * (a page cannot read a file the person has not chosen).
 */
import { formatearTamano } from '../../lib/format';
import type { EstadoSubida, Pendiente } from './reanudable';

export const SIN_RED = 'Sin conexión: la subida continuará cuando vuelva la red.';

/** '63 %': the space of Spanish typography. */
export const porcentaje = (enviados: number, total: number) => `${total > 0 ? Math.floor((enviados / total) * 100) : 0} %`;

/** 'quedan 40 s', 'quedan 3 min', 'quedan 1 h 5 min'. */
export function tiempoRestante(segundos: number): string {
  const s = Math.max(1, Math.ceil(segundos));
  if (s < 60) return `quedan ${s} s`;
  const minutos = Math.ceil(s / 60);
  if (minutos < 60) return `quedan ${minutos} min`;
  return `quedan ${Math.floor(minutos / 60)} h ${minutos % 60} min`;
}

function detalle({ fase, enviados, total, velocidad, mensaje }: EstadoSubida): string {
  if (fase === 'pausada') return 'En pausa';
  if (fase === 'terminada') return 'Archivo subido';
  if (fase === 'sin-red') return SIN_RED;
  if (fase === 'error') return mensaje ?? '';
  if (velocidad === null || velocidad <= 0) return 'Calculando velocidad…';
  return `${formatearTamano(velocidad).replace(' ', '\u00a0')}/s · ${tiempoRestante((total - enviados) / velocidad)}`;
}

export interface ProgresoSubidaProps {
  estado: EstadoSubida;
  onPausar: () => void;
  onReanudar: () => void;
  onCancelar: () => void;
}

export function ProgresoSubida({ estado, onPausar, onReanudar, onCancelar }: ProgresoSubidaProps) {
  const { fase, enviados, total } = estado;
  const problema = fase === 'error' || fase === 'sin-red';
  return (
    <div className="subida-tus" data-fase={fase}>
      <progress value={enviados} max={total || 1} aria-label="Progreso de la subida del archivo" />
      <p className="cifras">
        <strong>{porcentaje(enviados, total)}</strong> · {formatearTamano(enviados)} de {formatearTamano(total)}
      </p>
      <p className={problema ? 'estado-subida problema' : 'estado-subida'} role={fase === 'error' ? 'alert' : 'status'}>
        {detalle(estado)}
      </p>
      {fase !== 'terminada' && fase !== 'error' && (
        <div className="botones-archivo">
          {fase === 'pausada' ? (
            <button type="button" className="secundario" onClick={onReanudar}>
              Reanudar
            </button>
          ) : (
            <button type="button" className="secundario" onClick={onPausar}>
              Pausar
            </button>
          )}
          <button type="button" className="secundario" onClick={onCancelar} aria-label="Cancelar la subida">
            Cancelar
          </button>
        </div>
      )}
    </div>
  );
}

/** The name's end ('.mp4') kept on one line with the percentage that follows it. */
function partirNombre(nombre: string): [string, string] {
  const punto = nombre.lastIndexOf('.');
  return punto > 0 ? [nombre.slice(0, punto), nombre.slice(punto)] : [nombre, ''];
}

/** The offer to continue an unfinished upload: pick the same file and it goes on from there. */
export function OfertaContinuar({ pendiente }: { pendiente: Pendiente }) {
  const desde = pendiente.porcentaje === null ? '' : ` (${pendiente.porcentaje} %)`;
  const [nombre, extension] = partirNombre(pendiente.nombre);
  return (
    <div className="subida-pendiente" role="status">
      <p>
        <strong>
          Continuar la subida de {nombre}
          <span className="sin-corte">
            {extension}
            {desde}
          </span>
        </strong>
      </p>
      <p>
        Elige de nuevo el mismo archivo y la subida seguirá
        {pendiente.porcentaje === null ? ' donde quedó' : ` desde el ${pendiente.porcentaje} %`}.
      </p>
      <button type="button" className="secundario" onClick={pendiente.descartar}>
        Descartar esa subida
      </button>
    </div>
  );
}
