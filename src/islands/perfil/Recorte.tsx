/**
 * The crop editor of the photo modal (docs/SPEC.md sections 4 and 9): a round 200x200 crop, zoom from
 * 1 to 3 and 90-degree turns both ways. It is its own chunk with react-easy-crop, loaded only
 * when the modal opens.
 */
import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';

const LADO = 200;
const ZOOM_MIN = 1;
const ZOOM_MAX = 3;

export interface RecorteProps {
  imagen: string;
  onCambio: (recorte: { area: Area; rotacion: number }) => void;
  onError: () => void;
}

export default function Recorte({ imagen, onCambio, onError }: RecorteProps) {
  const [posicion, setPosicion] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(ZOOM_MIN);
  const [rotacion, setRotacion] = useState(0);

  const girar = (grados: number) => setRotacion((r) => (r + grados + 360) % 360);

  return (
    <div className="recorte">
      <div className="recorte-area">
        <Cropper
          image={imagen}
          crop={posicion}
          zoom={zoom}
          rotation={rotacion}
          aspect={1}
          minZoom={ZOOM_MIN}
          maxZoom={ZOOM_MAX}
          cropShape="round"
          cropSize={{ width: LADO, height: LADO }}
          showGrid={false}
          onCropChange={setPosicion}
          onZoomChange={setZoom}
          onRotationChange={setRotacion}
          onCropComplete={(_, area) => onCambio({ area, rotacion })}
          mediaProps={{ onError }}
          // The library's <style> element would be refused by the pages' Content-Security-Policy;
          // /perfil/editar links its stylesheet instead (decision 0022).
          disableAutomaticStylesInjection
        />
      </div>
      <div className="recorte-controles">
        <label htmlFor="foto-zoom">Zoom</label>
        <input
          id="foto-zoom"
          type="range"
          min={ZOOM_MIN}
          max={ZOOM_MAX}
          step={0.05}
          value={zoom}
          aria-valuetext={`${zoom.toFixed(1)} veces`}
          onChange={(e) => setZoom(Number(e.target.value))}
        />
        <div className="recorte-giros">
          <button type="button" className="secundario" onClick={() => girar(-90)}>
            <span aria-hidden="true">↺</span> Girar a la izquierda
          </button>
          <button type="button" className="secundario" onClick={() => girar(90)}>
            Girar a la derecha <span aria-hidden="true">↻</span>
          </button>
        </div>
      </div>
    </div>
  );
}

function cargarImagen(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image did not load'));
    img.src = src;
  });
}

function comoBlob(canvas: HTMLCanvasElement, tipo: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, tipo, 0.92));
}

/**
 * The crop as a 200x200 image. `area` is in the pixels of the turned image (react-easy-crop's
 * convention), so the image is drawn turned about its centre and shifted to the area: one small
 * canvas, whatever the size of the original photo. WebP where the browser writes it, else JPEG.
 */
export async function recortar(src: string, area: Area, rotacion: number): Promise<Blob> {
  const img = await cargarImagen(src);
  const rad = (rotacion * Math.PI) / 180;
  const ancho = img.naturalWidth;
  const alto = img.naturalHeight;
  const anchoGirado = Math.abs(Math.cos(rad) * ancho) + Math.abs(Math.sin(rad) * alto);
  const altoGirado = Math.abs(Math.sin(rad) * ancho) + Math.abs(Math.cos(rad) * alto);
  const canvas = document.createElement('canvas');
  canvas.width = LADO;
  canvas.height = LADO;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d canvas');
  ctx.imageSmoothingQuality = 'high';
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, LADO, LADO);
  ctx.scale(LADO / area.width, LADO / area.height);
  ctx.translate(-area.x, -area.y);
  ctx.translate(anchoGirado / 2, altoGirado / 2);
  ctx.rotate(rad);
  ctx.drawImage(img, -ancho / 2, -alto / 2);
  const webp = await comoBlob(canvas, 'image/webp');
  if (webp?.type === 'image/webp') return webp;
  const jpeg = await comoBlob(canvas, 'image/jpeg');
  if (!jpeg) throw new Error('canvas gave no image');
  return jpeg;
}
