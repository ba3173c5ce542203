/**
 * 'Especialidades', 'Áreas' and 'Niveles' (issue 21) of a teacher's profile (docs/SPEC.md sections 2,
 * 4, 5 and 8): the chips with a remove button, and the modal that adds one (its form loads with
 * the modal). At most 5 specialties (the add button hides at 5); owned names are never offered
 * again.
 */
import { lazy, Suspense, useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { sinLasPropias } from '../../lib/validation/perfil-reglas';
import { useHidratado } from '../comun/Campo';
import { Cargando, Modal } from '../comun/Modal';
import type { Agregar } from './FormularioLista';

const cargarFormulario = () => import('./FormularioLista');
const FormularioLista = lazy(cargarFormulario);
const precargar = () => void cargarFormulario().catch(() => undefined);
/** The calls travel with the forms: the page's first scripts stay small. */
const llamadas = () => import('./perfil');

/** The PerfilDocente field the list edits. */
type Tipo = 'especialidad' | 'area' | 'nivel';

const TEXTOS = {
  especialidad: {
    titulo: 'Especialidades',
    agregar: 'Agregar especialidad',
    etiqueta: 'Especialidad',
    vacio: 'Aún no agregas especialidades.',
    agregada: (n: string) => `Se agregó la especialidad ${n}`,
    noAgregada: (n: string) => `No se pudo agregar la especialidad ${n} al perfil`,
    noQuitada: (n: string) => `No se pudo eliminar la especialidad ${n} del perfil`,
    quitar: (n: string) => `Quitar la especialidad ${n}`,
  },
  area: {
    titulo: 'Áreas',
    agregar: 'Agregar área',
    etiqueta: 'Área',
    vacio: 'Aún no agregas áreas.',
    agregada: (n: string) => `Se agregó el área ${n}`,
    noAgregada: (n: string) => `No se pudo agregar el area ${n}`,
    noQuitada: (n: string) => `No se pudo eliminar el area ${n}`,
    quitar: (n: string) => `Quitar el área ${n}`,
  },
  nivel: {
    titulo: 'Niveles',
    agregar: 'Agregar nivel',
    etiqueta: 'Nivel',
    vacio: 'Aún no agregas niveles.',
    agregada: (n: string) => `Se agregó el nivel ${n}`,
    noAgregada: (n: string) => `No se pudo agregar el nivel ${n}`,
    noQuitada: (n: string) => `No se pudo eliminar el nivel ${n}`,
    quitar: (n: string) => `Quitar el nivel ${n}`,
  },
} as const satisfies Record<Tipo, unknown>;

export interface EditorListaProps {
  tipo: Tipo;
  idUsuario: number;
  propias: string[];
  /** Every name that may be chosen (the owned ones are filtered out here). */
  opciones: string[];
  /** For specialties: at most this many (docs/SPEC.md section 9). */
  maximo?: number;
}

export default function EditorLista({ tipo, idUsuario, propias: iniciales, opciones, maximo }: EditorListaProps) {
  const textos = TEXTOS[tipo];
  const hidratado = useHidratado();
  const [propias, setPropias] = useState(iniciales);
  const [abierto, setAbierto] = useState(false);
  const [quitando, setQuitando] = useState<string | null>(null);
  const disponibles = sinLasPropias(opciones, propias);
  const lleno = maximo !== undefined && propias.length >= maximo;

  const abrir = () => setAbierto(true);

  const agregar: Agregar = async (nombre) => {
    const api = await llamadas().catch(() => null);
    const r = api ? await api.listas[tipo].agregar(idUsuario, nombre) : { ok: false as const };
    if (r.ok) {
      setPropias(r.data[tipo]);
      setAbierto(false);
      notificar(textos.agregada(nombre), 'exito');
      return null;
    }
    const mensaje = r.error?.errors?.[tipo]?.[0];
    if (mensaje) return mensaje;
    notificar(textos.noAgregada(nombre), 'error');
    return null;
  };

  const quitar = async (nombre: string) => {
    setQuitando(nombre);
    const api = await llamadas().catch(() => null);
    const r = api ? await api.listas[tipo].quitar(idUsuario, nombre) : { ok: false as const };
    setQuitando(null);
    if (r.ok) setPropias(r.data[tipo]);
    else notificar(textos.noQuitada(nombre), 'error');
  };

  const cerrar = () => setAbierto(false);
  return (
    <>
      {propias.length > 0 ? (
        <ul className="chips editables" aria-label={textos.titulo}>
          {propias.map((p) => (
            <li key={p}>
              <span>{p}</span>
              <button
                type="button"
                className="quitar"
                aria-label={textos.quitar(p)}
                title={textos.quitar(p)}
                disabled={!hidratado || quitando !== null}
                aria-busy={quitando === p || undefined}
                onClick={() => quitar(p)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="vacio">{textos.vacio}</p>
      )}
      {maximo !== undefined && (
        <p className="ayuda-lista">
          {propias.length} de {maximo} especialidades
        </p>
      )}
      {!lleno && (
        <button type="button" className="secundario" disabled={!hidratado} onPointerEnter={precargar} onFocus={precargar} onClick={abrir}>
          {textos.agregar}
        </button>
      )}
      <Modal abierto={abierto} titulo={textos.agregar} onCerrar={cerrar}>
        <Suspense fallback={<Cargando />}>
          <FormularioLista tipo={tipo} disponibles={disponibles} agregar={agregar} cancelar={cerrar} />
        </Suspense>
      </Modal>
    </>
  );
}
