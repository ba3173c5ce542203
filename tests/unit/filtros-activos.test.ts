/** The words of a list's active filters in the phone's 'Filtros' line (issue 33). */
import { describe, expect, it } from 'vitest';
import { filtrosActivos, nombreElegido } from '../../src/pages/_componentes/filtros.ts';

const AREAS = [
  { id: 1, nombre: 'Matemática' },
  { id: 2, nombre: 'Historia' },
];

describe('filtrosActivos', () => {
  it('quotes the searched text, then names each chosen option in order', () => {
    expect(filtrosActivos(' fracciones ', ['Matemática', undefined, '1° medio'])).toEqual(['«fracciones»', 'Matemática', '1° medio']);
  });

  it('says nothing of an empty search or options not chosen', () => {
    expect(filtrosActivos('   ', [undefined, ''])).toEqual([]);
    expect(filtrosActivos(undefined, [])).toEqual([]);
  });
});

describe('nombreElegido', () => {
  it('names the chosen option, and nothing when none is chosen or the value is not an option', () => {
    expect(nombreElegido(AREAS, (a) => a.id, 2)).toBe('Historia');
    expect(nombreElegido(AREAS, (a) => a.id, undefined)).toBeUndefined();
    expect(nombreElegido(AREAS, (a) => a.id, 9)).toBeUndefined();
  });
});
