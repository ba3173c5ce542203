/**
 * The manual upload and edit form (SPEC.md sections 2, 5, 7 and 8). Upload ('Subir manual', admins
 * only): the PDF in the drop zone, title, read-only author, area, description; 'Subiendo manual'
 * with the percentage sent; success goes to /manuales. Edit: no file, the area sent by name (SPEC
 * section 7), 'Subiendo cambios', success goes back to the manual. A failure keeps everything
 * written, says so in a toast and puts the server's messages under their fields.
 */
import { validarArchivoManual } from '../../lib/validation/archivos';
import { Campo, Selector, useHidratado } from '../comun/Campo';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { useFormulario } from '../comun/formulario';
import { useArchivo, useSubida } from '../comun/formularioSubida';
import { MENSAJES } from '../comun/mensajes';
import { PieSubida } from '../comun/PieSubida';
import { ZonaArchivo } from '../comun/ZonaArchivo';

interface Area {
  id: number;
  nombre: string;
}

export interface FormularioManualProps {
  areas: Area[];
  /** The read-only author: the current user's first name and paternal surname, or the manual's. */
  autor: string;
  /** The size limit, for the drop zone's hint. */
  limiteMb: number;
  /** Editing: the manual as it is. */
  manual?: { id: number; titulo: string; descripcion: string; id_area: number };
}

const mensajes = MENSAJES.manual;

export default function FormularioManual({ areas, autor, limiteMb, manual }: FormularioManualProps) {
  const hidratado = useHidratado();
  const editando = manual !== undefined;
  const form = useFormulario({
    campos: ['titulo', 'id_area', 'descripcion'],
    inicial: { titulo: manual?.titulo ?? '', id_area: String(manual?.id_area ?? -1), descripcion: manual?.descripcion ?? '' },
    esquema: () => import('../../lib/validation/manuales').then((m) => m.manualSchema),
    ids: { descripcion: 'descripcion-manual' },
  });
  const pdf = useArchivo(validarArchivoManual);
  const { progreso, listo, enviar } = useSubida(form.ponerErrores, pdf.ponerError);

  const guardar = form.enviar(
    async ({ titulo, id_area, descripcion }) => {
      const datos = new FormData();
      datos.set('titulo', titulo.trim());
      datos.set('descripcion', descripcion);
      if (manual) {
        datos.set('id', String(manual.id));
        datos.set('id_area', areas.find((a) => String(a.id) === id_area)?.nombre ?? id_area);
      } else if (pdf.archivo) {
        datos.set('id_area', id_area);
        datos.set('extension', 'pdf');
        datos.set('archivo', pdf.archivo);
      }
      await enviar({
        metodo: editando ? 'PUT' : 'POST',
        url: '/api/manuales/',
        datos,
        exito: editando ? mensajes.editado(titulo.trim()) : mensajes.agregado(titulo.trim()),
        fallo: editando ? mensajes.noEditado : mensajes.noSubido,
        destino: manual ? `/manuales/${manual.id}` : '/manuales/',
      });
    },
    editando ? undefined : pdf.valido,
  );

  const ocupado = form.enviando || listo;
  return (
    <form
      className="formulario-contenido"
      method="post"
      noValidate
      onSubmit={guardar}
      onFocus={form.precargar}
      aria-busy={ocupado || undefined}
    >
      {!editando && (
        <ZonaArchivo
          id="archivo"
          etiqueta="Manual (PDF)"
          accept="application/pdf,.pdf"
          archivo={pdf.archivo}
          onArchivo={pdf.elegir}
          error={pdf.error}
          ayuda={`Un archivo .pdf de hasta ${limiteMb} MB.`}
          disabled={ocupado}
        />
      )}
      <Campo id="titulo" etiqueta="Título" autoComplete="off" {...form.campo('titulo')} disabled={ocupado} />
      <Campo id="autor" etiqueta="Autor" value={autor} readOnly />
      <Selector id="id_area" etiqueta="Área" {...form.campo('id_area')} disabled={ocupado}>
        <option value="-1">Seleccionar</option>
        {areas.map((a) => (
          <option key={a.id} value={a.id}>
            {a.nombre}
          </option>
        ))}
      </Selector>
      <EditorMarkdown
        id="descripcion-manual"
        etiqueta="Descripción"
        value={form.valores.descripcion}
        onChange={(valor) => form.cambiar('descripcion', valor)}
        onBlur={() => form.tocar('descripcion')}
        maxLength={1000}
        filas={7}
        error={form.errores.descripcion}
        disabled={ocupado}
      />
      <PieSubida
        hidratado={hidratado}
        ocupado={ocupado}
        enviando={form.enviando}
        cancelar={manual ? `/manuales/${manual.id}` : '/manuales/'}
        progreso={progreso}
        texto={(p) => (editando ? 'Subiendo cambios' : `Subiendo manual… ${p}%`)}
        conArchivo={!editando}
      />
    </form>
  );
}
