/**
 * The forms of the 'Agregar especialidad' and 'Agregar área' modals (SPEC.md section 5), their
 * own chunk: they load when a modal opens. A specialty is chosen from the list or written ('Otra');
 * an area is chosen from the curriculum. Messages land on the field to fix.
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { AreaPerfilEntrada, EleccionEspecialidad, EspecialidadEntrada } from '../../lib/validation/perfil';
import { OTRA_ESPECIALIDAD } from '../../lib/validation/perfil-reglas';
import { Campo, Selector } from '../comun/Campo';
import { validacionArea, validacionEspecialidad } from './validaciones';

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
        <option value="">Seleccionar</option>
        {disponibles.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
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
        <option value="">Seleccionar</option>
        {disponibles.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </Selector>
      <Botones cancelar={cancelar} enviando={isSubmitting} />
    </form>
  );
}

export interface FormularioListaProps extends FormularioProps {
  tipo: 'especialidad' | 'area';
}

export default function FormularioLista({ tipo, ...props }: FormularioListaProps) {
  useEffect(() => {
    (tipo === 'especialidad' ? validacionEspecialidad : validacionArea).precargar();
  }, [tipo]);
  return tipo === 'especialidad' ? <FormularioEspecialidad {...props} /> : <FormularioArea {...props} />;
}
