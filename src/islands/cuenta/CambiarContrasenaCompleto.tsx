/**
 * /cambiar-contraseña/{token}: the new password of a reset link (docs/SPEC.md sections 2, 4, 5 and 8).
 * Whoever is signed in in this browser is signed out as the page opens.
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { NuevaContrasenaInput } from '../../lib/validation/cuentas';
import { ErrorFormulario, useHidratado } from '../comun/Campo';
import { validacionDiferida } from '../comun/validacion';
import { CamposContrasena, EnlaceInvalido, Verificando } from './CamposContrasena';
import { cambiarContrasena, salir, tokenDeEnlace, verificarCambio } from './cuenta';

const validacion = validacionDiferida(() => import('../comun/resolvers').then((m) => m.nuevaContrasena));

type Pantalla =
  | { paso: 'verificando' }
  | { paso: 'invalido'; mensaje: string }
  | { paso: 'formulario'; token: string; email: string }
  | { paso: 'cambiada' };

export interface CambiarContrasenaProps {
  /** The path the token follows (the static server answers every `/cambiar-contraseña/{token}`). */
  prefijo: string;
}

export default function CambiarContrasena({ prefijo }: CambiarContrasenaProps) {
  const hidratado = useHidratado();
  const [pantalla, setPantalla] = useState<Pantalla>({ paso: 'verificando' });
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NuevaContrasenaInput>({
    resolver: validacion.resolver,
    mode: 'onTouched',
    defaultValues: { password: '', password_confirmation: '' },
  });

  useEffect(() => {
    const token = tokenDeEnlace(window.location.pathname, window.location.search, prefijo);
    if (!token) return window.location.replace('/ingresar/');
    void salir();
    verificarCambio(token).then((r) =>
      setPantalla(r.ok ? { paso: 'formulario', token, email: r.valor } : { paso: 'invalido', mensaje: r.mensaje }),
    );
  }, [prefijo]);

  if (pantalla.paso === 'verificando') return <Verificando />;
  if (pantalla.paso === 'invalido') return <EnlaceInvalido mensaje={pantalla.mensaje} />;
  if (pantalla.paso === 'cambiada') {
    return (
      <section aria-labelledby="titulo">
        <h1 id="titulo" tabIndex={-1} ref={(h) => h?.focus()}>
          Contraseña cambiada exitosamente!
        </h1>
        <p>Ya puedes ingresar con tu nueva contraseña.</p>
        <a className="boton ancho" href="/ingresar/">
          Ingresar
        </a>
      </section>
    );
  }
  const { token, email } = pantalla;

  const enviar = handleSubmit(async (datos) => {
    setError(null);
    const resultado = await cambiarContrasena(token, datos);
    if (resultado.ok) setPantalla({ paso: 'cambiada' });
    else setError(resultado.mensaje);
  });

  return (
    <>
      <h1 id="titulo">Crea una nueva contraseña</h1>
      <p>
        Para la cuenta <strong>{email}</strong>.
      </p>
      <form method="post" noValidate onSubmit={enviar} onFocus={validacion.precargar} aria-labelledby="titulo">
        <ErrorFormulario mensaje={error} />
        <CamposContrasena register={register} errors={errors} />
        <button type="submit" disabled={!hidratado || isSubmitting} aria-busy={isSubmitting || undefined}>
          Cambiar contraseña
        </button>
      </form>
    </>
  );
}
