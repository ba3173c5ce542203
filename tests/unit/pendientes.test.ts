import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { porcentaje, tiempoRestante } from '../../src/islands/comun/ProgresoSubida';
import { esContinuacion, huella, olvidarSubida, recordadas } from '../../src/islands/comun/pendientes';

/** localStorage as the browser has it, for the node test environment. */
function almacen(): Storage {
  const datos = new Map<string, string>();
  return {
    get length() {
      return datos.size;
    },
    key: (i) => [...datos.keys()][i] ?? null,
    getItem: (k) => datos.get(k) ?? null,
    setItem: (k, v) => void datos.set(k, String(v)),
    removeItem: (k) => void datos.delete(k),
    clear: () => datos.clear(),
  };
}

const video = new File(['x'.repeat(10)], 'clase.mp4', { type: 'video/mp4', lastModified: 1_700_000_000_000 });

/** An entry as tus-js-client writes it. */
function guardar(usuario: number, archivo: File, destino: string, id: string, creada = new Date()) {
  localStorage.setItem(
    `tus::${huella(usuario, archivo)}::${Math.round(Math.random() * 1e12)}`,
    JSON.stringify({
      size: archivo.size,
      metadata: { filename: archivo.name, filetype: archivo.type, destino },
      creationTime: creada.toString(),
      uploadUrl: `http://localhost:4321/api/subidas/${id}`,
    }),
  );
}

beforeEach(() => vi.stubGlobal('localStorage', almacen()));
afterEach(() => vi.unstubAllGlobals());

describe('remembered uploads', () => {
  it("offers only the person's own unfinished uploads of the same form, newest first", () => {
    guardar(7, video, 'capsula', 'a'.repeat(32), new Date(Date.now() - 60_000));
    guardar(7, new File(['y'], 'otra.mp4', { type: 'video/mp4' }), 'capsula', 'b'.repeat(32));
    guardar(7, video, 'manual', 'c'.repeat(32));
    guardar(8, video, 'capsula', 'd'.repeat(32));

    expect(recordadas(7, 'capsula').map((r) => [r.nombre, r.url.slice(-1)])).toEqual([
      ['otra.mp4', 'b'],
      ['clase.mp4', 'a'],
    ]);
    expect(esContinuacion(7, video)).toBe(true);
    expect(esContinuacion(9, video)).toBe(false);
  });

  it('drops entries older than the server keeps an unfinished upload (24 h)', () => {
    guardar(7, video, 'capsula', 'a'.repeat(32), new Date(Date.now() - 25 * 3600_000));
    expect(recordadas(7, 'capsula')).toEqual([]);
    expect(localStorage.length).toBe(0);
  });

  it('forgets an upload by its id once its form is saved', () => {
    guardar(7, video, 'capsula', 'a'.repeat(32));
    olvidarSubida('a'.repeat(32));
    expect(esContinuacion(7, video)).toBe(false);
  });
});

describe('the drop zone figures', () => {
  it('says the percentage with Spanish spacing and the time left in s, min or h', () => {
    expect(porcentaje(63, 100)).toBe('63 %');
    expect(porcentaje(0, 0)).toBe('0 %');
    expect(tiempoRestante(40)).toBe('quedan 40 s');
    expect(tiempoRestante(0.2)).toBe('quedan 1 s');
    expect(tiempoRestante(150)).toBe('quedan 3 min');
    expect(tiempoRestante(3900)).toBe('quedan 1 h 5 min');
  });
});
