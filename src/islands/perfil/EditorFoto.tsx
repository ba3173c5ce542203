/**
 * 'Foto de perfil' (docs/SPEC.md sections 2, 4, 5, 8 and 9): the photo, and the modal that changes it.
 * Choosing an image starts the crop editor (its own chunk, loaded when the modal opens); only
 * image files are taken, others are ignored. The 200x200 crop is sent; the server checks and
 * resizes it. The new photo shows at once here and in the top bar.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { useHidratado } from '../comun/Campo';
import { Modal } from '../comun/Modal';

const cargarRecorte = () => import('./Recorte');
const Recorte = lazy(cargarRecorte);

type Recortado = { area: { x: number; y: number; width: number; height: number }; rotacion: number };

export interface EditorFotoProps {
  idUsuario: number;
  /** The photo URL, or '' for none. */
  foto: string;
  /** Initials for the placeholder. */
  iniciales: string;
}

export default function EditorFoto({ idUsuario, foto: inicial, iniciales }: EditorFotoProps) {
  const hidratado = useHidratado();
  const [foto, setFoto] = useState(inicial);
  const [abierto, setAbierto] = useState(false);
  const [imagen, setImagen] = useState<string | null>(null);
  const [aviso, setAviso] = useState<string | null>(null);
  const [arrastrando, setArrastrando] = useState(false);
  const [guardando, setGuardando] = useState(false);
  const [recorte, setRecorte] = useState<Recortado | null>(null);

  // The object URL of the chosen file lives as long as it is shown.
  useEffect(
    () => () => {
      if (imagen) URL.revokeObjectURL(imagen);
    },
    [imagen],
  );

  const abrir = () => {
    void cargarRecorte().catch(() => undefined);
    setImagen(null);
    setAviso(null);
    setRecorte(null);
    setAbierto(true);
  };
  const cerrar = () => {
    setAbierto(false);
    setImagen(null);
  };

  const elegir = (archivo: File | undefined) => {
    if (!archivo) return;
    // docs/SPEC.md section 5: only image files are accepted; anything else is ignored.
    if (!archivo.type.startsWith('image/')) {
      setAviso('Elige un archivo de imagen (JPG, PNG o WebP).');
      return;
    }
    setAviso(null);
    setRecorte(null);
    setImagen(URL.createObjectURL(archivo));
  };

  const guardar = async () => {
    if (!imagen || !recorte) return;
    setGuardando(true);
    try {
      const [{ recortar }, { subirFoto, mostrarFotoNueva }] = await Promise.all([cargarRecorte(), import('./perfil')]);
      const r = await subirFoto(idUsuario, await recortar(imagen, recorte.area, recorte.rotacion));
      if (!r.ok) throw new Error('upload refused');
      setFoto(r.data.foto_perfil);
      mostrarFotoNueva(r.data.foto_perfil);
      cerrar();
      notificar('Tu foto de perfil se actualizo correctamente!', 'exito');
    } catch {
      notificar('Tu foto de perfil no se pudo actualizar :(', 'error');
    } finally {
      setGuardando(false);
    }
  };

  return (
    <>
      <div className="foto-actual">
        {foto ? (
          <img src={foto} alt="Tu foto de perfil" width={160} height={160} />
        ) : (
          <span className="avatar-grande" role="img" aria-label="Sin foto de perfil">
            {iniciales}
          </span>
        )}
        <button type="button" className="secundario" disabled={!hidratado} onClick={abrir}>
          Cambiar foto
        </button>
      </div>
      <Modal abierto={abierto} titulo="Editar foto de perfil" onCerrar={cerrar} ancho>
        {imagen ? (
          <Suspense fallback={<p aria-busy="true">Cargando editor…</p>}>
            <Recorte
              imagen={imagen}
              onCambio={setRecorte}
              onError={() => {
                setImagen(null);
                setAviso('No se pudo abrir la imagen. Prueba con una foto JPG o PNG.');
              }}
            />
          </Suspense>
        ) : (
          <label
            className={arrastrando ? 'zona-foto arrastrando' : 'zona-foto'}
            onDragOver={(e) => {
              e.preventDefault();
              setArrastrando(true);
            }}
            onDragLeave={() => setArrastrando(false)}
            onDrop={(e) => {
              e.preventDefault();
              setArrastrando(false);
              elegir(e.dataTransfer.files[0]);
            }}
          >
            <strong>Elige una imagen</strong>
            <span>o arrástrala aquí</span>
            <input
              type="file"
              accept="image/*"
              className="sr-only"
              onChange={(e) => {
                elegir(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
        )}
        {aviso && (
          <p className="alerta" role="alert">
            {aviso}
          </p>
        )}
        <div className="pie-modal">
          {imagen && (
            <button
              type="button"
              className="secundario otra-imagen"
              onClick={() => {
                setImagen(null);
                setRecorte(null);
              }}
            >
              Elegir otra imagen
            </button>
          )}
          <button type="button" className="secundario" onClick={cerrar}>
            Cancelar
          </button>
          <button type="button" disabled={!recorte || guardando} aria-busy={guardando || undefined} onClick={guardar}>
            {guardando ? 'Guardando...' : 'Guardar'}
          </button>
        </div>
      </Modal>
    </>
  );
}
