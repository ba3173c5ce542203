/**
 * /activar-cuenta/{token} and /registrar/?token=: the welcome screen where an invited teacher
 * creates a first password (docs/SPEC.md sections 2, 4, 5 and 8). The email comes from the token
 * check; success signs in with it and the new password and goes home. The privacy notice must be
 * accepted (issue 31): a required checkbox with a link to /privacidad.
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { PRODUCTO } from '../../lib/marca';
import { iniciarSesion } from '../../lib/stores/session';
import type { ActivacionInput } from '../../lib/validation/cuentas';
import { descripcion, ErrorFormulario, Mensaje, useHidratado } from '../comun/Campo';
import { validacionDiferida } from '../comun/validacion';
import { CamposContrasena, EnlaceInvalido, Verificando } from './CamposContrasena';
import { activarCuenta, haySesion, tokenDeEnlace, verificarActivacion } from './cuenta';
import { ingresar } from './ingreso';

const validacion = validacionDiferida(() => import('../comun/resolvers').then((m) => m.activacion));

type Pantalla = { paso: 'verificando' } | { paso: 'invalido'; mensaje: string } | { paso: 'formulario'; token: string; email: string };

export interface ActivarCuentaProps {
  /** The path the token follows (the static server answers every `/activar-cuenta/{token}`). */
  prefijo: string;
}

export default function ActivarCuenta({ prefijo }: ActivarCuentaProps) {
  const hidratado = useHidratado();
  const [pantalla, setPantalla] = useState<Pantalla>({ paso: 'verificando' });
  const [error, setError] = useState<string | null>(null);
  const [entrando, setEntrando] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ActivacionInput>({
    resolver: validacion.resolver,
    mode: 'onTouched',
    defaultValues: { password: '', password_confirmation: '', acepta_privacidad: false },
  });

  useEffect(() => {
    const token = tokenDeEnlace(window.location.pathname, window.location.search, prefijo);
    if (!token) return window.location.replace('/ingresar/');
    haySesion().then((conSesion) => conSesion && window.location.replace('/'));
    verificarActivacion(token).then((r) =>
      setPantalla(r.ok ? { paso: 'formulario', token, email: r.valor } : { paso: 'invalido', mensaje: r.mensaje }),
    );
  }, [prefijo]);

  if (pantalla.paso === 'verificando') return <Verificando />;
  if (pantalla.paso === 'invalido') return <EnlaceInvalido mensaje={pantalla.mensaje} />;
  const { token, email } = pantalla;

  const enviar = handleSubmit(async (datos) => {
    setError(null);
    const activada = await activarCuenta(token, datos);
    if (!activada.ok) return setError(activada.mensaje);
    setEntrando(true);
    const sesion = await ingresar({ email, password: datos.password });
    // A new account has no second factor; anything else signs in from the sign-in screen.
    if (!sesion.ok || !sesion.valor.usuario) return window.location.assign('/ingresar/');
    iniciarSesion(sesion.valor.usuario);
    window.location.assign('/');
  });

  const ocupado = isSubmitting || entrando;
  return (
    <>
      <h1 id="titulo">Bienvenido a {PRODUCTO}</h1>
      <p>Crea tu contraseña para activar tu cuenta.</p>
      <form method="post" noValidate onSubmit={enviar} onFocus={validacion.precargar} aria-labelledby="titulo">
        <ErrorFormulario mensaje={error} />
        <label htmlFor="email">Correo</label>
        <input id="email" type="email" value={email} readOnly autoComplete="username" />
        <CamposContrasena register={register} errors={errors} />
        <label className="casilla" htmlFor="acepta_privacidad">
          <input
            id="acepta_privacidad"
            type="checkbox"
            {...register('acepta_privacidad')}
            {...descripcion({ id: 'acepta_privacidad', error: errors.acepta_privacidad?.message })}
          />{' '}
          Leí y acepto el{' '}
          <a href="/privacidad/" target="_blank" rel="noopener">
            aviso de privacidad
          </a>
        </label>
        <Mensaje id="acepta_privacidad" error={errors.acepta_privacidad?.message} className="error-campo" />
        <button type="submit" disabled={!hidratado || ocupado} aria-busy={ocupado || undefined}>
          Crear contraseña y acceder
        </button>
      </form>
    </>
  );
}
