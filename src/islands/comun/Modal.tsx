/**
 * A modal window on the native <dialog>: the browser traps focus, Escape closes it and focus
 * returns to the button that opened it. Pico styles `dialog > article`.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface ModalProps {
  abierto: boolean;
  titulo: string;
  onCerrar: () => void;
  children: ReactNode;
  /** The buttons at the bottom (Guardar, Cancelar). */
  pie?: ReactNode;
  ancho?: boolean;
}

export function Modal({ abierto, titulo, onCerrar, children, pie, ancho }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // React's ids start with '_': an id should start with a letter.
  const idTitulo = `titulo${useId()}`;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (abierto && !dialog.open) dialog.showModal();
    if (!abierto && dialog.open) dialog.close();
  }, [abierto]);

  return (
    <dialog
      ref={ref}
      // The title exists only while the dialog is open: a closed one points at nothing.
      aria-labelledby={abierto ? idTitulo : undefined}
      className={ancho ? 'modal ancho' : 'modal'}
      onCancel={(e) => {
        e.preventDefault();
        onCerrar();
      }}
    >
      {abierto && (
        <article>
          <header>
            <button type="button" rel="prev" aria-label="Cerrar" onClick={onCerrar} />
            <h2 id={idTitulo}>{titulo}</h2>
          </header>
          {children}
          {pie && <footer>{pie}</footer>}
        </article>
      )}
    </dialog>
  );
}

/** What a modal shows while its form's chunk arrives. */
export function Cargando() {
  return (
    <p className="cargando-modal" aria-busy="true">
      Cargando…
    </p>
  );
}
