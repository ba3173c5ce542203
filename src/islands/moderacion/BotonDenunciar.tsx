/**
 * 'Denunciar' (issue 17), on a comment and on a page: a small text button whose dialog (and its
 * form library) arrives only when the person points at it or presses it. It is shown to signed-in
 * people on others' items only; the server refuses one's own anyway.
 */
import '../../styles/denuncias.css';
import { lazy, Suspense, useState } from 'react';
import type { TipoDenuncia } from '../../lib/validation/denuncias';
import { cargaUnica } from '../comun/carga';
import { BANDERA } from './bandera';

const cargar = cargaUnica(() => import('./DialogoDenuncia'));
const DialogoDenuncia = lazy(cargar);
const precargar = () => void cargar().catch(() => undefined);

export interface BotonDenunciarProps {
  tipo: TipoDenuncia;
  id: number;
  /**
   * Names the item in the button's accessible name on a page ('Denunciar este manual'). A comment's
   * needs none: its article names it, as it does for Responder.
   */
  nombre?: string;
  /** Live and signed in. */
  activo: boolean;
}

export function IconoBandera() {
  return (
    <svg className="icono" viewBox="0 0 24 24" aria-hidden="true">
      <path d={BANDERA} />
    </svg>
  );
}

export function BotonDenunciar({ tipo, id, nombre, activo }: BotonDenunciarProps) {
  const [abierto, setAbierto] = useState(false);
  // Each opening starts a fresh form: a new key mounts a new dialog.
  const [vez, setVez] = useState(0);
  return (
    <>
      <button
        type="button"
        className="denunciar"
        aria-haspopup="dialog"
        aria-label={nombre ? `Denunciar ${nombre}` : undefined}
        disabled={!activo}
        onPointerEnter={precargar}
        onFocus={precargar}
        onClick={() => {
          setVez((v) => v + 1);
          setAbierto(true);
        }}
      >
        <IconoBandera />
        Denunciar
      </button>
      {vez > 0 && (
        <Suspense fallback={null}>
          <DialogoDenuncia key={vez} abierto={abierto} tipo={tipo} id={id} onCerrar={() => setAbierto(false)} />
        </Suspense>
      )}
    </>
  );
}
