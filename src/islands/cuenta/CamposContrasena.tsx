/** The password and confirmation fields of activation and password change (docs/SPEC.md section 5). */
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import type { NuevaContrasenaInput } from '../../lib/validation/cuentas';
import { Campo } from '../comun/Campo';

type CampoContrasena = keyof NuevaContrasenaInput;

interface Props {
  /** The form's `register`: of the password change, or of the activation (which adds the privacy checkbox). */
  register: (nombre: CampoContrasena, opciones: { deps: CampoContrasena[] }) => UseFormRegisterReturn;
  errors: FieldErrors<NuevaContrasenaInput>;
}

export function CamposContrasena({ register, errors }: Props) {
  return (
    <>
      <Campo
        id="password"
        etiqueta="Contraseña"
        type="password"
        autoComplete="new-password"
        ayuda="Entre 8 y 100 caracteres, con mayúsculas, minúsculas y números."
        error={errors.password?.message}
        registro={register('password', { deps: ['password_confirmation'] })}
      />
      <Campo
        id="password_confirmation"
        etiqueta="Confirmar contraseña"
        type="password"
        autoComplete="new-password"
        error={errors.password_confirmation?.message}
        registro={register('password_confirmation', { deps: ['password'] })}
      />
    </>
  );
}

/** The screen for a link that does not work (docs/SPEC.md section 2: with a button to /ingresar). */
export function EnlaceInvalido({ mensaje }: { mensaje: string }) {
  return (
    <section aria-labelledby="titulo">
      <h1 id="titulo">{mensaje}</h1>
      <p>El enlace no es válido, ya se usó o venció. Puedes ingresar o pedir uno nuevo desde «¿Olvidaste tu Contraseña?».</p>
      <a className="boton ancho" href="/ingresar/">
        Ingresar
      </a>
    </section>
  );
}

export function Verificando() {
  return (
    <p className="verificando" aria-busy="true">
      Verificando el enlace…
    </p>
  );
}
