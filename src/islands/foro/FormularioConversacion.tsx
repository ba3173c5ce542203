/**
 * 'Nuevo post' (SPEC.md sections 2, 5 and 8): a title and the content in the Markdown editor.
 * Publicar shows 'Subiendo nueva conversación' while the call is out; on 201 it says 'Nueva
 * conversación creada' and opens the conversation; otherwise the form stays as written with
 * 'Hubo un error al crear la conversación. Intenteló más tarde.' (or, past the posting limit, the
 * server's sentence saying when to come back).
 */
import { useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { Campo, useHidratado } from '../comun/Campo';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { useFormulario } from '../comun/formulario';
import { crearConversacion } from './api-conversacion';

const ERROR = 'Hubo un error al crear la conversación. Intenteló más tarde.';

export interface FormularioConversacionProps {
  idCategoria: number;
  idUsuario: number;
}

export default function FormularioConversacion({ idCategoria, idUsuario }: FormularioConversacionProps) {
  const hidratado = useHidratado();
  const [creada, setCreada] = useState(false);
  const form = useFormulario({
    campos: ['titulo', 'contenido'],
    inicial: { titulo: '', contenido: '' },
    esquema: () => import('./reglas').then((m) => m.conversacionSchema),
    // 'contenido' is the id of the page's <main> (the shell's skip link).
    ids: { contenido: 'contenido-post' },
  });

  const publicar = form.enviar(async ({ titulo, contenido }) => {
    const resultado = await crearConversacion(idUsuario, idCategoria, titulo.trim(), contenido);
    if (resultado.ok) {
      setCreada(true);
      notificar('Nueva conversación creada', 'exito');
      window.location.assign(`/foro/categorias/${idCategoria}/conversacion/${resultado.data.id}`);
      return;
    }
    form.ponerErrores({ titulo: resultado.errors?.titulo?.[0], contenido: resultado.errors?.contenido?.[0] });
    notificar(resultado.status === 429 && resultado.detail ? resultado.detail : ERROR, 'error');
  });

  return (
    <form method="post" noValidate onSubmit={publicar} onFocus={form.precargar} aria-label="Nuevo post">
      <Campo id="titulo" etiqueta="Título" autoComplete="off" {...form.campo('titulo')} />
      <EditorMarkdown
        id="contenido-post"
        etiqueta="Contenido"
        value={form.valores.contenido}
        onChange={(valor) => form.cambiar('contenido', valor)}
        onBlur={() => form.tocar('contenido')}
        maxLength={3000}
        filas={12}
        error={form.errores.contenido}
        ayuda="Puedes dar formato con la barra: negrita, títulos, listas, citas y enlaces."
      />
      <div className="acciones">
        <button type="submit" disabled={!hidratado || form.enviando || creada} aria-busy={form.enviando || undefined}>
          Publicar
        </button>
        <a className="boton secundario" href={`/foro/categorias/${idCategoria}`}>
          Cancelar
        </a>
      </div>
      <p className="estado-envio" role="status">
        {form.enviando ? 'Subiendo nueva conversación' : creada ? 'Nueva conversación creada' : ''}
      </p>
    </form>
  );
}
