/**
 * What an author reads about a capsule whose video is not playable yet (docs/SPEC.md section 4:
 * 'Capsules processing after upload appear in a separate panel until processed'), in the panel
 * of /capsulas/ and on the capsule's own page, so both say the same thing.
 */
import type { Capsula } from '../../../lib/server/services/capsulas.server.ts';

export const PROCESANDO = {
  etiqueta: 'Procesando',
  texto:
    'Estamos preparando el video para que se vea bien incluso con conexiones lentas. Suele tardar unos minutos; aparecerá en la lista de cápsulas cuando esté listo.',
};

/** The reason the server recorded (it always records one when a job fails) and what to do. */
export const ERROR = {
  etiqueta: 'No se pudo procesar',
  texto: (c: Pick<Capsula, 'mensaje_error'>) => c.mensaje_error ?? 'No se pudo procesar el video.',
  /** What to do with the failed capsule. */
  pasos: 'Elimina esta cápsula con el botón Eliminar y vuelve a subir el video.',
};
