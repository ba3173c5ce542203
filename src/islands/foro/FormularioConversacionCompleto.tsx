/**
 * 'Nuevo post' (docs/SPEC.md sections 2, 5 and 8): a title and the content in the Markdown editor.
 * Publicar shows 'Subiendo nueva conversación' while the call is out; on 201 it says 'Nueva
 * conversación creada' and opens the conversation; otherwise the form stays as written with
 * 'Hubo un error al crear la conversación. Intenteló más tarde.' (or, past the posting limit, the
 * server's sentence saying when to come back).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { notificar } from '../../lib/stores/notifications';
import type { ConversacionInput } from '../../lib/validation/foro';
import { Campo, useHidratado } from '../comun/Campo';
import { campoPropio } from '../comun/campoPropio';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { ponerErroresDelServidor } from '../comun/formularioSubida';
import { validacionDiferida } from '../comun/validacion';
import { crearConversacion } from './api-conversacion';

const ERROR = 'Hubo un error al crear la conversación. Intenteló más tarde.';

const validacion = validacionDiferida(() => import('./resolvers').then((m) => m.conversacion));

export interface FormularioConversacionProps {
  idCategoria: number;
  idUsuario: number;
}

export default function FormularioConversacion({ idCategoria, idUsuario }: FormularioConversacionProps) {
  const hidratado = useHidratado();
  const [creada, setCreada] = useState(false);
  const form = useForm<ConversacionInput>({
    resolver: validacion.resolver,
    mode: 'onTouched',
    defaultValues: { titulo: '', contenido: '' },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  const publicar = handleSubmit(async ({ titulo, contenido }) => {
    const resultado = await crearConversacion(idUsuario, idCategoria, titulo, contenido);
    if (resultado.ok) {
      setCreada(true);
      notificar('Nueva conversación creada', 'exito');
      window.location.assign(`/foro/categorias/${idCategoria}/conversacion/${resultado.data.id}`);
      return;
    }
    ponerErroresDelServidor(setError, ['titulo', 'contenido'], resultado.errors);
    notificar(resultado.status === 429 && resultado.detail ? resultado.detail : ERROR, 'error');
  });

  return (
    <form method="post" noValidate onSubmit={publicar} onFocus={validacion.precargar} aria-label="Nuevo post">
      <Campo id="titulo" etiqueta="Título" autoComplete="off" registro={register('titulo')} error={errors.titulo?.message} />
      {/* 'contenido' is the id of the page's <main> (the shell's skip link). */}
      <EditorMarkdown
        id="contenido-post"
        etiqueta="Contenido"
        {...campoPropio(form, 'contenido')}
        maxLength={3000}
        filas={12}
        error={errors.contenido?.message}
        ayuda="Puedes dar formato con la barra: negrita, títulos, listas, citas y enlaces."
      />
      <div className="acciones">
        <button type="submit" disabled={!hidratado || isSubmitting || creada} aria-busy={isSubmitting || undefined}>
          Publicar
        </button>
        <a className="boton secundario" href={`/foro/categorias/${idCategoria}`}>
          Cancelar
        </a>
      </div>
      <p className="estado-envio" role="status">
        {isSubmitting ? 'Subiendo nueva conversación' : creada ? 'Nueva conversación creada' : ''}
      </p>
    </form>
  );
}
