/**
 * The personal-information form of the modal (docs/SPEC.md section 5), its own chunk: it loads when
 * the modal opens, so react-hook-form is not in the page's first scripts. Name, rut, nationality
 * and birth date are read-only; email, gender and a Chilean phone number are validated by the
 * same schema the server uses.
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { notificar } from '../../lib/stores/notifications';
import type { DatosPersonales, DatosPersonalesEntrada, Genero } from '../../lib/validation/perfil';
import { Campo, Selector } from '../comun/Campo';
import type { DatosVisibles } from './EditorDatos';
import { actualizarDatos, type Usuario } from './perfil';
import { validacionDatos } from './validaciones';

export interface FormularioDatosProps {
  idUsuario: number;
  datos: DatosVisibles;
  generos: readonly Genero[];
  onGuardado: (usuario: Usuario) => void;
  onCancelar: () => void;
}

export default function FormularioDatos({ idUsuario, datos, generos, onGuardado, onCancelar }: FormularioDatosProps) {
  const genero = generos.find((g) => g === datos.genero);
  useEffect(validacionDatos.precargar, []);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DatosPersonalesEntrada, unknown, DatosPersonales>({
    resolver: validacionDatos.resolver,
    mode: 'onTouched',
    defaultValues: { email: datos.email, telefono: datos.telefono, ...(genero ? { genero } : {}) },
  });

  const guardar = handleSubmit(async (valores) => {
    const r = await actualizarDatos(idUsuario, valores);
    if (r.ok) {
      onGuardado(r.data);
      notificar('¡Tu información personal se actualizó correctamente!', 'exito');
      return;
    }
    const campos = r.error?.errors ?? {};
    let marcado = false;
    for (const campo of ['email', 'genero', 'telefono'] as const) {
      const mensaje = campos[campo]?.[0];
      if (mensaje) {
        setError(campo, { message: mensaje }, { shouldFocus: !marcado });
        marcado = true;
      }
    }
    if (!marcado) notificar('No se pudo actualizar tu información personal', 'error');
  });

  return (
    <form noValidate onSubmit={guardar}>
      <fieldset className="solo-lectura">
        <legend>Estos datos los mantiene la administración</legend>
        <Campo id="datos-nombre" etiqueta="Nombre" value={datos.nombre} readOnly />
        <div className="grid-2">
          <div>
            <Campo id="datos-rut" etiqueta="RUT" value={datos.rut} readOnly />
          </div>
          <div>
            <Campo id="datos-nacionalidad" etiqueta="Nacionalidad" value={datos.nacionalidad} readOnly />
          </div>
        </div>
        <Campo id="datos-fecha" etiqueta="Fecha de nacimiento" value={datos.fecha_nacimiento} readOnly />
      </fieldset>
      <Campo
        id="datos-email"
        etiqueta="Correo"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        registro={register('email')}
      />
      <Selector id="datos-genero" etiqueta="Género" error={errors.genero?.message} registro={register('genero')}>
        <option value="">Seleccionar</option>
        {generos.map((g) => (
          <option key={g} value={g}>
            {g}
          </option>
        ))}
      </Selector>
      <Campo
        id="datos-telefono"
        etiqueta="Teléfono"
        type="tel"
        autoComplete="tel"
        placeholder="+56 9 1234 5678"
        ayuda="Celular o teléfono fijo de Chile"
        error={errors.telefono?.message}
        registro={register('telefono')}
      />
      <div className="pie-modal">
        <button type="button" className="secundario" onClick={onCancelar}>
          Cancelar
        </button>
        <button type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? 'Guardando...' : 'Guardar'}
        </button>
      </div>
    </form>
  );
}
