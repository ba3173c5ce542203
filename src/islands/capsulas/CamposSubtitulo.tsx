/**
 * The captions fields (issue 20): the language, Español first and chosen, and the .vtt or .srt
 * file. Shared by the upload form (optional, sent once the capsule exists) and the edit page's
 * 'Agregar subtítulos'. The file is checked as soon as it is picked; the messages, the browser's
 * or the server's, go under their field.
 */
import { useRef, useState } from 'react';
import { Campo, Selector } from '../comun/Campo';
import { type ErroresSubtitulo, type IdiomaSubtitulo, type OpcionIdioma, revisarSubtitulo } from './subtitulos';

export const ACEPTA_SUBTITULOS = '.vtt,.srt,text/vtt';

export interface CamposSubtituloProps {
  /** Prefix of the fields' ids, unique on the page. */
  id: string;
  idiomas: readonly OpcionIdioma[];
  idioma: string;
  onIdioma: (idioma: string) => void;
  onArchivo: (archivo: File | null) => void;
  errores: ErroresSubtitulo;
  disabled?: boolean | undefined;
}

export function CamposSubtitulo({ id, idiomas, idioma, onIdioma, onArchivo, errores, disabled }: CamposSubtituloProps) {
  return (
    <div className="fila campos-subtitulo">
      <div>
        <Selector
          id={`${id}-idioma`}
          etiqueta="Idioma de los subtítulos"
          value={idioma}
          onChange={(e) => onIdioma(e.currentTarget.value)}
          error={errores.idioma}
          disabled={disabled}
          opciones={idiomas.map((i) => ({ codigo: i.codigo, nombre: i.nombre }))}
        />
      </div>
      <div>
        <Campo
          id={`${id}-archivo`}
          etiqueta="Archivo de subtítulos"
          type="file"
          accept={ACEPTA_SUBTITULOS}
          ayuda="WebVTT (.vtt) o SRT (.srt), de hasta 1 MB."
          onChange={(e) => onArchivo(e.currentTarget.files?.[0] ?? null)}
          error={errores.archivo}
          disabled={disabled}
        />
      </div>
    </div>
  );
}

/**
 * The fields' state: the language (`inicial`, else the first offered), the file and the messages.
 * `revisar` checks both before sending and answers them when they pass; `ponerErrores` shows
 * the server's.
 */
export function useSubtitulo(idiomas: readonly OpcionIdioma[], inicial?: IdiomaSubtitulo) {
  const [idioma, setIdioma] = useState<string>(inicial ?? idiomas[0]?.codigo ?? 'es');
  const [archivo, setArchivo] = useState<File | null>(null);
  const [errores, setErrores] = useState<ErroresSubtitulo>({});
  // A check still running when another file is picked must not overwrite the newer one's.
  const vigente = useRef<File | null>(null);
  const codigo = (valor: string) => idiomas.find((i) => i.codigo === valor)?.codigo;
  return {
    idioma,
    archivo,
    errores,
    ponerErrores: setErrores,
    elegirIdioma(valor: string) {
      setIdioma(valor);
      setErrores((e) => ({ ...e, idioma: undefined }));
    },
    async elegirArchivo(nuevo: File | null) {
      vigente.current = nuevo;
      setArchivo(nuevo);
      const revision = nuevo ? await revisarSubtitulo(nuevo, idioma) : {};
      if (vigente.current === nuevo) setErrores((e) => ({ ...e, archivo: revision.archivo }));
    },
    /** The language and file when both pass (no file: null and no message when `opcional`). */
    async revisar(opcional: boolean): Promise<{ idioma: IdiomaSubtitulo; archivo: File } | null | false> {
      if (!archivo && opcional) return null;
      const revision = await revisarSubtitulo(archivo, idioma);
      setErrores(revision);
      const elegido = codigo(idioma);
      return revision.archivo || revision.idioma || !archivo || !elegido ? false : { idioma: elegido, archivo };
    },
  };
}
