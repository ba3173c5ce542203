/**
 * The report dialog (issue 17): why (one of ETIQUETAS_MOTIVO) and an optional detail, checked
 * with the same zod schema as the server. On 201 it thanks the person; a refusal shows the
 * server's sentence ('Ya denunciaste este contenido.') and keeps what was written.
 * It arrives in its own chunk when a 'Denunciar' is first pointed at or pressed, so no page pays
 * for react-hook-form and zod before someone reports.
 */
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type DenunciaEntrada,
  type denunciaSchema,
  ETIQUETAS_MOTIVO,
  MOTIVOS_DENUNCIA,
  type TipoDenuncia,
} from '../../lib/validation/denuncias';
import { AreaTexto, ErrorFormulario, Mensaje } from '../comun/Campo';
import { Modal } from '../comun/Modal';
import { validacionDiferida } from '../comun/validacion';
import { type Denuncia, denunciar } from './denunciar';

export interface DialogoDenunciaProps {
  abierto: boolean;
  tipo: TipoDenuncia;
  id: number;
  onCerrar: () => void;
}

const validacion = validacionDiferida(() => import('./resolvers').then((m) => m.denuncia));
const GRACIAS = 'Gracias. Un administrador revisará tu denuncia.';

export default function DialogoDenuncia({ abierto, tipo, id, onCerrar }: DialogoDenunciaProps) {
  // React's ids start with '_': an id should start with a letter.
  const base = `denuncia${useId()}`;
  const [enviada, setEnviada] = useState(false);
  const [rechazo, setRechazo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DenunciaEntrada, unknown, z.output<typeof denunciaSchema>>({
    resolver: validacion.resolver,
    defaultValues: { tipo, id, detalle: '' },
  });

  const enviar = handleSubmit(async (datos: Denuncia) => {
    setRechazo(null);
    const r = await denunciar(datos);
    if (r.ok) return setEnviada(true);
    const { motivo, detalle } = r.errores ?? {};
    if (motivo?.[0]) setError('motivo', { message: motivo[0] });
    if (detalle?.[0]) setError('detalle', { message: detalle[0] });
    if (!motivo && !detalle) setRechazo(r.detalle);
  });

  const cerrar = () => !isSubmitting && onCerrar();

  if (enviada)
    return (
      <Modal
        abierto={abierto}
        titulo="Denuncia enviada"
        onCerrar={onCerrar}
        pie={
          <button type="button" onClick={onCerrar}>
            Aceptar
          </button>
        }
      >
        <p role="status">{GRACIAS}</p>
      </Modal>
    );

  const idMotivo = `${base}-motivo`;
  const errorMotivo = errors.motivo?.message;
  return (
    <Modal
      abierto={abierto}
      titulo="¿Por qué denuncias este contenido?"
      onCerrar={cerrar}
      pie={
        <>
          <button type="button" className="secundario" disabled={isSubmitting} onClick={cerrar}>
            Cancelar
          </button>
          <button type="submit" form={base} disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
            Enviar denuncia
          </button>
        </>
      }
    >
      <form id={base} className="formulario-denuncia" noValidate onSubmit={enviar} onFocus={validacion.precargar}>
        <ErrorFormulario mensaje={rechazo} />
        <fieldset aria-describedby={errorMotivo ? `${idMotivo}-error` : undefined}>
          <legend>Motivo</legend>
          {MOTIVOS_DENUNCIA.map((m) => (
            <label key={m}>
              <input type="radio" value={m} aria-invalid={errorMotivo ? true : undefined} {...register('motivo')} />
              {ETIQUETAS_MOTIVO[m]}
            </label>
          ))}
          <Mensaje id={idMotivo} error={errorMotivo} />
        </fieldset>
        <AreaTexto
          id={`${base}-detalle`}
          etiqueta="Detalle (opcional)"
          rows={3}
          maxLength={1000}
          error={errors.detalle?.message}
          registro={register('detalle')}
        />
      </form>
    </Modal>
  );
}
