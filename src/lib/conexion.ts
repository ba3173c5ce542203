/**
 * Whether the person asked to save data or the connection is slow, from the Network Information
 * API (Chromium, Android; missing elsewhere, where the answer is no). Then the data saver is on:
 * the capsule player preloads nothing and stays at or below 360p, the list cards take their
 * smallest pictures (reproductor.ts, TarjetaContenido.astro). Shared by the server, which reads the
 * request's hints, and the islands, which read the browser's (src/islands/capsulas/conexion.ts).
 */

/** The part of navigator.connection we read. */
export interface Conexion {
  saveData?: boolean;
  effectiveType?: string;
  /** Estimated downlink, in Mbps. */
  downlink?: number;
}

/**
 * Below this estimated downlink (Mbps) the person decides when to spend the data. The low rung
 * needs about 0.3 Mbps; a 1.6 Mbps link still starts the video on its own.
 */
const MBPS_LENTA = 1;

export function conexionAhorro(conexion: Conexion | undefined): boolean {
  if (!conexion) return false;
  if (conexion.saveData) return true;
  if (conexion.effectiveType && ['slow-2g', '2g', '3g'].includes(conexion.effectiveType)) return true;
  return typeof conexion.downlink === 'number' && conexion.downlink > 0 && conexion.downlink < MBPS_LENTA;
}

/**
 * The same from a request's headers: `Save-Data: on`, and the ECT and Downlink client hints, which
 * Chromium sends once the site asked for them (`Accept-CH`, see src/pages/capsulas/[id].astro).
 */
export function pedidoAhorro(cabeceras: Pick<Headers, 'get'>): boolean {
  const downlink = Number.parseFloat(cabeceras.get('downlink') ?? '');
  return conexionAhorro({
    saveData: cabeceras.get('save-data')?.trim().toLowerCase() === 'on',
    effectiveType: cabeceras.get('ect')?.trim().toLowerCase(),
    downlink: Number.isFinite(downlink) ? downlink : undefined,
  });
}
