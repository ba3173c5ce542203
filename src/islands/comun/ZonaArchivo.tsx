/**
 * The single-file drop zone of the upload forms (SPEC.md section 5: 'Drop zone accepts one
 * file'): drag a file onto it or press the button to choose one (a real file input, so keyboards
 * and screen readers use it as any other field). Shows the chosen file with its size and lets the
 * person take it out. Dropping several files keeps the first and says so.
 */
import { type DragEvent, useRef, useState } from 'react';
import { formatearTamano } from '../../lib/format';
import { Ayuda, descripcion, Mensaje } from './Campo';

export interface ZonaArchivoProps {
  id: string;
  etiqueta: string;
  /** The input's accept attribute (extensions and MIME types). */
  accept: string;
  archivo: File | null;
  onArchivo: (archivo: File | null) => void;
  error?: string | undefined;
  /** The allowed types and size, read with the field. */
  ayuda: string;
  disabled?: boolean;
}

export function ZonaArchivo({ id, etiqueta, accept, archivo, onArchivo, error, ayuda, disabled }: ZonaArchivoProps) {
  const input = useRef<HTMLInputElement>(null);
  const [encima, setEncima] = useState(false);
  const [aviso, setAviso] = useState<string | null>(null);

  function elegir(files: FileList | null) {
    const primero = files?.[0] ?? null;
    setAviso(files && files.length > 1 ? 'Solo se puede subir un archivo: se usará el primero.' : null);
    onArchivo(primero);
  }

  function soltar(event: DragEvent) {
    event.preventDefault();
    setEncima(false);
    if (!disabled) elegir(event.dataTransfer.files);
  }

  function quitar() {
    if (input.current) input.current.value = '';
    setAviso(null);
    onArchivo(null);
    input.current?.focus();
  }

  return (
    <div className="campo-archivo">
      <label htmlFor={id}>{etiqueta}</label>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the file input inside is the keyboard and screen-reader control */}
      <div
        className={['zona-archivo', encima ? 'encima' : '', error ? 'invalida' : ''].filter(Boolean).join(' ')}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setEncima(true);
        }}
        onDragLeave={() => setEncima(false)}
        onDrop={soltar}
      >
        <svg className="icono" aria-hidden="true" focusable="false">
          <use href="#i-subir" />
        </svg>
        {archivo ? (
          <p className="archivo-elegido">
            <strong>{archivo.name}</strong> <span>({formatearTamano(archivo.size)})</span>
          </p>
        ) : (
          <p>Arrastra el archivo aquí o</p>
        )}
        <div className="botones-archivo">
          <span className="boton secundario elegir">
            {archivo ? 'Cambiar archivo' : 'Elegir archivo'}
            <input
              ref={input}
              id={id}
              type="file"
              accept={accept}
              disabled={disabled}
              {...descripcion({ id, error, ayuda })}
              onChange={(e) => elegir(e.target.files)}
            />
          </span>
          {archivo && (
            <button type="button" className="secundario" onClick={quitar} disabled={disabled}>
              Quitar
            </button>
          )}
        </div>
        <Ayuda id={id} ayuda={ayuda} />
      </div>
      {aviso && <small role="status">{aviso}</small>}
      <Mensaje id={id} error={error} className="error-campo" />
    </div>
  );
}
