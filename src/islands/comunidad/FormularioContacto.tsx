/**
 * /comunidad/{id}/contactar and /perfil/{id}/contactar (docs/SPEC.md sections 2, 4, 5 and 8): subject
 * and message to a colleague, editing then sent. The mail goes through the platform; the
 * colleague's address is never shown. A failure keeps the message as written.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { notificar } from '../../lib/stores/notifications';
import type { ContactoInput } from '../../lib/validation/cuentas';
import { AreaTexto, Campo, useHidratado } from '../comun/Campo';
import { validacionDiferida } from '../comun/validacion';
import { enviarContacto, precargarEnvio } from './contacto';

const validacion = validacionDiferida(() => import('./resolvers').then((m) => m.contacto));

export interface FormularioContactoProps {
  /** The signed-in user (the path id and sender of the call). */
  idUsuario: number;
  idDestinatario: number;
  /** The colleague's first name, for the confirmation. */
  nombreDestinatario: string;
  /** Where 'Cancelar' and 'Volver' lead (docs/SPEC.md: /comunidad). */
  volver: string;
}

export default function FormularioContacto({ idUsuario, idDestinatario, nombreDestinatario, volver }: FormularioContactoProps) {
  const hidratado = useHidratado();
  const [enviado, setEnviado] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ContactoInput>({ resolver: validacion.resolver, mode: 'onTouched', defaultValues: { asunto: '', mensaje: '' } });

  const precargar = () => {
    validacion.precargar();
    precargarEnvio();
  };

  const enviar = handleSubmit(async (datos) => {
    const r = await enviarContacto(idUsuario, idDestinatario, datos);
    if (r.ok) setEnviado(true);
    // The hourly limit says how long to wait; anything else is SPEC's sentence.
    else notificar(r.status === 429 && r.detalle ? r.detalle : 'Hubo un error al enviar el correo', 'error');
  });

  if (enviado) {
    return (
      <section className="aviso" aria-labelledby="titulo-enviado">
        <h2 id="titulo-enviado" tabIndex={-1} ref={(h) => h?.focus()}>
          Mensaje enviado!
        </h2>
        <p>{nombreDestinatario} recibirá tu mensaje por correo y podrá responderte directamente a tu correo.</p>
        <div className="acciones">
          <a className="boton" href={volver}>
            Volver a la comunidad
          </a>
          <a className="boton secundario" href={`/perfil/${idDestinatario}`}>
            Ver perfil
          </a>
        </div>
      </section>
    );
  }

  return (
    <form method="post" noValidate onSubmit={enviar} onFocus={precargar} aria-label={`Enviar un mensaje a ${nombreDestinatario}`}>
      <Campo id="asunto" etiqueta="Asunto" maxLength={150} error={errors.asunto?.message} registro={register('asunto')} />
      <AreaTexto id="mensaje" etiqueta="Mensaje" rows={7} maxLength={5000} error={errors.mensaje?.message} registro={register('mensaje')} />
      <div className="acciones">
        <button type="submit" disabled={!hidratado || isSubmitting} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? 'Enviando...' : 'Enviar'}
        </button>
        <a className="boton secundario" href={volver}>
          Cancelar
        </a>
      </div>
    </form>
  );
}
