/**
 * /reestablecer-contraseña/: asks for the email, then says where the link was sent
 * (docs/SPEC.md sections 2, 4, 5 and 8). A signed-in user is signed out when it succeeds.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { RecuperarCuentaInput } from '../../lib/validation/cuentas';
import { Campo, ErrorFormulario, useHidratado } from '../comun/Campo';
import { validacionDiferida } from '../comun/validacion';
import { salir, solicitarRecuperacion } from './cuenta';

const validacion = validacionDiferida(() => import('../comun/resolvers').then((m) => m.recuperacion));

export default function FormularioRecuperacion() {
  const hidratado = useHidratado();
  const [error, setError] = useState<string | null>(null);
  const [enviadoA, setEnviadoA] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<RecuperarCuentaInput>({ resolver: validacion.resolver, mode: 'onTouched' }); // no defaults: keep what was typed before hydration

  const enviar = handleSubmit(async (datos) => {
    setError(null);
    const resultado = await solicitarRecuperacion(datos);
    if (!resultado.ok) return setError(resultado.mensaje);
    await salir();
    setEnviadoA(datos.email);
  });

  if (enviadoA) {
    return (
      <section aria-labelledby="titulo-enviado">
        <h1 id="titulo-enviado" tabIndex={-1} ref={(h) => h?.focus()}>
          Revisa tu correo
        </h1>
        <p className="aviso" role="status">
          Se envió un correo a <strong>{enviadoA}</strong> con las instrucciones para cambiar tu contraseña.
        </p>
        <a className="boton ancho" href="/ingresar/">
          Ingresar
        </a>
      </section>
    );
  }

  return (
    <>
      <h1 id="titulo">Recupera tu contraseña</h1>
      <p>Ingresa el correo de tu cuenta y te enviaremos un enlace para crear una nueva contraseña.</p>
      <form method="post" noValidate onSubmit={enviar} onFocus={validacion.precargar} aria-labelledby="titulo">
        <ErrorFormulario mensaje={error} />
        <Campo
          id="email"
          etiqueta="Correo"
          type="email"
          placeholder="nombre@colegio.cl"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          registro={register('email')}
        />
        <button type="submit" disabled={!hidratado || isSubmitting} aria-busy={isSubmitting || undefined}>
          Enviar
        </button>
      </form>
      <p className="acceso-enlaces">
        <a href="/ingresar/">Volver</a>
      </p>
    </>
  );
}
