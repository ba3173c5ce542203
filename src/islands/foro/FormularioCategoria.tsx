/**
 * Create and edit a forum category (SPEC.md sections 2, 4, 5 and 8; admins only, the page checks
 * and the server refuses others): name, description, Activa (Si/No, default No) and the image,
 * a JPEG or PNG, required to create and optional to edit. The browser checks the image's type and
 * size before sending; the server reads its bytes again.
 */
import { type ChangeEvent, useEffect, useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { validarImagenCategoria } from '../../lib/validation/archivos';
import { AreaTexto, Ayuda, Campo, descripcion, Mensaje, Selector, useHidratado } from '../comun/Campo';
import { useFormulario } from '../comun/formulario';
import { crearCategoria, editarCategoria } from './api-categoria';

const reglas = () => import('./reglas');

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
  const form = useFormulario({
    campos: ['nombre', 'descripcion', 'activa'],
    inicial: {
      nombre: categoria?.nombre ?? '',
      descripcion: categoria?.descripcion ?? '',
      activa: categoria?.activa ? 'true' : 'false',
    },
    esquema: () => reglas().then((m) => (editando ? m.categoriaEdicionSchema : m.categoriaSchema)),
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

  const imagenValida = async () => {
    const mensaje = revisarImagen(imagen);
    setErrorImagen(mensaje);
    return mensaje === undefined;
  };

  const guardar = form.enviar(async (valores) => {
    const datos = {
      nombre: valores.nombre.trim(),
      descripcion: valores.descripcion.trim(),
      activa: valores.activa === 'true',
      archivo: imagen ?? undefined,
    };
    const resultado = categoria ? await editarCategoria(categoria.id, datos) : await crearCategoria(datos);
    if (resultado.ok) {
      setGuardada(true);
      notificar(`Categoria ${datos.nombre} ${editando ? 'editada' : 'creada'} exitosamente!`, 'exito');
      window.location.assign('/foro/?modo=editar');
      return;
    }
    form.ponerErrores({ nombre: resultado.errors?.nombre?.[0], descripcion: resultado.errors?.descripcion?.[0] });
    const archivo = resultado.errors?.archivo?.[0] ?? (resultado.status === 413 ? resultado.detail : undefined);
    if (archivo) setErrorImagen(archivo);
    notificar(editando ? 'No se pudo editar la categoria' : 'No se pudo crear la categoria', 'error');
  }, imagenValida);

  const actual = vista ?? categoria?.archivo;
  const ayudaImagen = `Una imagen JPG o PNG de hasta ${limiteMb} MB; se muestra recortada en formato 16:9.`;
  return (
    <form
      method="post"
      noValidate
      onSubmit={guardar}
      onFocus={form.precargar}
      aria-label={editando ? 'Editar categoria' : 'Crear categoria'}
    >
      <Campo id="nombre" etiqueta="Nombre" autoComplete="off" {...form.campo('nombre')} />
      <AreaTexto id="descripcion" etiqueta="Descripción" rows={5} {...form.campo('descripcion')} />
      <Selector
        id="activa"
        etiqueta="Activa"
        ayuda="Solo las categorías activas se muestran a los docentes."
        value={form.valores.activa}
        onChange={(e) => form.cambiar('activa', e.target.value)}
        error={form.errores.activa}
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
        <button type="submit" disabled={!hidratado || form.enviando || guardada} aria-busy={form.enviando || undefined}>
          {form.enviando ? 'Guardando...' : 'Guardar'}
        </button>
        <a className="boton secundario" href="/foro/?modo=editar">
          Cancelar
        </a>
      </div>
    </form>
  );
}
