/**
 * The like toggle of a capsule, material or manual (docs/SPEC.md section 4): the count moves by one
 * only when the server answers 200 (then it shows the server's count); a failed like is silent
 * (section 8).
 *
 * It is a plain form first (POST /me-gusta, src/pages/me-gusta.ts): before the island is live, or
 * without JavaScript, a click posts it and the page comes back with the new count. Once live, the
 * island sends the same change through the API instead and stays on the page. Disabled after the
 * person signs out (in any tab) and while its call is out, so a double click sends one call.
 */
import { type FormEvent, useState } from 'react';
import { useHidratado } from './Campo';
import { meGusta, type TipoRecurso } from './recursos';
import { useUsuarioActivo } from './usuario';

export interface BotonMeGustaProps {
  tipo: TipoRecurso;
  id: number;
  likes: number;
  marcado: boolean;
}

export default function BotonMeGusta({ tipo, id, likes, marcado }: BotonMeGustaProps) {
  const hidratado = useHidratado();
  const usuario = useUsuarioActivo();
  const [estado, setEstado] = useState({ likes, marcado });
  const [ocupado, setOcupado] = useState(false);

  async function alternar(evento: FormEvent<HTMLFormElement>) {
    // Until the session store is read (the first render after hydration), the form posts as it
    // would without JavaScript, so a click in that moment is not lost.
    if (!usuario) return;
    evento.preventDefault();
    setOcupado(true);
    const resultado = await meGusta(tipo, id, usuario.id, !estado.marcado);
    setOcupado(false);
    if (resultado.ok) {
      const lista = resultado.data.likes;
      setEstado({ likes: lista.length, marcado: lista.some((l) => l.id === usuario.id) });
    }
  }

  return (
    // display: contents: the form adds no box, the button sits in its row as it did alone.
    <form method="post" action="/me-gusta" className="form-me-gusta" style={{ display: 'contents' }} onSubmit={alternar}>
      <input type="hidden" name="tipo" value={tipo} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="add" value={String(!estado.marcado)} />
      <button
        type="submit"
        className="reaccion me-gusta"
        aria-pressed={estado.marcado}
        aria-busy={ocupado || undefined}
        disabled={(hidratado && !usuario) || ocupado}
        title={estado.marcado ? 'Quitar me gusta' : 'Me gusta'}
      >
        <svg className="icono" aria-hidden="true">
          <use href="#i-me-gusta" />
        </svg>
        <span>Me gusta</span>
        <span className="conteo">{estado.likes}</span>
      </button>
    </form>
  );
}
