/**
 * 'Información personal' (docs/SPEC.md sections 2 and 5): the data, and the modal that edits it. The
 * form arrives in its own chunk when the modal opens (or as the pointer reaches the button).
 */
import { lazy, Suspense, useState } from 'react';
import type { Genero } from '../../lib/validation/perfil-reglas';
import { useHidratado } from '../comun/Campo';
import { Cargando, Modal } from '../comun/Modal';

const cargarFormulario = () => import('./FormularioDatos');
const FormularioDatos = lazy(cargarFormulario);
const precargar = () => void cargarFormulario().catch(() => undefined);

export interface DatosVisibles {
  nombre: string;
  rut: string;
  nacionalidad: string;
  /** Already formatted ('12 de abril de 1985'), or ''. */
  fecha_nacimiento: string;
  email: string;
  genero: string;
  telefono: string;
}

export interface EditorDatosProps {
  idUsuario: number;
  datos: DatosVisibles;
  generos: readonly Genero[];
}

const SIN_DATO = 'Sin información';

export default function EditorDatos({ idUsuario, datos: iniciales, generos }: EditorDatosProps) {
  const hidratado = useHidratado();
  const [datos, setDatos] = useState(iniciales);
  const [abierto, setAbierto] = useState(false);
  const cerrar = () => setAbierto(false);

  const filas: [string, string][] = [
    ['Nombre', datos.nombre],
    ['RUT', datos.rut],
    ['Correo', datos.email],
    ['Género', datos.genero],
    ['Teléfono', datos.telefono],
    ['Nacionalidad', datos.nacionalidad],
    ['Fecha de nacimiento', datos.fecha_nacimiento],
  ];

  return (
    <>
      <dl className="datos">
        {filas.map(([etiqueta, valor]) => (
          <div key={etiqueta}>
            <dt>{etiqueta}</dt>
            <dd className={valor ? undefined : 'vacio'}>{valor || SIN_DATO}</dd>
          </div>
        ))}
      </dl>
      <button
        type="button"
        className="secundario"
        disabled={!hidratado}
        onPointerEnter={precargar}
        onFocus={precargar}
        onClick={() => setAbierto(true)}
      >
        Editar información personal
      </button>
      <Modal abierto={abierto} titulo="Editar información personal" onCerrar={cerrar}>
        <Suspense fallback={<Cargando />}>
          <FormularioDatos
            idUsuario={idUsuario}
            datos={datos}
            generos={generos}
            onCancelar={cerrar}
            onGuardado={(u) => {
              setDatos({ ...datos, email: u.email, genero: u.genero, telefono: u.telefono });
              cerrar();
            }}
          />
        </Suspense>
      </Modal>
    </>
  );
}
