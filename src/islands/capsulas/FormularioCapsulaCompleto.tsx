/**
 * The capsule upload and edit form (docs/SPEC.md sections 2, 5, 7 and 8). Upload (admins only): one
 * video in the drop zone, title, read-only author, area, active methodology, level and the
 * description; the percentage sent shows while the video travels, and success goes to /capsulas/
 * (where the new capsule waits in 'Capsulas procesando'). Optional captions (issue 20): a .vtt
 * or .srt file and its language, sent once the capsule exists; if the server refuses them the
 * capsule stays uploaded, the toast says so and the person lands on its edit page to try again
 * (sending the form twice would upload the video twice). Edit: the same fields without the video
 * (captions have their own section there); success goes back to the capsule. A failure keeps
 * everything written, says so in a toast and puts the server's messages under their fields.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatearTamano } from '../../lib/format';
import { notificar } from '../../lib/stores/notifications';
import { validarArchivoVideo } from '../../lib/validation/archivos';
import type { CapsulaInput, capsulaSchema } from '../../lib/validation/capsulas';
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
import { CamposSubtitulo, useSubtitulo } from './CamposSubtitulo';
import { enviarSubtitulo, type OpcionIdioma } from './subtitulos';

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
  /** The captions' languages, Español first (upload only). */
  idiomas?: OpcionIdioma[];
  /** The licence and visibility the form starts with: the capsule's, or on upload the network's default and 'red' (issue 34). */
  publicacion: { licencia: string; visibilidad: string };
  /** Editing: the capsule as it is. */
  capsula?: { id: number; titulo: string; descripcion: string; id_area: number; id_metodologia: number; id_nivel: string };
}

/** The drop zone's accept attribute: the types of docs/SPEC.md section 9 and their extensions. */
const ACEPTA_VIDEO = 'video/mp4,video/x-msvideo,video/mpeg,video/quicktime,.mp4,.avi,.mpeg,.mpg,.mov';

const mensajes = MENSAJES.capsula;

const CAMPOS = ['titulo', 'id_area', 'id_metodologia', 'id_nivel', 'descripcion', 'licencia', 'visibilidad'] as const;

const validacion = validacionDiferida<z.input<typeof capsulaSchema>, CapsulaInput>(() => import('./resolvers').then((m) => m.capsula));

/** The toast when the capsule went up and its captions did not. */
const subtitulosRechazados = (titulo: string, motivo: string | undefined) =>
  [`La cápsula ${titulo} se subió, pero sus subtítulos no se guardaron.`, motivo, 'Puedes agregarlos en esta página.']
    .filter(Boolean)
    .join(' ');

