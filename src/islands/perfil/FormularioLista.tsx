/**
 * The forms of the 'Agregar especialidad', 'Agregar área' and 'Agregar nivel' modals (docs/SPEC.md
 * section 5, issue 21), their own chunk: they load when a modal opens. A specialty is chosen from
 * the list or written ('Otra'); an area or a level is chosen from the curriculum. Messages land on
 * the field to fix.
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { AreaPerfilEntrada, EleccionEspecialidad, EspecialidadEntrada, NivelPerfilEntrada } from '../../lib/validation/perfil';
import { OTRA_ESPECIALIDAD } from '../../lib/validation/perfil-reglas';
import { Campo, Selector } from '../comun/Campo';
import { validacionArea, validacionEspecialidad, validacionNivel } from './validaciones';

/** Adds one name; answers the server's message for the field, or null when it was added. */
export type Agregar = (nombre: string) => Promise<string | null>;

export interface FormularioProps {
  disponibles: string[];
  agregar: Agregar;
  cancelar: () => void;
}

function Botones({ cancelar, enviando }: { cancelar: () => void; enviando: boolean }) {
  return (
    <div className="pie-modal">
      <button type="button" className="secundario" onClick={cancelar}>
        Cancelar
      </button>
      <button type="submit" disabled={enviando} aria-busy={enviando || undefined}>
        {enviando ? 'Agregando...' : 'Agregar'}
      </button>
    </div>
  );
}

/** The placeholder and the names still to choose. */
function Opciones({ disponibles }: { disponibles: string[] }) {
  return (
    <>
      <option value="">Seleccionar</option>
      {disponibles.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </>
  );
}

function FormularioEspecialidad({ disponibles, agregar, cancelar }: FormularioProps) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<EleccionEspecialidad, unknown, EspecialidadEntrada>({
    resolver: validacionEspecialidad.resolver,
    mode: 'onTouched',
    defaultValues: { seleccion: '', otra: '' },
  });
  const otra = watch('seleccion') === OTRA_ESPECIALIDAD;
  const enviar = handleSubmit(async ({ especialidad }) => {
    const mensaje = await agregar(especialidad);
    if (mensaje) setError(otra ? 'otra' : 'seleccion', { message: mensaje }, { shouldFocus: true });
  });
  return (
    <form noValidate onSubmit={enviar}>
      <Selector id="nueva-especialidad" etiqueta="Especialidad" error={errors.seleccion?.message} registro={register('seleccion')}>
        <Opciones disponibles={disponibles} />
        <option value={OTRA_ESPECIALIDAD}>Otra (escribir)</option>
      </Selector>
      {otra && (
        <Campo
          id="otra-especialidad"
          etiqueta="Nombre de la especialidad"
          maxLength={120}
          autoComplete="off"
          ayuda="Entre 4 y 99 caracteres"
          error={errors.otra?.message}
          registro={register('otra')}
        />
      )}
      <Botones cancelar={cancelar} enviando={isSubmitting} />
    </form>
  );
}

function FormularioArea({ disponibles, agregar, cancelar }: FormularioProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AreaPerfilEntrada>({ resolver: validacionArea.resolver, mode: 'onTouched', defaultValues: { area: '' } });
  const enviar = handleSubmit(async ({ area }) => {
    const mensaje = await agregar(area);
    if (mensaje) setError('area', { message: mensaje }, { shouldFocus: true });
  });
  return (
    <form noValidate onSubmit={enviar}>
      <Selector id="nueva-area" etiqueta="Área" error={errors.area?.message} registro={register('area')}>
        <Opciones disponibles={disponibles} />
      </Selector>
      <Botones cancelar={cancelar} enviando={isSubmitting} />
    </form>
  );
}

function FormularioNivel({ disponibles, agregar, cancelar }: FormularioProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NivelPerfilEntrada>({ resolver: validacionNivel.resolver, mode: 'onTouched', defaultValues: { nivel: '' } });
  const enviar = handleSubmit(async ({ nivel }) => {
    const mensaje = await agregar(nivel);
    if (mensaje) setError('nivel', { message: mensaje }, { shouldFocus: true });
  });
  return (
    <form noValidate onSubmit={enviar}>
      <Selector id="nuevo-nivel" etiqueta="Nivel" error={errors.nivel?.message} registro={register('nivel')}>
        <Opciones disponibles={disponibles} />
      </Selector>
      <Botones cancelar={cancelar} enviando={isSubmitting} />
    </form>
  );
}

const FORMULARIOS = {
  especialidad: { Formulario: FormularioEspecialidad, validacion: validacionEspecialidad },
  area: { Formulario: FormularioArea, validacion: validacionArea },
  nivel: { Formulario: FormularioNivel, validacion: validacionNivel },
} as const;

export interface FormularioListaProps extends FormularioProps {
  tipo: keyof typeof FORMULARIOS;
}

export default function FormularioLista({ tipo, ...props }: FormularioListaProps) {
  const { Formulario, validacion } = FORMULARIOS[tipo];
  useEffect(() => validacion.precargar(), [validacion]);
  return <Formulario {...props} />;
}
