import { describe, expect, it } from 'vitest';
import { idiomaElegido } from '../../src/islands/capsulas/subtitulos-reproductor.ts';

describe('the remembered captions choice', () => {
  it('is the language of the item picked in media-chrome’s captions menu', () => {
    expect(idiomaElegido('cc:es:Espa%C3%B1ol')).toBe('es');
    expect(idiomaElegido('sb:arn:Mapudungun')).toBe('arn');
  });
  it('is off for the Apagado item, nothing, or a value it does not know', () => {
    for (const valor of ['off', '', null, undefined, 'es', 'xx:es:Español', 'cc::Vacío']) expect(idiomaElegido(valor)).toBe('no');
  });
});