export default function FormularioCapsula({
  areas,
  metodologias,
  niveles,
  autor,
  limiteMb,
  idiomas = [],
  capsula,
  publicacion,
}: FormularioCapsulaProps) {
  const hidratado = useHidratado();
  const editando = capsula !== undefined;
  const inicial = {
    titulo: capsula?.titulo ?? '',
    id_area: String(capsula?.id_area ?? -1),
    id_metodologia: String(capsula?.id_metodologia ?? -1),
    id_nivel: capsula?.id_nivel ?? '-1',
    descripcion: capsula?.descripcion ?? '',
    ...(publicacion as Pick<z.input<typeof capsulaSchema>, 'licencia' | 'visibilidad'>),
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
    trigger,
    formState: { errors, isSubmitting },
  } = form;
  const limite = formatearTamano(limiteMb * 1024 * 1024);
  const tus = useSubidaReanudable('capsula', useUsuarioActivo()?.id);
  const video = useArchivo((elegido) => {
    const error = validarArchivoVideo(elegido);
    if (error) return error;
    if (elegido && elegido.size > limiteMb * 1024 * 1024) return `El archivo supera el tamaño máximo permitido (${limite})`;
    return undefined;
  }, tus);
  const { progreso, listo, enviar } = useSubida(setError, CAMPOS, video.ponerError);
  const subtitulo = useSubtitulo(idiomas);
  // The capsule was created and its captions refused: the page is leaving for its edit page.
  const [saliendo, setSaliendo] = useState(false);
  // A captions file refused before sending: its field takes focus once the form is enabled again.
  const [enfocarSubtitulo, setEnfocarSubtitulo] = useState(false);

  // Leaving the page while the video travels would stop it and lose the fields written (the video
  // itself continues when the same file is picked again): the browser asks first.
  const subiendo = (progreso !== null || tus.estado?.fase === 'subiendo') && !editando && !listo;
  useEffect(() => {
    if (!subiendo) return;
    const avisar = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', avisar);
    return () => window.removeEventListener('beforeunload', avisar);
  }, [subiendo]);

  const guardar = (evento: FormEvent<HTMLFormElement>) => {
    // The video is checked with the fields, so every message shows at once.
    const archivo = editando ? null : video.valido();
    const revisionSubtitulo = editando ? Promise.resolve(null) : subtitulo.revisar(true);
    return handleSubmit(async (valores) => {
      if (capsula) {
        await enviar((onProgreso) => subir('PUT', '/api/capsulas/', { ...valores, id: capsula.id }, onProgreso), {
          exito: mensajes.editado(valores.titulo),
          fallo: mensajes.noEditado,
          destino: `/capsulas/${capsula.id}`,
        });
      } else if (archivo) {
        const elegidos = await revisionSubtitulo;
        if (elegidos === false) {
          setEnfocarSubtitulo(true);
          return;
        }
        const extension = archivo.name.split('.').pop()?.toLowerCase() ?? '';
        let creada: number | undefined;
        const crear = conSubida(tus, archivo, async (id_subida) => {
          const respuesta = await subir('POST', '/api/capsulas/', { ...valores, extension, id_subida });
          if (respuesta.ok) creada = respuesta.data.id;
          return respuesta;
        });
        const crearConSubtitulos: typeof crear = async (onProgreso) => {
          const respuesta = await crear(onProgreso);
          if (!respuesta.ok || !elegidos || creada === undefined) return respuesta;
          const enviado = await enviarSubtitulo(creada, elegidos.idioma, elegidos.archivo);
          if (enviado.ok) return respuesta;
          setSaliendo(true);
          notificar(subtitulosRechazados(valores.titulo, enviado.errores.archivo ?? enviado.errores.idioma), 'error');
          window.location.assign(`/capsulas/editar/${creada}?subtitulos=rechazados`);
          return { ok: false, cancelada: true };
        };
        await enviar(crearConSubtitulos, {
          exito: mensajes.agregado(valores.titulo),
          fallo: mensajes.noSubido,
          destino: '/capsulas/',
        });
      }
    })(evento);
  };

  const ocupado = isSubmitting || listo || saliendo;
  useEffect(() => {
    if (!enfocarSubtitulo || ocupado) return;
    document.getElementById('subtitulo-archivo')?.focus();
    setEnfocarSubtitulo(false);
  }, [enfocarSubtitulo, ocupado]);
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
          subida={tus}
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
      {!editando && (
        <fieldset className="subtitulos-subida">
          <legend>Subtítulos (opcional)</legend>
          <p className="ayuda-campo">
            Para quien ve la cápsula sin sonido o no escucha bien. Puedes agregarlos o cambiarlos después, al editarla.
          </p>
          <CamposSubtitulo
            id="subtitulo"
            idiomas={idiomas}
            idioma={subtitulo.idioma}
            onIdioma={subtitulo.elegirIdioma}
            onArchivo={subtitulo.elegirArchivo}
            errores={subtitulo.errores}
            disabled={ocupado}
          />
        </fieldset>
      )}
      <CamposPublicacion register={register} trigger={trigger} inicial={publicacion} errores={errors} />
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
