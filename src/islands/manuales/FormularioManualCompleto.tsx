/**
 * The manual upload and edit form (docs/SPEC.md sections 2, 5, 7 and 8). Upload ('Subir manual', admins
 * only): the PDF in the drop zone, title, read-only author, area, description; 'Subiendo manual'
 * with the percentage sent; success goes to /manuales. Edit: no file, the area sent by name (SPEC
 * section 7), 'Subiendo cambios', success goes back to the manual. A failure keeps everything
 * written, says so in a toast and puts the server's messages under their fields.
 */
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { validarArchivoManual } from '../../lib/validation/archivos';
import type { ManualInput, manualSchema } from '../../lib/validation/manuales';
import { Campo, Selector, useHidratado } from '../comun/Campo';
import { CamposPublicacion } from '../comun/CamposPublicacion';
import { campoPropio } from '../comun/campoPropio';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { conSubida, useArchivo, useSubida } from '../comun/formularioSubida';
import { MENSAJES } from '../comun/mensajes';
import { PieSubida } from '../comun/PieSubida';
import { useSubidaReanudable } from '../comun/reanudable';
import { subir } from '../comun/subida';
import { useUsuarioActivo } from '../comun/usuario';
import { validacionDiferida } from '../comun/validacion';
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
  /** The licence and visibility the form starts with: the manual's, or on upload the network's default and 'red' (issue 34). */
  publicacion: { licencia: string; visibilidad: string };
  /** Editing: the manual as it is. */
  manual?: { id: number; titulo: string; descripcion: string; id_area: number };
}

const mensajes = MENSAJES.manual;

const CAMPOS = ['titulo', 'id_area', 'descripcion', 'licencia', 'visibilidad'] as const;

const validacion = validacionDiferida<z.input<typeof manualSchema>, ManualInput>(() => import('./resolvers').then((m) => m.manual));

export default function FormularioManual({ areas, autor, limiteMb, manual, publicacion }: FormularioManualProps) {
  const hidratado = useHidratado();
  const editando = manual !== undefined;
  const inicial = {
    titulo: manual?.titulo ?? '',
    id_area: String(manual?.id_area ?? -1),
    descripcion: manual?.descripcion ?? '',
    ...(publicacion as Pick<z.input<typeof manualSchema>, 'licencia' | 'visibilidad'>),
  };
  const form = useForm<z.input<typeof manualSchema>, unknown, ManualInput>({
    resolver: validacion.resolver,
    mode: 'onTouched',
    defaultValues: inicial,
  });
  const {
    register,
    handleSubmit,
    setError,
    trigger,
    formState: { errors, isSubmitting },
  } = form;
  const tus = useSubidaReanudable('manual', useUsuarioActivo()?.id);
  const pdf = useArchivo(validarArchivoManual, tus);
  const { progreso, listo, enviar } = useSubida(setError, CAMPOS, pdf.ponerError);

  const guardar = (evento: FormEvent<HTMLFormElement>) => {
    // The PDF is checked with the fields, so every message shows at once.
    const archivo = editando ? null : pdf.valido();
    return handleSubmit(async ({ titulo, descripcion, id_area, licencia, visibilidad }) => {
      if (manual) {
        // docs/SPEC.md section 7: an edit names the area.
        const area = areas.find((a) => a.id === id_area)?.nombre ?? String(id_area);
        await enviar(
          (onProgreso) =>
            subir('PUT', '/api/manuales/', { id: manual.id, titulo, descripcion, id_area: area, licencia, visibilidad }, onProgreso),
          {
            exito: mensajes.editado(titulo),
            fallo: mensajes.noEditado,
            destino: `/manuales/${manual.id}`,
          },
        );
      } else if (archivo) {
        await enviar(
          conSubida(tus, archivo, (id_subida) =>
            subir('POST', '/api/manuales/', { titulo, descripcion, id_area, licencia, visibilidad, extension: 'pdf', id_subida }),
          ),
          { exito: mensajes.agregado(titulo), fallo: mensajes.noSubido, destino: '/manuales/' },
        );
      }
    })(evento);
  };

  const ocupado = isSubmitting || listo;
  return (
    <form
      className="formulario-contenido"
      method="post"
      noValidate
      onSubmit={guardar}
      onFocus={validacion.precargar}
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
          subida={tus}
          ayuda={`Un archivo .pdf de hasta ${limiteMb} MB.`}
          disabled={ocupado}
        />
      )}
      <Campo
        id="titulo"
        etiqueta="Título"
        autoComplete="off"
        defaultValue={inicial.titulo}
        registro={register('titulo')}
        error={errors.titulo?.message}
        disabled={ocupado}
      />
      <Campo id="autor" etiqueta="Autor" value={autor} readOnly />
      <Selector
        id="id_area"
        etiqueta="Área"
        defaultValue={inicial.id_area}
        registro={register('id_area')}
        error={errors.id_area?.message}
        disabled={ocupado}
        vacio="-1"
        opciones={areas}
      />
      <EditorMarkdown
        id="descripcion-manual"
        etiqueta="Descripción"
        {...campoPropio(form, 'descripcion')}
        maxLength={1000}
        filas={7}
        error={errors.descripcion?.message}
        disabled={ocupado}
      />
      <CamposPublicacion register={register} trigger={trigger} inicial={publicacion} errores={errors} />
      <PieSubida
        hidratado={hidratado}
        ocupado={ocupado}
        enviando={isSubmitting}
        cancelar={manual ? `/manuales/${manual.id}` : '/manuales/'}
        progreso={progreso}
        texto={(p) => (editando ? 'Subiendo cambios' : `Subiendo manual… ${p}%`)}
        conArchivo={!editando}
      />
    </form>
  );
}
