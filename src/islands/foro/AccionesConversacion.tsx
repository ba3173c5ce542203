/**
 * Editar and Eliminar on a conversation, for its author and admins (issue 17). Editar opens the
 * title and the Markdown content in a dialog; Guardar reloads the page, which then shows
 * '(editado)'. Eliminar asks first, then goes back to the category. The page renders it only for
 * the author and admins, buttons included, so nothing moves when it hydrates; the API decides again.
 */
import { type SubmitEvent, useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { descripcion, Mensaje } from '../comun/Campo';
import { Confirmacion } from '../comun/Confirmacion';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { Modal } from '../comun/Modal';
import { editarConversacion, eliminarConversacion } from './api-conversacion';

export interface AccionesConversacionProps {
  id: number;
  idCategoria: number;
  titulo: string;
  /** The content as Markdown, to edit. */
  markdown: string;
}

type Errores = { titulo?: string | undefined; contenido?: string | undefined };

export default function AccionesConversacion({ id, idCategoria, titulo, markdown }: AccionesConversacionProps) {
  const [modo, setModo] = useState<'nada' | 'editar' | 'eliminar'>('nada');
  const [campos, setCampos] = useState({ titulo, contenido: markdown });
  const [errores, setErrores] = useState<Errores>({});
  const [ocupado, setOcupado] = useState(false);

  async function guardar(event: SubmitEvent) {
    event.preventDefault();
    const locales: Errores = {
      titulo: campos.titulo.trim() === '' ? 'Debe ingresar un titulo' : undefined,
      contenido: campos.contenido.trim() === '' ? 'Debe ingresar el contenido de la conversación' : undefined,
    };
    setErrores(locales);
    if (locales.titulo || locales.contenido) return;
    setOcupado(true);
    const resultado = await editarConversacion(id, campos.titulo, campos.contenido);
    if (resultado.ok) {
      notificar('Conversación editada', 'exito');
      window.location.reload();
      return;
    }
    setOcupado(false);
    setErrores({ titulo: resultado.errors?.titulo?.[0], contenido: resultado.errors?.contenido?.[0] });
    notificar('No se pudo editar la conversación', 'error');
  }

  async function eliminar() {
    setOcupado(true);
    if (await eliminarConversacion(id)) {
      notificar('Conversación eliminada', 'exito');
      window.location.assign(`/foro/categorias/${idCategoria}`);
      return;
    }
    setOcupado(false);
    setModo('nada');
    notificar('No se pudo eliminar la conversación', 'error');
  }

  const cerrar = () => !ocupado && setModo('nada');
  return (
    <div className="acciones-conversacion">
      <button type="button" className="secundario" aria-label={`Editar conversación ${titulo}`} onClick={() => setModo('editar')}>
        Editar
      </button>
      <button
        type="button"
        className="secundario peligro"
        aria-label={`Eliminar conversación ${titulo}`}
        onClick={() => setModo('eliminar')}
      >
        Eliminar
      </button>
      <Modal abierto={modo === 'editar'} titulo="Editar conversación" onCerrar={cerrar} ancho>
        <form onSubmit={guardar} noValidate>
          <label htmlFor="titulo-edicion">Título</label>
          <input
            id="titulo-edicion"
            type="text"
            value={campos.titulo}
            maxLength={120}
            {...descripcion({ id: 'titulo-edicion', error: errores.titulo })}
            onChange={(e) => setCampos({ ...campos, titulo: e.target.value })}
          />
          <Mensaje id="titulo-edicion" error={errores.titulo} />
          <EditorMarkdown
            id="contenido-edicion"
            etiqueta="Contenido"
            value={campos.contenido}
            onChange={(contenido) => setCampos({ ...campos, contenido })}
            maxLength={3000}
            filas={10}
            error={errores.contenido}
          />
          <div className="acciones">
            <button type="submit" disabled={ocupado} aria-busy={ocupado || undefined}>
              Guardar
            </button>
            <button type="button" className="secundario" disabled={ocupado} onClick={cerrar}>
              Cancelar
            </button>
          </div>
        </form>
      </Modal>
      <Confirmacion
        abierto={modo === 'eliminar'}
        titulo="Eliminar conversación"
        ocupado={ocupado}
        onCancelar={cerrar}
        onConfirmar={eliminar}
      >
        <p>
          ¿Eliminar la conversación <strong>{titulo}</strong>? Se borrarán también sus comentarios y reacciones. Esta acción no se puede
          deshacer.
        </p>
      </Confirmacion>
    </div>
  );
}
