/**
 * The capsule upload and edit form (SPEC.md sections 2, 5, 7 and 8). Upload (admins only): one
 * video in the drop zone, title, read-only author, area, active methodology, level and the
 * description; the percentage sent shows while the video travels, and success goes to /capsulas/
 * (where the new capsule waits in 'Capsulas procesando'). Edit: the same fields without the
 * video; success goes back to the capsule. A failure keeps everything written, says so in a toast
 * and puts the server's messages under their fields.
 */
import { type FormEvent, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatearTamano } from '../../lib/format';
import { validarArchivoVideo } from '../../lib/validation/archivos';
import type { CapsulaInput, capsulaSchema } from '../../lib/validation/capsulas';
import { Campo, Selector, useHidratado } from '../comun/Campo';
import { campoPropio } from '../comun/campoPropio';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { useArchivo, useSubida } from '../comun/formularioSubida';
import { MENSAJES } from '../comun/mensajes';
import { PieSubida } from '../comun/PieSubida';
import { subir } from '../comun/subida';
import { validacionDiferida } from '../comun/validacion';
import { ZonaArchivo } from '../comun/ZonaArchivo';

interface Opcion {
  id: number;
  nombre: string;
}

export interface FormularioCapsulaProps {
  areas: Opcion[];
  metodologias: Opcion[];
  /** Levels grouped by cycle, in curriculum order. */
  niveles: [string, { codigo: string; nombre: string }[]][];
  /** The read-only author: the current user's first name and paternal surname, or the capsule's. */
  autor: string;
  /** The server's video limit (MAX_VIDEO_MB), checked before sending and told in the hint. */
  limiteMb: number;
  /** Editing: the capsule as it is. */
  capsula?: { id: number; titulo: string; descripcion: string; id_area: number; id_metodologia: number; id_nivel: string };
}

/** The drop zone's accept attribute: the types of SPEC.md section 9 and their extensions. */
const ACEPTA_VIDEO = 'video/mp4,video/x-msvideo,video/mpeg,video/quicktime,.mp4,.avi,.mpeg,.mpg,.mov';

const mensajes = MENSAJES.capsula;

const CAMPOS = ['titulo', 'id_area', 'id_metodologia', 'id_nivel', 'descripcion'] as const;

const validacion = validacionDiferida<z.input<typeof capsulaSchema>, CapsulaInput>(() => import('./resolvers').then((m) => m.capsula));

export default function FormularioCapsula({ areas, metodologias, niveles, autor, limiteMb, capsula }: FormularioCapsulaProps) {
  const hidratado = useHidratado();
  const editando = capsula !== undefined;
  const inicial = {
    titulo: capsula?.titulo ?? '',
    id_area: String(capsula?.id_area ?? -1),
    id_metodologia: String(capsula?.id_metodologia ?? -1),
    id_nivel: capsula?.id_nivel ?? '-1',
    descripcion: capsula?.descripcion ?? '',
  };
  const form = useForm<z.input<typeof capsulaSchema>, unknown, CapsulaInput>({
    resolver: validacion.resolver,
    mode: 'onTouched',
    defaultValues: inicial,
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;
  const limite = formatearTamano(limiteMb * 1024 * 1024);
  const video = useArchivo((elegido) => {
    const error = validarArchivoVideo(elegido);
    if (error) return error;
    if (elegido && elegido.size > limiteMb * 1024 * 1024) return `El archivo supera el tamaño máximo permitido (${limite})`;
    return undefined;
  });
  const { progreso, listo, enviar } = useSubida(setError, CAMPOS, video.ponerError);

  // Leaving the page while the video travels would throw the upload away: the browser asks first.
  const subiendo = progreso !== null && !editando && !listo;
  useEffect(() => {
    if (!subiendo) return;
    const avisar = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', avisar);
    return () => window.removeEventListener('beforeunload', avisar);
  }, [subiendo]);

  const guardar = (evento: FormEvent<HTMLFormElement>) => {
    // The video is checked with the fields, so every message shows at once.
    const archivo = editando ? null : video.valido();
    return handleSubmit(async (valores) => {
      if (capsula) {
        await enviar((onProgreso) => subir('PUT', '/api/capsulas/', { ...valores, id: capsula.id }, onProgreso), {
          exito: mensajes.editado(valores.titulo),
          fallo: mensajes.noEditado,
          destino: `/capsulas/${capsula.id}`,
        });
      } else if (archivo) {
        const extension = archivo.name.split('.').pop()?.toLowerCase() ?? '';
        await enviar((onProgreso) => subir('POST', '/api/capsulas/', { ...valores, extension, archivo }, onProgreso), {
          exito: mensajes.agregado(valores.titulo),
          fallo: mensajes.noSubido,
          destino: '/capsulas/',
        });
      }
    })(evento);
  };

  const ocupado = isSubmitting || listo;
  // Once the video is sent, the server still checks it (type, duration) before answering.
  const textoEnvio = (p: number) => {
    if (editando) return 'Guardando cambios…';
    return p < 100 ? `Subiendo cápsula… ${p}%` : 'Subiendo cápsula… 100%. Revisando el video en el servidor…';
  };
  return (
    <form
      className="formulario-contenido"
      method="post"
      noValidate
      onSubmit={guardar}
      onFocus={validacion.precargar}
      aria-busy={ocupado || undefined}
      aria-label={editando ? 'Editar cápsula' : 'Subir cápsula'}
    >
      {!editando && (
        <ZonaArchivo
          id="archivo"
          etiqueta="Video"
          accept={ACEPTA_VIDEO}
          archivo={video.archivo}
          onArchivo={video.elegir}
          error={video.error}
          ayuda={`Un video .mp4, .avi, .mpeg o .mov de hasta ${limite}. Se prepara para verse en conexiones lentas después de subirlo.`}
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
      <div className="fila">
        <div>
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
        </div>
        <div>
          <Selector
            id="id_metodologia"
            etiqueta="Metodología activa"
            defaultValue={inicial.id_metodologia}
            registro={register('id_metodologia')}
            error={errors.id_metodologia?.message}
            disabled={ocupado}
            vacio="-1"
            opciones={metodologias}
          />
        </div>
        <div>
          <Selector
            id="id_nivel"
            etiqueta="Nivel"
            defaultValue={inicial.id_nivel}
            registro={register('id_nivel')}
            error={errors.id_nivel?.message}
            disabled={ocupado}
          >
            <option value="-1">Seleccionar</option>
            {niveles.map(([ciclo, grupo]) => (
              <optgroup key={ciclo} label={ciclo}>
                {grupo.map((n) => (
                  <option key={n.codigo} value={n.codigo}>
                    {n.nombre}
                  </option>
                ))}
              </optgroup>
            ))}
          </Selector>
        </div>
      </div>
      <EditorMarkdown
        id="descripcion"
        etiqueta="Descripción"
        {...campoPropio(form, 'descripcion')}
        maxLength={1000}
        filas={7}
        error={errors.descripcion?.message}
        ayuda="Cuenta de qué trata la cápsula y cómo usarla en clases."
        disabled={ocupado}
      />
      <PieSubida
        hidratado={hidratado}
        ocupado={ocupado}
        enviando={isSubmitting}
        cancelar={capsula ? `/capsulas/${capsula.id}` : '/capsulas/'}
        progreso={progreso}
        texto={textoEnvio}
        conArchivo={!editando}
      />
    </form>
  );
}
