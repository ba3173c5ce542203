/**
 * The two-step file import of the console (a roster in /admin/usuarios, the curriculum in
 * /admin/curriculo): choose a file, review what the server would do with it (confirmar=false,
 * nothing written), then confirm (confirmar=true) or cancel. Choosing another file drops the
 * preview, so what is confirmed is always the file that was reviewed.
 */
import { useState } from 'react';
import type { Resultado } from './api';

type Envio<T> = (archivo: File, confirmar: boolean) => Promise<Resultado<T>>;

export interface Importacion<T, F> {
  archivo: File | null;
  /** The dry run's answer, until it is confirmed or cancelled. */
  vista: T | null;
  /** The confirmed import's answer. */
  resultado: T | null;
  /** A refusal that concerns the whole file (the server's sentence). */
  error: string | null;
  /** A refusal with a report (each line and what is wrong with it), kept as the server sent it. */
  fallo: F | null;
  enviando: 'revisar' | 'confirmar' | null;
  elegir: (archivo: File | null) => void;
  enviar: (confirmar: boolean) => Promise<void>;
  cancelar: () => void;
}

/**
 * `informe` reads a refusal's report out of the failed call (the curriculum's 400 lists every bad
 * line); without one, the refusal is a sentence under the file field.
 */
export function useImportacion<T, F = never>(
  importar: Envio<T>,
  sinArchivo: string,
  informe?: (fallo: Extract<Resultado<T>, { ok: false }>) => F | null,
): Importacion<T, F> {
  const [archivo, setArchivo] = useState<File | null>(null);
  const [vista, setVista] = useState<T | null>(null);
  const [resultado, setResultado] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fallo, setFallo] = useState<F | null>(null);
  const [enviando, setEnviando] = useState<'revisar' | 'confirmar' | null>(null);

  function limpiar() {
    setVista(null);
    setResultado(null);
    setError(null);
    setFallo(null);
  }

  async function enviar(confirmar: boolean) {
    if (!archivo) {
      setError(sinArchivo);
      return;
    }
    setError(null);
    setFallo(null);
    setEnviando(confirmar ? 'confirmar' : 'revisar');
    const r = await importar(archivo, confirmar);
    setEnviando(null);
    if (!r.ok) {
      // A failed confirmation keeps its preview, so it can be tried again.
      const reporte = informe?.(r) ?? null;
      if (reporte) {
        setVista(null);
        setFallo(reporte);
      } else setError(r.errores?.archivo?.[0] ?? r.detalle);
      return;
    }
    setResultado(confirmar ? r.data : null);
    setVista(confirmar ? null : r.data);
  }

  return {
    archivo,
    vista,
    resultado,
    error,
    fallo,
    enviando,
    elegir: (nuevo) => {
      setArchivo(nuevo);
      limpiar();
    },
    enviar,
    cancelar: limpiar,
  };
}
