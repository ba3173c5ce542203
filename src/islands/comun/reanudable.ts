/**
 * The resumable upload of a drop zone (issue 18), as React state: what the zone shows (progress,
 * speed, time left, a dropped connection, Pausar / Reanudar / Cancelar) and the promise the form
 * waits on before it sends `id_subida`. The tus client itself (./tus.ts) loads only when a file
 * goes up or an unfinished upload of this form is offered.
 *
 * A new file goes up when the form is sent, so nothing leaves the browser for a form the person
 * abandons; a file that continues an earlier upload (picked again after a reload) continues at
 * once, since that person already sent it.
 */
import { useEffect, useRef, useState } from 'react';
import type { DestinoSubida } from '../../lib/validation/subidas';
import { cargaUnica } from './carga';
import { esContinuacion, olvidarSubida, recordadas } from './pendientes';
import type { ControlSubida } from './tus';

const cargarTus = cargaUnica(() => import('./tus'));

export type FaseSubida = 'subiendo' | 'pausada' | 'sin-red' | 'terminada' | 'error';

/** What the drop zone shows while a file goes up. */
export interface EstadoSubida {
  fase: FaseSubida;
  enviados: number;
  total: number;
  /** Bytes per second over the last seconds; null until there is enough to tell. */
  velocidad: number | null;
  mensaje?: string;
}

/** An unfinished upload of this form, offered before any file is picked. */
export interface Pendiente {
  nombre: string;
  /** 0 to 100, or null when the server could not be asked. */
  porcentaje: number | null;
  descartar(): void;
}

export type ResultadoTus = { ok: true; id: string } | { ok: false; status: number; mensaje: string } | { ok: false; cancelada: true };

/** How many seconds of progress the speed is measured over: steady, yet quick to follow a change. */
const VENTANA_MS = 5000;

interface Envio {
  archivo: File;
  control: Promise<ControlSubida>;
  resultado: Promise<ResultadoTus>;
  resolver: (r: ResultadoTus) => void;
  muestras: { t: number; bytes: number }[];
  terminado: boolean;
}

function velocidad(muestras: Envio['muestras']): number | null {
  const primera = muestras[0];
  const ultima = muestras.at(-1);
  if (!primera || !ultima || ultima.t - primera.t < 1000) return null;
  return ((ultima.bytes - primera.bytes) * 1000) / (ultima.t - primera.t);
}

/**
 * `usuario`: the signed-in person's id (undefined until the session is read), which keys the
 * remembered uploads. `alProgreso` hears the percentage, for the form's own status line.
 */
