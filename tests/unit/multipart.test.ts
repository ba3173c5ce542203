import { describe, expect, it } from 'vitest';
import { multipart } from '../../src/islands/comun/multipart';

describe('multipart', () => {
  it('sends one part per value of a list, leaves out undefined values and puts the files last', () => {
    const archivo = new File(['%PDF-1.4'], 'guia.pdf', { type: 'application/pdf' });
    const datos = multipart({ archivo, titulo: 'Guía', oas: [3, 7], activa: false, id_area: 2, extension: undefined });

    expect([...datos.keys()]).toEqual(['titulo', 'oas', 'oas', 'activa', 'id_area', 'archivo']);
    expect(datos.getAll('oas')).toEqual(['3', '7']);
    expect(datos.get('activa')).toBe('false');
    const enviado = datos.get('archivo');
    expect(enviado).toBeInstanceOf(File);
    expect(enviado instanceof File && enviado.name).toBe('guia.pdf');
  });
});
