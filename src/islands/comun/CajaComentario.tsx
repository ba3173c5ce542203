/**
 * The box to write a comment or a reply (docs/SPEC.md sections 4 and 5): Comentar and Borrar appear
 * only when there is text; an empty (blank) comment says 'Debe ingresar un comentario'.
 * The text stays when the call fails, so nothing written is lost.
 */
import { type SubmitEvent, useEffect, useId, useState } from 'react';
import { descripcion, Mensaje } from './Campo';

const COMENTARIO_MAX = 2000;

export interface CajaComentarioProps {
  etiqueta: string;
  /** Publishes the text; resolves to whether it was published. */
  onEnviar: (texto: string) => Promise<boolean>;
  /** Whether it can send: the island is live and the person still signed in. */
  activo: boolean;
  autoFocus?: boolean;
  /** Editing a published comment: its text, and Guardar/Cancelar instead of Comentar/Borrar. */
  inicial?: string;
  onCancelar?: () => void;
}

export function CajaComentario({ etiqueta, onEnviar, activo, autoFocus, inicial, onCancelar }: CajaComentarioProps) {
  // React's ids start with '_': an id should start with a letter.
  const id = `comentario${useId()}`;
  const [texto, setTexto] = useState(inicial ?? '');
  const editando = onCancelar !== undefined;
  const [error, setError] = useState<string | undefined>();
  const [enviando, setEnviando] = useState(false);
  // On a slow link the box is on the page before its code: what was typed meanwhile is kept.
  useEffect(() => {
    const escrito = (document.getElementById(id) as HTMLTextAreaElement | null)?.value;
    if (escrito) setTexto(escrito);
  }, [id]);

  async function enviar(event: SubmitEvent) {
    event.preventDefault();
    const limpio = texto.trim();
    if (limpio === '') return setError('Debe ingresar un comentario');
    if (limpio.length > COMENTARIO_MAX) return setError(`Puede ingresar hasta ${COMENTARIO_MAX} caracteres`);
    setError(undefined);
    setEnviando(true);
    const publicado = await onEnviar(limpio);
    setEnviando(false);
    if (publicado && !editando) setTexto('');
  }

  function borrar() {
    setTexto('');
    setError(undefined);
    document.getElementById(id)?.focus();
  }

  return (
    <form className="caja-comentario" onSubmit={enviar} noValidate>
      <label htmlFor={id}>{etiqueta}</label>
      <textarea
        id={id}
        rows={3}
        value={texto}
        // biome-ignore lint/a11y/noAutofocus: the box opens because the person asked to reply
        autoFocus={autoFocus}
        {...descripcion({ id, error })}
        onChange={(e) => {
          setTexto(e.target.value);
          if (error) setError(undefined);
        }}
      />
      <Mensaje id={id} error={error} />
      {/* Hidden, not left out, while there is no text: a form keeps its submit button. */}
      <div className="acciones" hidden={texto === '' && !editando}>
        <button type="submit" disabled={!activo || enviando} aria-busy={enviando || undefined}>
          {editando ? 'Guardar' : 'Comentar'}
        </button>
        <button type="button" className="secundario" onClick={onCancelar ?? borrar} disabled={enviando}>
          {editando ? 'Cancelar' : 'Borrar'}
        </button>
      </div>
    </form>
  );
}
