/**
 * The state of a form with the Markdown editor or a file (forum posts and categories, the upload
 * and edit forms of capsules, materials and manuals), judged by the shared zod schemas loaded
 * lazily. Like the other forms of the product a field is checked from its first blur on, then as
 * it changes, and every field on submit, where focus goes to the first wrong one.
 * Not react-hook-form: its 12 kB (gzip) put these pages, which also carry the editor or a file
 * field, over the 90 kB budget of DESIGN.md.
 */
import { type ChangeEvent, type SubmitEvent, useRef, useState } from 'react';
import type { z } from 'zod';
import { cargaUnica } from './carga';

type Valores = Record<string, unknown>;
type Campo<V extends Valores> = keyof V & string;
/** The fields whose value is text (inputs and selects). */
type CampoTexto<V extends Valores> = { [K in Campo<V>]: V[K] extends string ? K : never }[Campo<V>];

export interface OpcionesFormulario<V extends Valores> {
  campos: readonly Campo<V>[];
  inicial: V;
  /** The schema, loaded at the first need (and retried if that load failed). */
  esquema: () => Promise<z.ZodType>;
  /** Element ids that differ from the field's name (to move focus to the first wrong field). */
  ids?: Partial<Record<Campo<V>, string>>;
}

export function useFormulario<V extends Valores>({ campos, inicial, esquema, ids = {} }: OpcionesFormulario<V>) {
  type C = Campo<V>;
  const [valores, setValores] = useState(inicial);
  // The latest values, so several changes in one handler (a cascade of selects) all count.
  const actuales = useRef(inicial);
  const [errores, setErrores] = useState<Partial<Record<C, string>>>({});
  const [enviando, setEnviando] = useState(false);
  const tocados = useRef(new Set<C>());
  // One loader per form, kept across renders (the schema a form asks for does not change).
  const [obtener] = useState(() => cargaUnica(esquema));

  /** The schema's first message per field. */
  async function juzgar(v: V): Promise<Partial<Record<C, string>>> {
    const resultado = (await obtener()).safeParse(v);
    const mensajes: Partial<Record<C, string>> = {};
    if (resultado.success) return mensajes;
    for (const issue of resultado.error.issues) {
      const campo = campos.find((c) => c === issue.path[0]);
      if (campo && !mensajes[campo]) mensajes[campo] = issue.message;
    }
    return mensajes;
  }

  async function revisar(campo: C, v: V) {
    // Without the rules (connection lost) the server still checks everything.
    const mensajes = await juzgar(v).catch(() => ({}) as Partial<Record<C, string>>);
    setErrores((actuales) => ({ ...actuales, [campo]: mensajes[campo] }));
  }

  function cambiar<K extends C>(campo: K, valor: V[K]) {
    const siguientes = { ...actuales.current, [campo]: valor };
    actuales.current = siguientes;
    setValores(siguientes);
    if (tocados.current.has(campo)) void revisar(campo, siguientes);
  }

  function tocar(campo: C) {
    tocados.current.add(campo);
    void revisar(campo, actuales.current);
  }

  return {
    valores,
    errores,
    enviando,
    precargar: () => void obtener().catch(() => undefined),
    cambiar,
    tocar,
    /** What a text field or select of the form takes (Campo, Selector): value, change, blur, message. */
    campo<K extends CampoTexto<V>>(nombre: K) {
      return {
        value: String(valores[nombre] ?? ''),
        onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => cambiar(nombre, e.target.value as V[K]),
        onBlur: () => tocar(nombre),
        error: errores[nombre],
      };
    },
    /** Messages the server answered, per field (those of fields this form does not have are left out). */
    ponerErrores(mensajes: Partial<Record<string, string>>) {
      const propios: Partial<Record<C, string>> = {};
      for (const c of campos) if (mensajes[c] !== undefined) propios[c] = mensajes[c];
      setErrores((actuales) => ({ ...actuales, ...propios }));
    },
    /** A submit handler: `alEnviar` runs only with valid values; `extra` adds checks of its own. */
    enviar(alEnviar: (v: V) => Promise<void>, extra?: () => Promise<boolean>) {
      return async (event: SubmitEvent) => {
        event.preventDefault();
        if (enviando) return;
        for (const c of campos) tocados.current.add(c);
        setEnviando(true);
        try {
          const [mensajes, extraOk] = await Promise.all([
            juzgar(actuales.current).catch(() => ({}) as Partial<Record<C, string>>),
            extra ? extra() : Promise.resolve(true),
          ]);
          setErrores(mensajes);
          const primero = campos.find((c) => mensajes[c]);
          if (primero) document.getElementById(ids[primero] ?? primero)?.focus();
          if (primero || !extraOk) return;
          await alEnviar(actuales.current);
        } finally {
          setEnviando(false);
        }
      };
    },
  };
}
