/**
 * /ayuda: a message to the help centre (docs/SPEC.md sections 2, 4, 5 and 8): editing, then sent.
 * A failure leaves the message as written and says so in a notification.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { notificar } from '../../lib/stores/notifications';
import type { AyudaInput } from '../../lib/validation/cuentas';
import { enviarAyuda } from './ayuda';
import { AreaTexto, Selector, useHidratado } from './Campo';
import { validacionDiferida } from './validacion';

const validacion = validacionDiferida(() => import('./resolvers').then((m) => m.ayuda));

export interface FormularioAyudaProps {
  /** The signed-in user (the path id and sender of the call). */
  idUsuario: number;
  /** The subjects of docs/SPEC.md section 2, the first one chosen (from the shared schema). */
  asuntos: readonly AyudaInput['asunto'][];
}

export default function FormularioAyuda({ idUsuario, asuntos }: FormularioAyudaProps) {
  const hidratado = useHidratado();
  const [enviado, setEnviado] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AyudaInput>({ resolver: validacion.resolver, mode: 'onTouched' }); // no defaults: keep what was typed before hydration

  const enviar = handleSubmit(async (datos) => {
    if (await enviarAyuda(idUsuario, datos)) setEnviado(true);
    else notificar('Hubo un error al enviar el correo', 'error');
  });

  if (enviado) {
    return (
      <section className="aviso" aria-labelledby="titulo-enviado">
        <h2 id="titulo-enviado" tabIndex={-1} ref={(h) => h?.focus()}>
          Mensaje enviado!
        </h2>
        <p>Gracias por escribirnos. Te responderemos a tu correo.</p>
        <div className="acciones">
          <a className="boton" href="/">
            Ir al inicio
          </a>
          <a className="boton secundario" href="/ayuda">
            Enviar otro mensaje
          </a>
        </div>
      </section>
    );
  }

  return (
    <form method="post" noValidate onSubmit={enviar} onFocus={validacion.precargar} aria-label="Enviar email a centro de ayuda">
      <Selector id="asunto" etiqueta="Asunto" error={errors.asunto?.message} registro={register('asunto')}>
        {asuntos.map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </Selector>
      <AreaTexto id="mensaje" etiqueta="Mensaje" rows={7} error={errors.mensaje?.message} registro={register('mensaje')} />
      <div className="acciones">
        <button type="submit" disabled={!hidratado || isSubmitting} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? 'Enviando...' : 'Enviar'}
        </button>
        <a className="boton secundario" href="/ayuda">
          Cancelar
        </a>
      </div>
    </form>
  );
}
