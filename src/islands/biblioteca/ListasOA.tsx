/**
 * The material form's two OA lists (docs/SPEC.md section 4): 'OA disponibles' (the chosen unit's) and
 * 'OA seleccionados'. Each OA shows its code and opens its full description; real buttons move it
 * between the lists, focus stays on the list the person is working in, and a status line says
 * what moved (screen readers hear it).
 */
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { truncar } from '../../lib/format';
import { Ayuda, descripcion, Mensaje } from '../comun/Campo';
import type { OA } from './curriculo';

export interface ListasOAProps {
  disponibles: OA[];
  seleccionados: OA[];
  /** Why the available list is empty, or what it is waiting for. */
  aviso: string | null;
  onAgregar: (oa: OA) => void;
  onQuitar: (oa: OA) => void;
  error?: string | undefined;
  disabled?: boolean;
  /** Focuses the group (a form moves focus to a wrong field). */
  ref?: Ref<{ focus: () => void }>;
  /** The OAs with no material yet (issue 21), each with an invitation to share the first (issue 33). */
  sinMateriales?: ReadonlySet<number>;
}

type Lista = 'disponibles' | 'seleccionados';

/**
 * An OA with no material yet is a gap the teacher may fill, not a fault: an invitation in a neutral
 * style (issue 33), which once the OA is chosen says their material will be the first.
 */
const INVITACION = {
  Agregar: 'Aún sin materiales: el tuyo puede ser el primero',
  Quitar: 'Tu material será el primero de este OA',
} as const;

const AYUDA = 'Al elegir una unidad aparecen sus OA. Agrega los que trabaja tu material; abre un OA para leer su descripción.';

interface ObjetivoProps {
  oa: OA;
  accion: 'Agregar' | 'Quitar';
  onClick: () => void;
  disabled?: boolean | undefined;
  sinMateriales?: boolean | undefined;
}

function Objetivo({ oa, accion, onClick, disabled, sinMateriales }: ObjetivoProps) {
  return (
    <li>
      <details>
        <summary>
          <strong>{oa.codigo}</strong> <span className="vista-oa">{truncar(oa.descripcion, 70)}</span>
          {sinMateriales && <span className="oa-sin-materiales">{INVITACION[accion]}</span>}
        </summary>
        <p>{oa.descripcion}</p>
      </details>
      <button type="button" className={accion === 'Agregar' ? 'secundario' : 'secundario peligro'} onClick={onClick} disabled={disabled}>
        {accion}
        <span className="sr-only"> {oa.codigo}</span>
      </button>
    </li>
  );
}

export function ListasOA({ disponibles, seleccionados, aviso, onAgregar, onQuitar, error, disabled, ref, sinMateriales }: ListasOAProps) {
  const contenedor = useRef<HTMLFieldSetElement>(null);
  // One handle for the list's life: react-hook-form takes a new one as a new field and sets it again.
  const [manija] = useState(() => ({ focus: () => contenedor.current?.focus() }));
  useImperativeHandle(ref, () => manija, [manija]);
  // After a move, focus goes to the next button of the same list (or its heading once empty).
  const foco = useRef<{ lista: Lista; indice: number } | null>(null);
  const [anuncio, setAnuncio] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each move re-renders the lists
  useEffect(() => {
    const destino = foco.current;
    if (!destino || !contenedor.current) return;
    foco.current = null;
    const botones = contenedor.current.querySelectorAll<HTMLButtonElement>(`[data-lista="${destino.lista}"] li > button`);
    const boton = botones[Math.min(destino.indice, botones.length - 1)];
    (boton ?? contenedor.current.querySelector<HTMLElement>(`#titulo-${destino.lista}`))?.focus();
  }, [disponibles, seleccionados]);

  function mover(oa: OA, desde: Lista, indice: number) {
    foco.current = { lista: desde, indice };
    if (desde === 'disponibles') {
      onAgregar(oa);
      setAnuncio(`${oa.codigo} agregado a OA seleccionados`);
    } else {
      onQuitar(oa);
      setAnuncio(`${oa.codigo} quitado de OA seleccionados`);
    }
  }

  // Only the description: aria-invalid is for a form control, not for this group of buttons.
  const { 'aria-describedby': descrito } = descripcion({ id: 'oas', error, ayuda: AYUDA });
  return (
    <fieldset id="oas" className="listas-oa" ref={contenedor} tabIndex={-1} aria-describedby={descrito}>
      <legend>Objetivos de aprendizaje (OA)</legend>
      <Ayuda id="oas" ayuda={AYUDA} />
      <div className="columnas-oa">
        <section data-lista="disponibles" aria-labelledby="titulo-disponibles">
          <h2 id="titulo-disponibles" tabIndex={-1}>
            OA disponibles
          </h2>
          {disponibles.length > 0 ? (
            <ul>
              {disponibles.map((oa, i) => (
                <Objetivo
                  key={oa.id}
                  oa={oa}
                  accion="Agregar"
                  onClick={() => mover(oa, 'disponibles', i)}
                  disabled={disabled}
                  sinMateriales={sinMateriales?.has(oa.id)}
                />
              ))}
            </ul>
          ) : (
            <p className="lista-vacia">{aviso ?? 'Todos los OA de la unidad están seleccionados.'}</p>
          )}
        </section>
        <section data-lista="seleccionados" aria-labelledby="titulo-seleccionados">
          <h2 id="titulo-seleccionados" tabIndex={-1}>
            OA seleccionados <span className="conteo-oa">({seleccionados.length})</span>
          </h2>
          {seleccionados.length > 0 ? (
            <ul>
              {seleccionados.map((oa, i) => (
                <Objetivo
                  key={oa.id}
                  oa={oa}
                  accion="Quitar"
                  onClick={() => mover(oa, 'seleccionados', i)}
                  disabled={disabled}
                  sinMateriales={sinMateriales?.has(oa.id)}
                />
              ))}
            </ul>
          ) : (
            <p className="lista-vacia">Aún no hay OA seleccionados.</p>
          )}
        </section>
      </div>
      <Mensaje id="oas" error={error} className="error-campo" />
      <p className="sr-only" role="status">
        {anuncio}
      </p>
    </fieldset>
  );
}
