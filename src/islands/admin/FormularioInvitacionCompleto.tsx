/**
 * Invite one person (issue 16): the CLI's fields with its validation (invitacionSchema, RUT check
 * included), sent to POST /api/admin/usuarios/. The account is created pending and the activation
 * link is mailed; the form says to whom and empties for the next one.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { invitacionSchema } from '../../lib/validation/invitacion';
import { Campo, ErrorFormulario, useHidratado } from '../comun/Campo';
import { validacionDiferida } from '../comun/validacion';
import { invitar, precargar } from './api';

type Entrada = z.input<typeof invitacionSchema>;
type Salida = z.output<typeof invitacionSchema>;

const validacion = validacionDiferida<Entrada, Salida>(() => import('./resolvers').then((m) => m.invitacion));
const VACIO: Entrada = { email: '', nombres: '', apellidos: '', rut: '', colegio: '', admin: false };
const CAMPOS = ['email', 'nombres', 'apellidos', 'rut', 'colegio'] as const;
/** Each field's label and input attributes, in the order shown. */
const ATRIBUTOS: Record<(typeof CAMPOS)[number], { etiqueta: string; type?: string; placeholder?: string }> = {
  email: { etiqueta: 'Correo', type: 'email' },
  nombres: { etiqueta: 'Nombres' },
  apellidos: { etiqueta: 'Apellidos' },
  rut: { etiqueta: 'RUT (opcional)', placeholder: '12.345.678-5' },
  colegio: { etiqueta: 'Colegio (opcional)' },
};

export default function FormularioInvitacion() {
  const hidratado = useHidratado();
  const [error, setError] = useState<string | null>(null);
  const [invitada, setInvitada] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError: marcar,
    formState: { errors, isSubmitting },
  } = useForm<Entrada, unknown, Salida>({ resolver: validacion.resolver, mode: 'onTouched', defaultValues: VACIO });

  const enviar = handleSubmit(async (datos) => {
    setError(null);
    setInvitada(null);
    const r = await invitar({ ...datos, colegio: datos.colegio ?? '' });
    if (r.ok) {
      setInvitada(datos.email);
      reset(VACIO);
      return;
    }
    for (const campo of CAMPOS) {
      const mensaje = r.errores?.[campo]?.[0];
      if (mensaje) marcar(campo, { message: mensaje });
    }
    setError(r.detalle);
  });

  return (
    <form
      method="post"
      noValidate
      onSubmit={enviar}
      onFocus={() => {
        validacion.precargar();
        precargar();
      }}
      aria-label="Invitar a una persona"
      className="formulario-admin"
    >
      <ErrorFormulario mensaje={error} />
      {invitada && (
        <div className="aviso-invitada">
          <p className="aviso" role="status">
            Se creó la cuenta y se envió el enlace de activación a <strong>{invitada}</strong>.
          </p>
          {/* The list below was drawn before the invitation: this shows the new account with its actions. */}
          <a href={`/admin/usuarios?${new URLSearchParams({ q: invitada })}`}>Ver la cuenta en la lista</a>
        </div>
      )}
      <div className="fila">
        {CAMPOS.map((campo) => (
          <div key={campo}>
            <Campo id={`inv-${campo}`} autoComplete="off" {...ATRIBUTOS[campo]} error={errors[campo]?.message} registro={register(campo)} />
          </div>
        ))}
      </div>
      <label className="casilla">
        <input type="checkbox" {...register('admin')} /> Administrador (puede usar esta consola)
      </label>
      <button type="submit" disabled={!hidratado || isSubmitting} aria-busy={isSubmitting || undefined}>
        {isSubmitting ? 'Invitando...' : 'Invitar'}
      </button>
    </form>
  );
}
