/**
 * The material form's curriculum cascade (docs/SPEC.md section 4): the units of the chosen level and
 * area, and the OAs of the chosen unit, each list loaded when its choice changes, with what its
 * field says meanwhile. Of two loads on their way, the later one's answer is the one kept.
 */
import { useRef, useState } from 'react';
import { type OA, oasDe, type Unidad, unidadesDe } from './curriculo';

/** A select's value with nothing chosen. */
export const VACIO = '-1';

type Estado = 'espera' | 'cargando' | 'error' | 'listo';

/** The choices the form starts with (an edited material's, or the URL's), with the lists they need. */
interface Previo {
  id_nivel?: string | undefined;
  id_area?: number | undefined;
  id_unidad?: number | undefined;
  unidades: Unidad[];
  oasUnidad: OA[];
}

export function useCascada(previo: Previo | undefined) {
  const [unidades, setUnidades] = useState<Unidad[]>(previo?.unidades ?? []);
  const [estadoUnidades, setEstadoUnidades] = useState<Estado>(previo?.id_nivel && previo.id_area ? 'listo' : 'espera');
  const [oasUnidad, setOasUnidad] = useState<OA[]>(previo?.oasUnidad ?? []);
  const [estadoOas, setEstadoOas] = useState<Estado>(previo?.id_unidad ? 'listo' : 'espera');
  const turno = useRef(0);

  async function cargarUnidades(nivel: string, area: string) {
    const mio = ++turno.current;
    setUnidades([]);
    setOasUnidad([]);
    setEstadoOas('espera');
    if (nivel === VACIO || area === VACIO) return setEstadoUnidades('espera');
    setEstadoUnidades('cargando');
    const lista = await unidadesDe(Number(area), nivel);
    if (mio !== turno.current) return;
    setUnidades(lista ?? []);
    setEstadoUnidades(lista ? 'listo' : 'error');
  }

  async function cargarOas(unidad: string) {
    const mio = ++turno.current;
    setOasUnidad([]);
    if (unidad === VACIO) return setEstadoOas('espera');
    setEstadoOas('cargando');
    const lista = await oasDe(Number(unidad));
    if (mio !== turno.current) return;
    setOasUnidad(lista ?? []);
    setEstadoOas(lista ? 'listo' : 'error');
  }

  const avisoUnidades = {
    espera: 'Elige primero el nivel y el área.',
    cargando: 'Cargando unidades…',
    error: 'No se pudieron cargar las unidades. Vuelve a elegir el nivel o el área.',
    listo: unidades.length === 0 ? 'No hay unidades para este nivel y área.' : undefined,
  }[estadoUnidades];
  const avisoOas = {
    espera: 'Elige una unidad para ver sus OA.',
    cargando: 'Cargando OA…',
    error: 'No se pudieron cargar los OA. Vuelve a elegir la unidad.',
    listo: oasUnidad.length === 0 ? 'La unidad no tiene OA.' : null,
  }[estadoOas];
  return { unidades, estadoUnidades, avisoUnidades, oasUnidad, avisoOas, cargarUnidades, cargarOas };
}