export function useSubidaReanudable(destino: DestinoSubida, usuario: number | undefined) {
  const [estado, setEstado] = useState<EstadoSubida | null>(null);
  const [pendiente, setPendiente] = useState<Pendiente | null>(null);
  const envio = useRef<Envio | null>(null);
  const alProgreso = useRef<((porcentaje: number) => void) | undefined>(undefined);

  // Before any file: an unfinished upload of this form, with how far it got on the server.
  useEffect(() => {
    if (usuario === undefined) return;
    const [ultima] = recordadas(usuario, destino);
    if (!ultima) return;
    let vigente = true;
    void cargarTus()
      .then(async (tus) => {
        const offset = await tus.consultarOffset(ultima);
        if (!vigente || offset === null) return;
        const porcentaje = offset && offset.total > 0 ? Math.floor((offset.enviados / offset.total) * 100) : null;
        setPendiente({
          nombre: ultima.nombre,
          porcentaje,
          descartar: () => {
            tus.descartar(ultima);
            setPendiente(null);
          },
        });
      })
      .catch(() => undefined);
    return () => {
      vigente = false;
    };
  }, [usuario, destino]);

  function empezar(archivo: File): Envio {
    let resolver: (r: ResultadoTus) => void = () => undefined;
    const resultado = new Promise<ResultadoTus>((r) => {
      resolver = r;
    });
    const actual: Envio = { archivo, resultado, resolver, muestras: [], terminado: false, control: new Promise(() => undefined) };
    const cerrar = (r: ResultadoTus) => {
      actual.terminado = true;
      actual.resolver(r);
    };
    const esActual = () => envio.current === actual;
    setPendiente(null);
    setEstado({ fase: 'subiendo', enviados: 0, total: archivo.size, velocidad: null });
    actual.control = cargarTus().then((tus) =>
      tus.iniciarSubida(archivo, destino, usuario ?? null, {
        onProgreso(enviados, total) {
          if (!esActual()) return;
          const ahora = performance.now();
          actual.muestras.push({ t: ahora, bytes: enviados });
          while ((actual.muestras[0]?.t ?? ahora) < ahora - VENTANA_MS) actual.muestras.shift();
          setEstado((e) => ({
            fase: e?.fase === 'pausada' ? 'pausada' : 'subiendo',
            enviados,
            total,
            velocidad: velocidad(actual.muestras),
          }));
          alProgreso.current?.(total > 0 ? Math.min(100, Math.floor((enviados / total) * 100)) : 0);
        },
        onRed(sinRed) {
          if (!esActual()) return;
          actual.muestras = [];
          setEstado((e) => e && { ...e, fase: sinRed ? 'sin-red' : 'subiendo', velocidad: null });
        },
        onExito(id) {
          if (!esActual()) return;
          setEstado((e) => ({ fase: 'terminada', enviados: e?.total ?? archivo.size, total: e?.total ?? archivo.size, velocidad: null }));
          cerrar({ ok: true, id });
        },
        onError(status, mensaje) {
          if (!esActual()) return;
          setEstado((e) => e && { ...e, fase: 'error', velocidad: null, mensaje });
          cerrar({ ok: false, status, mensaje });
        },
      }),
    );
    actual.control.catch(() => {
      if (esActual()) setEstado(null);
      cerrar({ ok: false, status: 0, mensaje: 'No se pudo preparar la subida. Revisa tu conexión e inténtalo nuevamente.' });
    });
    envio.current = actual;
    return actual;
  }

  /** Leaves the current upload where it is on the server (still resumable) and shows nothing. */
  function soltar() {
    const actual = envio.current;
    envio.current = null;
    setEstado(null);
    if (actual && !actual.terminado) {
      void actual.control.then((c) => c.pausar()).catch(() => undefined);
      actual.resolver({ ok: false, cancelada: true });
    }
  }

  function pausar() {
    void envio.current?.control.then((c) => c.pausar());
    setEstado((e) => e && { ...e, fase: 'pausada', velocidad: null });
  }

  function reanudar() {
    const actual = envio.current;
    if (!actual) return;
    actual.muestras = [];
    void actual.control.then((c) => c.reanudar());
    setEstado((e) => e && { ...e, fase: 'subiendo' });
  }

  /** Deletes the upload on the server and forgets it; the form waiting on it returns to editing. */
  function cancelar() {
    const actual = envio.current;
    envio.current = null;
    setEstado(null);
    if (!actual) return;
    void actual.control.then((c) => c.cancelar()).catch(() => undefined);
    actual.resolver({ ok: false, cancelada: true });
  }

  /** Uploads `archivo` (or waits for the upload already going): the id to send, or why not. */
  function subir(archivo: File, onProgreso?: (porcentaje: number) => void): Promise<ResultadoTus> {
    alProgreso.current = onProgreso;
    const actual = envio.current;
    if (actual?.archivo === archivo && estado?.fase !== 'error') {
      if (estado?.fase === 'pausada') reanudar();
      if (estado) onProgreso?.(estado.total > 0 ? Math.floor((estado.enviados / estado.total) * 100) : 0);
      return actual.resultado;
    }
    return empezar(archivo).resultado;
  }

  return {
    estado,
    pendiente,
    subir,
    pausar,
    reanudar,
    cancelar,
    /** A file picked or taken out: the same file as an unfinished upload continues at once. */
    elegido(archivo: File | null) {
      if (envio.current?.archivo === archivo) return;
      soltar();
      if (archivo && usuario !== undefined && esContinuacion(usuario, archivo)) empezar(archivo);
    },
    /** The form saved with this upload: the server used it, this browser forgets it. */
    olvidar: olvidarSubida,
    /**
     * The form was refused because of its file (the server may have used and deleted the upload):
     * the next send uploads the file again instead of naming the same upload.
     */
    descartarTerminada() {
      if (!envio.current?.terminado) return;
      envio.current = null;
      setEstado(null);
    },
  };
}

export type SubidaReanudable = ReturnType<typeof useSubidaReanudable>;

/**
 * A small file (an image) sent with tus in one go, without controls and without remembering it
 * (a cropped photo cannot be picked again): the id to send, or why not. It keeps trying while
 * the network is down, like the drop zones.
 */
export async function subirImagen(archivo: Blob, destino: DestinoSubida): Promise<ResultadoTus> {
  const sinPreparar: ResultadoTus = {
    ok: false,
    status: 0,
    mensaje: 'No se pudo preparar la subida. Revisa tu conexión e inténtalo nuevamente.',
  };
  const tus = await cargarTus().catch(() => null);
  if (!tus) return sinPreparar;
  return new Promise((resolve) => {
    tus
      .iniciarSubida(archivo, destino, null, {
        onProgreso: () => undefined,
        onRed: () => undefined,
        onExito: (id) => resolve({ ok: true, id }),
        onError: (status, mensaje) => resolve({ ok: false, status, mensaje }),
      })
      .catch(() => resolve(sinPreparar));
  });
}
