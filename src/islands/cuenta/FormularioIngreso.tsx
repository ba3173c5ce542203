/**
 * /ingresar/: email and password, the auth error above the form (docs/SPEC.md sections 2, 5 and 8).
 * A visitor who already has a session goes straight on; after signing in, to `siguiente`. An
 * account with a second factor gets a second step asking its code (SegundoPaso, issue 32).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { destinoSeguro } from '../../lib/destino';
import { iniciarSesion, marcarNoAutenticado, type UsuarioSesion } from '../../lib/stores/session';
import type { LoginInput } from '../../lib/validation/cuentas';
import { Campo, ErrorFormulario, useHidratado } from '../comun/Campo';
import { cargaUnica } from '../comun/carga';
import { validacionDiferida } from '../comun/validacion';
import { haySesion, mensajeIngreso } from './cuenta';

/** Only an account with a second factor needs the second step: it loads when the challenge comes. */
const SegundoPaso = lazy(() => import('./SegundoPaso'));

const validacion = validacionDiferida(() => import('../comun/resolvers').then((m) => m.ingreso));
/** The sign-in call comes with the validation, when the form is first used. */
const envio = cargaUnica(() => import('./ingreso'));
const precargar = () => {
  validacion.precargar();
  envio().catch(() => undefined);
};

const destino = () => destinoSeguro(new URLSearchParams(window.location.search).get('siguiente'), window.location.origin);

export default function FormularioIngreso() {
  const hidratado = useHidratado();
  const [error, setError] = useState<string | null>(null);
  const [entrando, setEntrando] = useState(false);
  const [desafio, setDesafio] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: validacion.resolver, mode: 'onTouched' }); // no defaults: keep what was typed before hydration

  useEffect(() => {
    // A provider sign-in (OpenID Connect) whose account has a second factor comes back with its
    // challenge in the fragment: the code is asked here, as after a password (issue 32).
    const delProveedor = new URLSearchParams(window.location.hash.slice(1)).get('desafio');
    if (delProveedor) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
      setDesafio(delProveedor);
      return;
    }
    haySesion().then((conSesion) => {
      if (conSesion) {
        setEntrando(true);
        window.location.replace(destino());
      }
    });
  }, []);

  const enviar = handleSubmit(async (datos) => {
    setError(null);
    // The start-up check may still be renewing the session: let it finish first.
    if (await haySesion()) return window.location.replace(destino());
    const resultado = await envio().then(
      (m) => m.ingresar(datos),
      () => ({ ok: false, mensaje: mensajeIngreso(null) }) as const,
    );
    if (!resultado.ok) {
      marcarNoAutenticado();
      setError(resultado.mensaje);
      return;
    }
    if (resultado.valor.desafio !== undefined) return setDesafio(resultado.valor.desafio);
    entrar(resultado.valor.usuario);
  });

  function entrar(usuario: UsuarioSesion) {
    setEntrando(true);
    iniciarSesion(usuario);
    window.location.assign(destino());
  }

  if (desafio !== null) {
    const reiniciar = (mensaje: string | null) => {
      setDesafio(null);
      setError(mensaje);
    };
    return (
      <Suspense fallback={<p aria-busy="true">Cargando...</p>}>
        <SegundoPaso desafio={desafio} alIngresar={entrar} alReiniciar={reiniciar} />
      </Suspense>
    );
  }

  const ocupado = isSubmitting || entrando;
  return (
    <form method="post" noValidate onSubmit={enviar} onFocus={precargar} aria-labelledby="titulo">
      <ErrorFormulario mensaje={error} />
      <Campo
        id="email"
        etiqueta="Correo"
        type="email"
        placeholder="Correo"
        autoComplete="username"
        inputMode="email"
        error={errors.email?.message}
        registro={register('email')}
      />
      <Campo
        id="password"
        etiqueta="Contraseña"
        type="password"
        placeholder="Contraseña"
        autoComplete="current-password"
        error={errors.password?.message}
        registro={register('password')}
      />
      <button type="submit" disabled={!hidratado || ocupado} aria-busy={ocupado || undefined}>
        Ingresar
      </button>
    </form>
  );
}
