/**
 * The like toggle of a capsule, material or manual (SPEC.md section 4): the count moves by one
 * only when the server answers 200 (then it shows the server's count); a failed like is silent
 * (section 8). Disabled until live and while its call is out, so a double click sends one call.
 */
import { useState } from 'react';
import { useHidratado } from './Campo';
import { meGusta, type TipoRecurso } from './recursos';

export interface BotonMeGustaProps {
  tipo: TipoRecurso;
  id: number;
  idUsuario: number;
  likes: number;
  marcado: boolean;
}

export default function BotonMeGusta({ tipo, id, idUsuario, likes, marcado }: BotonMeGustaProps) {
  const hidratado = useHidratado();
  const [estado, setEstado] = useState({ likes, marcado });
  const [ocupado, setOcupado] = useState(false);

  async function alternar() {
    setOcupado(true);
    const resultado = await meGusta(tipo, id, idUsuario, !estado.marcado);
    setOcupado(false);
    if (resultado.ok) {
      const lista = resultado.data.likes;
      setEstado({ likes: lista.length, marcado: lista.some((l) => l.id === idUsuario) });
    }
  }

  return (
    <button
      type="button"
      className="reaccion me-gusta"
      aria-pressed={estado.marcado}
      aria-busy={ocupado || undefined}
      disabled={!hidratado || ocupado}
      onClick={alternar}
      title={estado.marcado ? 'Quitar me gusta' : 'Me gusta'}
    >
      <svg className="icono" aria-hidden="true" focusable="false">
        <use href="#i-me-gusta" />
      </svg>
      <span>Me gusta</span>
      <span className="conteo">{estado.likes}</span>
    </button>
  );
}
