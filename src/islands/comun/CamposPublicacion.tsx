/**
 * The licence and 'Visible para' of the capsule, material and manual forms (issue 34, decision
 * 0067): the licence from the one list (src/lib/licencias.ts, zod-free so the form loads no
 * validation for it), and who may see the item. 'Cualquier persona' needs an open licence; the
 * shared schema and the server say so with the same message.
 */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { LICENCIAS, NOMBRES_VISIBILIDAD, VISIBILIDADES } from '../../lib/licencias';
import { Mensaje, Selector } from './Campo';

type Campo = 'licencia' | 'visibilidad';

export interface CamposPublicacionProps {
  /** The form's register and trigger (react-hook-form): a change of either field checks the rule between them again. */
  register: (campo: Campo, opciones: { onChange: () => unknown }) => UseFormRegisterReturn;
  trigger: (campo: 'visibilidad') => unknown;
  /** What the selects start with (the item's, or the network's default on upload). */
  inicial: { licencia: string; visibilidad: string };
  /** The form's errors (react-hook-form's `formState.errors`). */
  errores: Partial<Record<Campo, { message?: string | undefined } | undefined>>;
}

const AYUDA_VISIBILIDAD: Record<(typeof VISIBILIDADES)[number], string> = {
  red: 'Solo docentes con cuenta en la red.',
  publico: 'Tiene una página pública que cualquiera puede abrir y los buscadores pueden encontrar. Requiere una licencia abierta.',
};

export function CamposPublicacion({ register, trigger, inicial, errores: e }: CamposPublicacionProps) {
  const revisar = { onChange: () => trigger('visibilidad') };
  const licencia = register('licencia', revisar);
  const visibilidad = register('visibilidad', revisar);
  const errores = { licencia: e.licencia?.message, visibilidad: e.visibilidad?.message };
  return (
    <>
      <Selector
        id="licencia"
        etiqueta="Licencia"
        defaultValue={inicial.licencia}
        registro={licencia}
        error={errores.licencia}
        ayuda="Cómo pueden otros reutilizarlo. Las licencias Creative Commons permiten compartirlo citándote."
        opciones={LICENCIAS.map((l) => ({ codigo: l.codigo, nombre: l.url ? `${l.nombre} · ${l.titulo}` : l.nombre }))}
      />
      <fieldset className="visible-para" aria-describedby={errores.visibilidad ? 'visibilidad-error' : undefined}>
        <legend>Visible para</legend>
        {VISIBILIDADES.map((v) => (
          <div key={v}>
            <label>
              <input
                type="radio"
                value={v}
                defaultChecked={inicial.visibilidad === v}
                aria-invalid={errores.visibilidad ? true : undefined}
                aria-describedby={`visibilidad-${v}-ayuda`}
                {...visibilidad}
              />
              {NOMBRES_VISIBILIDAD[v]}
            </label>
            <small id={`visibilidad-${v}-ayuda`} className="ayuda-campo">
              {AYUDA_VISIBILIDAD[v]}
            </small>
          </div>
        ))}
      </fieldset>
      <Mensaje id="visibilidad" error={errores.visibilidad} />
    </>
  );
}
