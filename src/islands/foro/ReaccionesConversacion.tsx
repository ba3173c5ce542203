/**
 * The five reactions of a conversation (docs/SPEC.md sections 3 and 4): each toggles the person's own
 * reaction, and the count moves only when the server answers 200, to the number it answered.
 * A failed call is silent (docs/SPEC.md section 8). After a sign-out (in any tab) they are disabled.
 */
import { useState } from 'react';
import { useUsuarioActivo } from '../comun/usuario';
import { reaccionarConversacion } from './api-hilo';
import { BotonReaccion } from './BotonReaccion';
import { type Contadores, type IdReaccion, REACCIONES } from './reacciones';

export interface ReaccionesConversacionProps {
  idConversacion: number;
  contadores: Contadores;
  /** The reaction ids the signed-in person has set. */
  mias: number[];
}

export default function ReaccionesConversacion({ idConversacion, contadores, mias }: ReaccionesConversacionProps) {
  const activo = useUsuarioActivo() !== undefined;
  const [cantidades, setCantidades] = useState(contadores);
  const [activas, setActivas] = useState(() => new Set(mias));
  const [ocupadas, setOcupadas] = useState<ReadonlySet<IdReaccion>>(new Set());

  async function alternar(id: IdReaccion, campo: keyof Contadores) {
    const quitar = activas.has(id);
    setOcupadas((o) => new Set(o).add(id));
    const contador = await reaccionarConversacion(idConversacion, id, quitar);
    setOcupadas((o) => {
      const resto = new Set(o);
      resto.delete(id);
      return resto;
    });
    if (contador === null) return;
    setCantidades((c) => ({ ...c, [campo]: contador }));
    setActivas((a) => {
      const nuevas = new Set(a);
      if (quitar) nuevas.delete(id);
      else nuevas.add(id);
      return nuevas;
    });
  }

  return (
    <ul className="reacciones" aria-label="Reacciones">
      {REACCIONES.map((r) => (
        <li key={r.id}>
          <BotonReaccion
            nombre={r.nombre}
            icono={r.icono}
            cantidad={cantidades[r.campo]}
            activa={activas.has(r.id)}
            ocupada={ocupadas.has(r.id)}
            activo={activo}
            onAlternar={() => void alternar(r.id, r.campo)}
          />
        </li>
      ))}
    </ul>
  );
}
