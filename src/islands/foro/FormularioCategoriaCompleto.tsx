/**
 * Create and edit a forum category (docs/SPEC.md sections 2, 4, 5 and 8; admins only, the page checks
 * and the server refuses others): name, description, Activa (Si/No, default No) and the image,
 * a JPEG or PNG, required to create and optional to edit. The browser checks the image's type and
 * size before sending; the server reads its bytes again. The image goes up with tus first (issue
 * 18: it survives a dropped connection), then the form names it by `id_subida`.
 */
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { notificar } from '../../lib/stores/notifications';
import { validarImagenCategoria } from '../../lib/validation/archivos';
import type { CategoriaEdicionInput, categoriaSchema } from '../../lib/validation/foro';
import { AreaTexto, Ayuda, Campo, descripcion, Mensaje, Selector, useHidratado } from '../comun/Campo';
import { errorDelArchivo, ponerErroresDelServidor } from '../comun/formularioSubida';
import { subirImagen } from '../comun/reanudable';
import { validacionDiferida } from '../comun/validacion';
import { crearCategoria, editarCategoria } from './api-categoria';

/** Creating asks for the description; editing may leave it empty. */
const validacionCrear = validacionDiferida(() => import('./resolvers').then((m) => m.categoria));
const validacionEditar = validacionDiferida(() => import('./resolvers').then((m) => m.categoriaEdicion));

export interface FormularioCategoriaProps {
  /** The category being edited; absent to create one. */
  categoria?: { id: number; nombre: string; descripcion: string; activa: boolean; archivo: string };
  /** The server's image limit (MAX_IMAGEN_MB). */
  limiteMb: number;
}

export default function FormularioCategoria({ categoria, limiteMb }: FormularioCategoriaProps) {
  const hidratado = useHidratado();
  const editando = categoria !== undefined;
  const [imagen, setImagen] = useState<File | null>(null);
  const [vista, setVista] = useState<string | null>(null);
  const [errorImagen, setErrorImagen] = useState<string | undefined>();
  const [guardada, setGuardada] = useState(false);
  const validacion = editando ? validacionEditar : validacionCrear;
  const inicial = {
    nombre: categoria?.nombre ?? '',
    descripcion: categoria?.descripcion ?? '',
    activa: categoria?.activa ? 'true' : 'false',
  };
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof categoriaSchema>, unknown, CategoriaEdicionInput>({
    resolver: validacion.resolver,
    mode: 'onTouched',
    defaultValues: inicial,
  });

  useEffect(() => () => void (vista && URL.revokeObjectURL(vista)), [vista]);

  function revisarImagen(archivo: File | null): string | undefined {
    if (archivo && archivo.size > limiteMb * 1024 * 1024) return `El archivo supera el tamaño máximo permitido (${limiteMb} MB)`;
    return validarImagenCategoria(archivo, !editando) ?? undefined;
  }

  function elegirImagen(event: ChangeEvent<HTMLInputElement>) {
    const archivo = event.target.files?.[0] ?? null;
    setImagen(archivo);
    const mensaje = revisarImagen(archivo);
    setErrorImagen(mensaje);
    setVista(archivo && !mensaje ? URL.createObjectURL(archivo) : null);
  }

  const guardar = (evento: FormEvent<HTMLFormElement>) => {
    // The image is checked with the fields, so every message shows at once.
    const mensajeImagen = revisarImagen(imagen);
    setErrorImagen(mensajeImagen);
    return handleSubmit(async (valores) => {
      if (mensajeImagen) return;
      const fallo = editando ? 'No se pudo editar la categoria' : 'No se pudo crear la categoria';
      const subida = imagen ? await subirImagen(imagen, 'categoria') : undefined;
      if (subida && !subida.ok) {
        if ('mensaje' in subida) setErrorImagen(subida.mensaje);
        notificar(fallo, 'error');
        return;
      }
      const datos = { ...valores, descripcion: valores.descripcion ?? '', id_subida: subida?.id };
      const resultado = categoria ? await editarCategoria(categoria.id, datos) : await crearCategoria(datos);
      if (resultado.ok) {
        setGuardada(true);
        notificar(editando ? `Categoria ${datos.nombre} editada exitosamente!` : `Categoria ${datos.nombre} creada exitosamente!`, 'exito');
        window.location.assign('/foro/?modo=editar');
        return;
      }
      ponerErroresDelServidor(setError, ['nombre', 'descripcion'], resultado.errors);
      const archivo = errorDelArchivo(resultado.status, resultado);
      if (archivo) setErrorImagen(archivo);
      notificar(fallo, 'error');
    })(evento);
  };

  const actual = vista ?? categoria?.archivo;
  const ayudaImagen = `Una imagen JPG o PNG de hasta ${limiteMb} MB; se muestra recortada en formato 16:9.`;
  return (
    <form
      method="post"
      noValidate
      onSubmit={guardar}
      onFocus={validacion.precargar}
      aria-label={editando ? 'Editar categoría' : 'Crear categoria'}
    >
      <Campo
        id="nombre"
        etiqueta="Nombre"
        autoComplete="off"
        defaultValue={inicial.nombre}
        registro={register('nombre')}
        error={errors.nombre?.message}
      />
      <AreaTexto
        id="descripcion"
        etiqueta="Descripción"
        rows={5}
        defaultValue={inicial.descripcion}
        registro={register('descripcion')}
        error={errors.descripcion?.message}
      />
      <Selector
        id="activa"
        etiqueta="Activa"
        ayuda="Solo las categorías activas se muestran a los docentes."
        defaultValue={inicial.activa}
        registro={register('activa')}
        error={errors.activa?.message}
      >
        <option value="true">Si</option>
        <option value="false">No</option>
      </Selector>
      <label htmlFor="archivo">{editando ? 'Imagen (opcional, reemplaza la actual)' : 'Imagen'}</label>
      <input
        id="archivo"
        name="archivo"
        type="file"
        accept="image/png,image/jpeg"
        onChange={elegirImagen}
        {...descripcion({ id: 'archivo', error: errorImagen, ayuda: ayudaImagen })}
      />
      <Mensaje id="archivo" error={errorImagen} className="error-campo" />
      <Ayuda id="archivo" ayuda={ayudaImagen} />
      {actual && <img className="vista-imagen" src={actual} alt="Vista previa de la imagen de la categoría" width="320" height="180" />}
      <div className="acciones">
        <button type="submit" disabled={!hidratado || isSubmitting || guardada} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? 'Guardando...' : 'Guardar'}
        </button>
        <a className="boton secundario" href="/foro/?modo=editar">
          Cancelar
        </a>
      </div>
    </form>
  );
}
