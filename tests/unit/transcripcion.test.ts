import { describe, expect, it } from 'vitest';
import { type LineaSubtitulo, parrafos } from '../../src/pages/capsulas/_componentes/transcripcion.ts';

/** `n` lines of about 40 characters, 2 s each, one after another from `desde`. */
const seguidas = (n: number, desde = 0, fin = ''): LineaSubtitulo[] =>
  Array.from({ length: n }, (_, i) => ({
    inicio: desde + i * 2,
    fin: desde + i * 2 + 2,
    texto: `Línea ${i + 1} de la clase sobre fracciones${i === n - 1 ? fin : ''}`,
  }));

describe('the transcript’s paragraphs', () => {
  it('joins short lines into one paragraph that starts at its first line, in whole seconds', () => {
    const resultado = parrafos([
      { inicio: 1.6, fin: 3, texto: 'Hola a todos.' },
      { inicio: 3.2, fin: 5, texto: 'Hoy veremos\nfracciones   equivalentes.' },
    ]);
    expect(resultado).toEqual([{ segundo: 1, texto: 'Hola a todos. Hoy veremos fracciones equivalentes.' }]);
  });

  it('closes a paragraph at the end of a sentence once it is long enough', () => {
    const lineas = [...seguidas(8, 0, '.'), ...seguidas(3, 16)];
    const [primero, segundo, ...resto] = parrafos(lineas);
    expect(resto).toEqual([]);
    expect(primero?.segundo).toBe(0);
    expect(primero?.texto.endsWith('fracciones.')).toBe(true);
    expect(segundo?.segundo).toBe(16);
  });

  it('closes one that grows too long without a sentence ending, and starts another after a long pause', () => {
    const largas = parrafos(seguidas(30));
    expect(largas.length).toBeGreaterThan(2);
    for (const p of largas) expect(p.texto.length).toBeLessThanOrEqual(520);
    const conPausa = parrafos([
      { inicio: 0, fin: 2, texto: 'Primera idea' },
      { inicio: 9, fin: 11, texto: 'después de una pausa' },
    ]);
    expect(conPausa).toEqual([
      { segundo: 0, texto: 'Primera idea' },
      { segundo: 9, texto: 'después de una pausa' },
    ]);
  });

  it('leaves out empty lines and gives nothing for no lines', () => {
    expect(parrafos([])).toEqual([]);
    expect(parrafos([{ inicio: 0, fin: 1, texto: '  \n ' }])).toEqual([]);
  });
});
