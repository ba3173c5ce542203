/**
 * The first step of a console import (useImportacion.ts): the file field and the button that asks
 * the server what the file would do, disabled until the page is interactive and while a call runs.
 */
import { ZonaArchivo } from '../comun/ZonaArchivo';
import type { Importacion } from './useImportacion';

interface Props {
  importacion: Pick<Importacion<unknown, unknown>, 'archivo' | 'error' | 'enviando' | 'elegir' | 'enviar'>;
  hidratado: boolean;
  id: string;
  etiqueta: string;
  accept: string;
  ayuda: string;
  /** The button's text: 'Revisar archivo', 'Revisar planilla'. */
  revisar: string;
}

export function ElegirYRevisar({ importacion, hidratado, id, etiqueta, accept, ayuda, revisar }: Props) {
  const { archivo, error, enviando, elegir, enviar } = importacion;
  return (
    <>
      <ZonaArchivo
        id={id}
        etiqueta={etiqueta}
        accept={accept}
        archivo={archivo}
        onArchivo={elegir}
        error={error ?? undefined}
        ayuda={ayuda}
        disabled={!hidratado || enviando !== null}
      />
      <div className="acciones">
        <button
          type="button"
          className="secundario"
          disabled={!hidratado || !archivo || enviando !== null}
          aria-busy={enviando === 'revisar' || undefined}
          onClick={() => enviar(false)}
        >
          {enviando === 'revisar' ? 'Revisando...' : revisar}
        </button>
      </div>
    </>
  );
}
