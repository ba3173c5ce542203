/**
 * The second step of /ingresar/ for an account with a second factor (issue 32): the 6-digit code
 * of the person's app, or one of their recovery codes, and 'Recordar este equipo 30 días'.
 */
import { useId, useRef, useState } from 'react';
import { api } from '../../lib/api/client';
import { notificar } from '../../lib/stores/notifications';
import type { UsuarioSesion } from '../../lib/stores/session';
import type { SegundoFactorInput } from '../../lib/validation/segundo-factor';
import { ErrorFormulario } from '../comun/Campo';
import { falla, hecho, mensajeIngreso, SIN_CONEXION } from './cuenta';

/** Why a second step failed: the code (try again) or the challenge (start again with the password). */
type FalloSegundoFactor = { ok: false; mensaje: string; reiniciar?: boolean };

/**
 * The second step (issue 32): the code of the app or a recovery code, for the challenge of the
 * first. Here rather than in cuenta.ts, whose chunk every account page loads.
 */
async function completarSegundoFactor(body: SegundoFactorInput): Promise<{ ok: true; valor: UsuarioSesion } | FalloSegundoFactor> {
  try {
    const { data, error, response } = await api.POST('/auth/segundo-factor/', { body });
    if (data) {
      if (data.aviso) notificar(data.aviso, 'info');
      return hecho<UsuarioSesion>(data.usuario);
    }
    const desafio = error?.errors?.desafio?.[0];
    if (desafio) return { ok: false, mensaje: desafio, reiniciar: true };
    return falla(error?.errors?.codigo?.[0] ?? mensajeIngreso(response.status, error));
  } catch {
    return falla(SIN_CONEXION);
  }
}

interface Props {
  desafio: string;
  /** Signed in. */
  alIngresar(usuario: UsuarioSesion): void;
  /** The challenge expired or was spent: back to the password, with this message. */
  alReiniciar(mensaje: string | null): void;
}

export default function SegundoPaso({ desafio, alIngresar, alReiniciar }: Props) {
  const [recuperacion, setRecuperacion] = useState(false);
  const [codigo, setCodigo] = useState('');
  const [recordar, setRecordar] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const campo = useRef<HTMLInputElement>(null);
  const id = useId();

  async function enviar(evento: React.FormEvent) {
    evento.preventDefault();
    // The shared schema comes with zod, in the chunk the password step loads on focus (validacion.ts).
    const { codigoSchema, codigoTotp } = await import('../../lib/validation/segundo-factor');
    const valido = codigoSchema.safeParse({ codigo });
    const formato = recuperacion || codigoTotp.test(codigo.replace(/\s/g, ''));
    if (!valido.success || !formato) {
      setError(recuperacion ? 'Ingresa un código de recuperación' : 'Ingresa el código de 6 dígitos de tu app');
      campo.current?.focus();
      return;
    }
    setError(null);
    setEnviando(true);
    const resultado = await completarSegundoFactor({ desafio, codigo: valido.data.codigo, recordar });
    if (resultado.ok) return alIngresar(resultado.valor);
    setEnviando(false);
    if ('reiniciar' in resultado && resultado.reiniciar) return alReiniciar(resultado.mensaje);
    setError(resultado.mensaje);
    setCodigo('');
    campo.current?.focus();
  }

  function cambiarModo() {
    setRecuperacion(!recuperacion);
    setCodigo('');
    setError(null);
    requestAnimationFrame(() => campo.current?.focus());
  }

  const campoId = `${id}-codigo`;
  return (
    <form noValidate onSubmit={enviar} aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Verificación en dos pasos</h2>
      <p id={`${id}-ayuda`}>
        {recuperacion
          ? 'Ingresa uno de los códigos de recuperación que guardaste al activar la verificación. Cada código sirve una sola vez.'
          : 'Abre tu app de autenticación e ingresa el código de 6 dígitos que muestra para Entre Docentes.'}
      </p>
      <ErrorFormulario mensaje={error} />
      <label htmlFor={campoId}>{recuperacion ? 'Código de recuperación' : 'Código de 6 dígitos'}</label>
      <input
        ref={campo}
        id={campoId}
        type="text"
        name="codigo"
        // biome-ignore lint/a11y/noAutofocus: the one field of this step, shown right after the password was accepted
        autoFocus
        value={codigo}
        onChange={(e) => setCodigo(e.target.value)}
        aria-describedby={`${id}-ayuda`}
        aria-invalid={error ? true : undefined}
        {...(recuperacion
          ? { autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, maxLength: 20, placeholder: 'abcd-efgh' }
          : { autoComplete: 'one-time-code', inputMode: 'numeric' as const, pattern: '[0-9]*', maxLength: 6, placeholder: '123456' })}
      />
      <label>
        <input type="checkbox" name="recordar" checked={recordar} onChange={(e) => setRecordar(e.target.checked)} /> Recordar este equipo 30
        días
      </label>
      <button type="submit" disabled={enviando} aria-busy={enviando || undefined}>
        {enviando ? 'Verificando...' : 'Verificar'}
      </button>
      <p>
        <button type="button" className="secundario" onClick={cambiarModo} disabled={enviando}>
          {recuperacion ? 'Usar el código de la app' : 'Usar un código de recuperación'}
        </button>{' '}
        <button type="button" className="secundario" onClick={() => alReiniciar(null)} disabled={enviando}>
          Volver
        </button>
      </p>
    </form>
  );
}
