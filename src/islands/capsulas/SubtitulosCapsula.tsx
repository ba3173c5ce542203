/**
 * The captions section of a capsule's edit page (issue 20): its caption files by language, each
 * with Reemplazar (pick another file) and Quitar (asked first), and 'Agregar subtítulos' for a
 * language (one it already has is replaced). Each change is saved at once, apart from the
 * capsule's form; the messages, the browser's check or the server's, go under their field.
 */
import { type FormEvent, useRef, useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { Mensaje, useHidratado } from '../comun/Campo';
import { Confirmacion } from '../comun/Confirmacion';
import { ACEPTA_SUBTITULOS, CamposSubtitulo, useSubtitulo } from './CamposSubtitulo';
import {
  enviarSubtitulo,
  type IdiomaSubtitulo,
  type OpcionIdioma,
  quitarSubtitulo,
  revisarSubtitulo,
  type Subtitulo,
  TEXTOS_SUBTITULOS,
} from './subtitulos';

export interface SubtitulosCapsulaProps {
  id: number;
  idiomas: OpcionIdioma[];
  subtitulos: Subtitulo[];
  /** The upload form sent captions the server refused (?subtitulos=rechazados). */
  rechazados: boolean;
}

export default function SubtitulosCapsula({ id, idiomas, subtitulos, rechazados }: SubtitulosCapsulaProps) {
  const hidratado = useHidratado();
  const [lista, setLista] = useState(subtitulos);
  const [ocupado, setOcupado] = useState(false);
  const [quitando, setQuitando] = useState<Subtitulo | null>(null);
  const [erroresFila, setErroresFila] = useState<Partial<Record<IdiomaSubtitulo, string>>>({});
  const nuevo = useSubtitulo(idiomas, idiomas.find((i) => !subtitulos.some((s) => s.idioma === i.codigo))?.codigo);
  const orden = (s: Subtitulo) => idiomas.findIndex((i) => i.codigo === s.idioma);

  const guardado = (s: Subtitulo) => {
    setLista((anterior) => [...anterior.filter((x) => x.idioma !== s.idioma), s].sort((a, b) => orden(a) - orden(b)));
    notificar(TEXTOS_SUBTITULOS.agregado(s.nombre), 'exito');
  };

  async function agregar(evento: FormEvent<HTMLFormElement>) {
    evento.preventDefault();
    const formulario = evento.currentTarget;
    const elegido = await nuevo.revisar(false);
    if (!elegido) {
      document.getElementById('nuevo-subtitulo-archivo')?.focus();
      return;
    }
    setOcupado(true);
    const respuesta = await enviarSubtitulo(id, elegido.idioma, elegido.archivo);
    setOcupado(false);
    if (respuesta.ok) {
      guardado(respuesta.data);
      // Only the file is cleared: the language stays, and is React's to set.
      const campoArchivo = formulario.querySelector<HTMLInputElement>('input[type="file"]');
      if (campoArchivo) campoArchivo.value = '';
      void nuevo.elegirArchivo(null);
      return;
    }
    nuevo.ponerErrores(respuesta.errores);
    notificar(TEXTOS_SUBTITULOS.noGuardado, 'error');
  }

  async function reemplazar(s: Subtitulo, archivo: File | null) {
    if (!archivo) return;
    const revision = await revisarSubtitulo(archivo, s.idioma);
    const error = revision.archivo ?? revision.idioma;
    setErroresFila((e) => ({ ...e, [s.idioma]: error }));
    if (error) return;
    setOcupado(true);
    const respuesta = await enviarSubtitulo(id, s.idioma, archivo);
    setOcupado(false);
    if (respuesta.ok) return guardado(respuesta.data);
    setErroresFila((e) => ({ ...e, [s.idioma]: respuesta.errores.archivo ?? respuesta.errores.idioma }));
    notificar(TEXTOS_SUBTITULOS.noGuardado, 'error');
  }

  async function quitar() {
    if (!quitando) return;
    setOcupado(true);
    const ok = await quitarSubtitulo(id, quitando.idioma);
    setOcupado(false);
    if (ok) {
      setLista((anterior) => anterior.filter((x) => x.idioma !== quitando.idioma));
      notificar(TEXTOS_SUBTITULOS.quitado(quitando.nombre), 'exito');
    } else notificar(TEXTOS_SUBTITULOS.noQuitado(quitando.nombre), 'error');
    setQuitando(null);
  }

  const inactivo = !hidratado || ocupado;
  return (
    <section className="panel subtitulos-capsula" aria-labelledby="titulo-subtitulos" aria-busy={ocupado || undefined}>
      <h2 id="titulo-subtitulos">Subtítulos</h2>
      {rechazados && (
        <p className="alerta" role="alert">
          Los subtítulos que elegiste al subir la cápsula no se guardaron. Revisa el archivo y agrégalos aquí.
        </p>
      )}
      {lista.length === 0 ? (
        <p>Esta cápsula aún no tiene subtítulos.</p>
      ) : (
        <ul className="lista-subtitulos">
          {lista.map((s) => (
            <FilaSubtitulo
              key={s.idioma}
              subtitulo={s}
              error={erroresFila[s.idioma]}
              disabled={inactivo}
              onArchivo={(archivo) => reemplazar(s, archivo)}
              onQuitar={() => setQuitando(s)}
            />
          ))}
        </ul>
      )}
      <form className="agregar-subtitulos" aria-labelledby="titulo-agregar-subtitulos" noValidate onSubmit={agregar}>
        <h3 id="titulo-agregar-subtitulos">Agregar subtítulos</h3>
        <p className="ayuda-campo">Si la cápsula ya tiene subtítulos en ese idioma, el archivo nuevo los reemplaza.</p>
        <CamposSubtitulo
          id="nuevo-subtitulo"
          idiomas={idiomas}
          idioma={nuevo.idioma}
          onIdioma={nuevo.elegirIdioma}
          onArchivo={nuevo.elegirArchivo}
          errores={nuevo.errores}
          disabled={inactivo}
        />
        <button type="submit" disabled={inactivo} aria-busy={ocupado || undefined}>
          Agregar subtítulos
        </button>
      </form>
      <Confirmacion
        abierto={quitando !== null}
        titulo="Quitar subtítulos"
        boton="Quitar"
        ocupado={ocupado}
        onCancelar={() => setQuitando(null)}
        onConfirmar={quitar}
      >
        <p>
          ¿Quitar los subtítulos en <strong>{quitando?.nombre}</strong>? El reproductor y la transcripción dejarán de mostrarlos.
        </p>
      </Confirmacion>
    </section>
  );
}

interface FilaProps {
  subtitulo: Subtitulo;
  error: string | undefined;
  disabled: boolean;
  onArchivo: (archivo: File | null) => void;
  onQuitar: () => void;
}

/** One language: its name, Reemplazar (a file input behind the button) and Quitar. */
function FilaSubtitulo({ subtitulo, error, disabled, onArchivo, onQuitar }: FilaProps) {
  const input = useRef<HTMLInputElement>(null);
  const idError = `subtitulo-${subtitulo.idioma}`;
  return (
    <li>
      <span className="idioma-subtitulo">{subtitulo.nombre}</span>
      <input
        ref={input}
        type="file"
        hidden
        accept={ACEPTA_SUBTITULOS}
        aria-label={`Archivo que reemplaza los subtítulos en ${subtitulo.nombre}`}
        onChange={(e) => {
          onArchivo(e.currentTarget.files?.[0] ?? null);
          e.currentTarget.value = '';
        }}
      />
      <span className="acciones-subtitulo">
        <button
          type="button"
          className="secundario"
          disabled={disabled}
          aria-label={`Reemplazar subtítulos en ${subtitulo.nombre}`}
          aria-describedby={error ? `${idError}-error` : undefined}
          onClick={() => input.current?.click()}
        >
          Reemplazar
        </button>
        <button
          type="button"
          className="secundario peligro"
          disabled={disabled}
          aria-label={`Quitar subtítulos en ${subtitulo.nombre}`}
          onClick={onQuitar}
        >
          Quitar
        </button>
      </span>
      <Mensaje id={idError} error={error} className="error-subtitulo" />
    </li>
  );
}
