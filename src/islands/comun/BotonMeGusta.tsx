/**
 * The like toggle of a capsule, material or manual (SPEC.md section 4): the count moves by one
 * only when the server answers 200 (then it shows the server's count); a failed like is silent
 * (section 8). Disabled until live, after the person signs out (in any tab) and while its call is
 * out, so a double click sends one call.
 */
import { useState } from 'react';
import { meGusta, type TipoRecurso } from './recursos';
import { useUsuarioActivo } from './usuario';

export interface BotonMeGustaProps {
  tipo: TipoRecurso;
  id: number;
  likes: number;
  marcado: boolean;
}

export default function BotonMeGusta({ tipo, id, likes, marcado }: BotonMeGustaProps) {
  const usuario = useUsuarioActivo();
  const [estado, setEstado] = useState({ likes, marcado });
  const [ocupado, setOcupado] = useState(false);

  async function alternar() {
    if (!usuario) return;
    setOcupado(true);
    const resultado = await meGusta(tipo, id, usuario.id, !estado.marcado);
    setOcupado(false);
    if (resultado.ok) {
      const lista = resultado.data.likes;
      setEstado({ likes: lista.length, marcado: lista.some((l) => l.id === usuario.id) });
    }
  }

  return (
    <button
      type="button"
      className="reaccion me-gusta"
      aria-pressed={estado.marcado}
      aria-busy={ocupado || undefined}
      disabled={!usuario || ocupado}
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
