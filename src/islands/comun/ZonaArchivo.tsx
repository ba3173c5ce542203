/**
 * The single-file drop zone of the upload forms (docs/SPEC.md section 5: 'Drop zone accepts one
 * file'): drag a file onto it or press the button to choose one (a real file input, so keyboards
 * and screen readers use it as any other field). Shows the chosen file with its size and lets the
 * person take it out. Dropping several files keeps the first and says so. With `subida` (issue
 * 18) it also shows the resumable upload as it goes, or offers to continue an unfinished one.
 */
import { type DragEvent, useRef, useState } from 'react';
import { formatearTamano } from '../../lib/format';
import { Ayuda, descripcion, Mensaje } from './Campo';
import { OfertaContinuar, ProgresoSubida } from './ProgresoSubida';
import type { SubidaReanudable } from './reanudable';

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
  /** The file's resumable upload (reanudable.ts), when the form sends it with tus. */
  subida?: Pick<SubidaReanudable, 'estado' | 'pendiente' | 'pausar' | 'reanudar' | 'cancelar'>;
}

export function ZonaArchivo({ id, etiqueta, accept, archivo, onArchivo, error, ayuda, disabled, subida }: ZonaArchivoProps) {
  const input = useRef<HTMLInputElement>(null);
  const [encima, setEncima] = useState(false);
  const [aviso, setAviso] = useState<string | null>(null);
  // While a file goes up, Cancelar (which also deletes it on the server) replaces Quitar.
  const fase = subida?.estado?.fase;
  const subiendo = fase === 'subiendo' || fase === 'pausada' || fase === 'sin-red';
  // A refused upload says why under the field, like any other problem with the file.
  const mensaje = error ?? (fase === 'error' ? subida?.estado?.mensaje : undefined);

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
        className={['zona-archivo', encima ? 'encima' : '', mensaje ? 'invalida' : ''].filter(Boolean).join(' ')}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setEncima(true);
        }}
        onDragLeave={() => setEncima(false)}
        onDrop={soltar}
      >
        <svg className="icono" aria-hidden="true">
          <use href="#i-subir" />
        </svg>
        {archivo ? (
          <p className="archivo-elegido">
            <strong>{archivo.name}</strong> <span>({formatearTamano(archivo.size)})</span>
          </p>
        ) : (
          <>
            {subida?.pendiente && <OfertaContinuar pendiente={subida.pendiente} />}
            <p>Arrastra el archivo aquí o</p>
          </>
        )}
        {archivo && subida?.estado && fase !== 'error' && (
          <ProgresoSubida estado={subida.estado} onPausar={subida.pausar} onReanudar={subida.reanudar} onCancelar={subida.cancelar} />
        )}
        <div className="botones-archivo">
          {/* While a file goes up it cannot be changed (Cancelar first); the input stays for its label. */}
          <span className="boton secundario elegir" hidden={subiendo}>
            {archivo ? 'Cambiar archivo' : 'Elegir archivo'}
            <input
              ref={input}
              id={id}
              type="file"
              accept={accept}
              disabled={disabled}
              {...descripcion({ id, error: mensaje, ayuda })}
              onChange={(e) => elegir(e.target.files)}
            />
          </span>
          {archivo && !subiendo && (
            <button type="button" className="secundario" onClick={quitar} disabled={disabled}>
              Quitar
            </button>
          )}
        </div>
        <Ayuda id={id} ayuda={ayuda} />
      </div>
      {aviso && <small role="status">{aviso}</small>}
      <Mensaje id={id} error={mensaje} className="error-campo" />
    </div>
  );
}
