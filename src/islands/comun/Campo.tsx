/**
 * A labelled form field with its message (docs/SPEC.md section 5): the label is read by screen
 * readers, the message is tied to the input and marks it invalid.
 */

import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useEffect, useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

interface Base {
  id: string;
  etiqueta: string;
  error?: string;
  ayuda?: string;
  registro?: UseFormRegisterReturn;
}

type Descrito = Pick<Base, 'id' | 'error' | 'ayuda'>;

/** What ties a control to its hint and message (also for the fields built apart: the editor, the drop zone). */
export function descripcion({ id, error, ayuda }: Descrito) {
  const ids = [ayuda ? `${id}-ayuda` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined };
}

/** The hint goes under the label (read before the field), the message right after the field. */
export function Ayuda({ id, ayuda }: Descrito) {
  return ayuda ? (
    <small id={`${id}-ayuda`} className="ayuda-campo">
      {ayuda}
    </small>
  ) : null;
}

/** `className` styles the message where it sits apart from a plain input ('error-campo'). */
export function Mensaje({ id, error, className }: Descrito & { className?: string }) {
  return error ? (
    <small id={`${id}-error`} className={className}>
      {error}
    </small>
  ) : null;
}

type CampoProps = Base & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>;

export function Campo({ id, etiqueta, error, ayuda, registro, ...input }: CampoProps) {
  return (
    <>
      <label htmlFor={id}>{etiqueta}</label>
      <Ayuda id={id} ayuda={ayuda} />
      <input id={id} type="text" {...input} {...registro} {...descripcion({ id, error, ayuda })} />
      <Mensaje id={id} error={error} />
    </>
  );
}

type AreaProps = Base & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>;

export function AreaTexto({ id, etiqueta, error, ayuda, registro, ...area }: AreaProps) {
  return (
    <>
      <label htmlFor={id}>{etiqueta}</label>
      <Ayuda id={id} ayuda={ayuda} />
      <textarea id={id} {...area} {...registro} {...descripcion({ id, error, ayuda })} />
      <Mensaje id={id} error={error} />
    </>
  );
}

/** A catalogue entry as the server sends it: its value is its id, or its code (levels). */
interface Opcion {
  nombre: string;
  id?: number;
  codigo?: string;
}

type SelectorProps = Base &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
    /** The value of a first 'Seleccionar' option, when the choice starts empty. */
    vacio?: string;
    /** The options, in order; `children` add any others (groups). */
    opciones?: readonly Opcion[];
    children?: ReactNode;
  };

export function Selector({ id, etiqueta, error, ayuda, registro, vacio, opciones, children, ...select }: SelectorProps) {
  return (
    <>
      <label htmlFor={id}>{etiqueta}</label>
      <Ayuda id={id} ayuda={ayuda} />
      <select id={id} {...select} {...registro} {...descripcion({ id, error, ayuda })}>
        {vacio !== undefined && <option value={vacio}>Seleccionar</option>}
        {opciones?.map(({ nombre, id: valorId, codigo }) => (
          <option key={valorId ?? codigo} value={valorId ?? codigo}>
            {nombre}
          </option>
        ))}
        {children}
      </select>
      <Mensaje id={id} error={error} />
    </>
  );
}

/** A message for the whole form (the auth error above the sign-in form, docs/SPEC.md section 8). */
export function ErrorFormulario({ mensaje }: { mensaje: string | null }) {
  return mensaje ? (
    <p className="alerta" role="alert">
      {mensaje}
    </p>
  ) : null;
}

/** Enables the submit button only once the island is live, so a press never posts the raw form. */
export function useHidratado(): boolean {
  const [hidratado, setHidratado] = useState(false);
  useEffect(() => setHidratado(true), []);
  return hidratado;
}
