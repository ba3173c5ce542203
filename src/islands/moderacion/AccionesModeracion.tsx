/**
 * The decision on one reported item of /admin/moderacion (issue 17): an optional reason, told to
 * the person, and Ocultar / Restaurar / Eliminar / Descartar; Eliminar asks first. The server
 * resolves every open report of the item at once; the card then says what was done and leaves
 * the open list (it shows under 'Resueltas' on the next load). A refusal shows the server's sentence.
 */
import { useId, useRef, useState } from 'react';
import type { AccionModeracion } from '../../lib/validation/denuncias';
import { precargar, resolverDenuncia } from '../admin/api';
import { descripcion, Mensaje, useHidratado } from '../comun/Campo';
import { Confirmacion } from '../comun/Confirmacion';

export interface AccionesModeracionProps {
  /** The report POST .../resolver/ takes. */
  id: number;
  /** What the item is, for the buttons' names and the question ('comentario en Fracciones'). */
  descripcion: string;
  /** What Eliminar does to this kind of item, said in the confirmation. */
  efectoEliminar: string;
  /** The actions the item admits (the page decides: no Eliminar once it is gone), with their words. */
  acciones: Accion[];
}

export interface Accion {
  accion: AccionModeracion;
  /** The button ('Restaurar'). */
  etiqueta: string;
  /** What the card says once done ('Restaurado.'). */
  hecho: string;
}

export default function AccionesModeracion(props: AccionesModeracionProps) {
  const { id, acciones } = props;
  const hidratado = useHidratado();
  // React's ids start with '_': an id should start with a letter.
  const idMotivo = `motivo${useId()}`;
  const raiz = useRef<HTMLDivElement>(null);
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [ocupado, setOcupado] = useState<AccionModeracion | null>(null);
  const [confirmando, setConfirmando] = useState(false);
  const [hecho, setHecho] = useState<Accion | null>(null);

  async function resolver({ accion, ...palabras }: Accion) {
    setOcupado(accion);
    setError(undefined);
    const r = await resolverDenuncia(id, { accion, motivo: motivo.trim() });
    setOcupado(null);
    setConfirmando(false);
    if (!r.ok) return setError(r.errores?.motivo?.[0] ?? r.detalle);
    setHecho({ accion, ...palabras });
    // The card is no longer an open report: it dims, and its heading says so to screen readers too.
    raiz.current?.closest('article')?.classList.add('resuelta');
  }

  if (hecho)
    return (
      <p className="hecho-moderacion" role="status">
        {hecho.hecho}
      </p>
    );

  return (
    <div className="acciones-moderacion" ref={raiz}>
      <label htmlFor={idMotivo}>Motivo (se le comunicará a la persona)</label>
      <textarea
        id={idMotivo}
        rows={2}
        maxLength={1000}
        value={motivo}
        onFocus={precargar}
        onChange={(e) => setMotivo(e.target.value)}
        {...descripcion({ id: idMotivo, error })}
      />
      <Mensaje id={idMotivo} error={error} />
      <div className="botones-moderacion">
        {acciones.map((a) => (
          <button
            key={a.accion}
            type="button"
            className={a.accion === 'eliminar' ? 'secundario peligro' : a.accion === 'descartar' ? 'secundario' : undefined}
            disabled={!hidratado || ocupado !== null}
            aria-busy={ocupado === a.accion || undefined}
            aria-label={`${a.etiqueta}: ${props.descripcion}`}
            onPointerEnter={precargar}
            onClick={() => (a.accion === 'eliminar' ? setConfirmando(true) : void resolver(a))}
          >
            {a.etiqueta}
          </button>
        ))}
      </div>
      <Confirmacion
        abierto={confirmando}
        titulo="Eliminar contenido denunciado"
        ocupado={ocupado !== null}
        onCancelar={() => setConfirmando(false)}
        onConfirmar={() => {
          const eliminar = acciones.find((a) => a.accion === 'eliminar');
          if (eliminar) void resolver(eliminar);
        }}
      >
        <p>
          ¿Eliminar {props.descripcion}? {props.efectoEliminar} Esta acción no se puede deshacer.
        </p>
      </Confirmacion>
    </div>
  );
}
