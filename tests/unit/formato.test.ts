import { describe, expect, it } from 'vitest';
import {
  formatearFecha,
  formatearFechaHora,
  formatearNumero,
  formatearRut,
  formatearTamano,
  formatearVisitas,
  iniciales,
  nombreCompleto,
  truncar,
} from '../../src/lib/format/index.ts';
import { renderMarkdown } from '../../src/lib/server/markdown.server.ts';

describe('view counts (SPEC 9)', () => {
  it('shortens thousands, millions and billions', () => {
    expect(formatearVisitas(0)).toBe('0');
    expect(formatearVisitas(999)).toBe('999');
    expect(formatearVisitas(1000)).toBe('1 mil');
    expect(formatearVisitas(1550)).toBe('1,5 mil');
    expect(formatearVisitas(2_345_678)).toBe('2,3 M');
    expect(formatearVisitas(7_000_000_000)).toBe('7 B');
  });
});

describe('dates and sizes', () => {
  it("writes dates in Chilean Spanish, in Chile's time zone", () => {
    expect(formatearFecha('2026-03-05T12:00:00Z')).toBe('5 de marzo de 2026');
    expect(formatearFecha('2026-01-01T02:00:00Z')).toBe('31 de diciembre de 2025');
  });
  it('writes a moment in Chilean time, 24-hour clock (the admin console)', () => {
    expect(formatearFechaHora('2026-03-05T17:07:00Z')).toBe('5 mar 2026, 14:07');
    expect(formatearFechaHora('2026-01-01T02:30:00Z')).toBe('31 dic 2025, 23:30');
  });
  it('writes numbers as toLocaleString in es-CL does, from formatters made once', () => {
    for (const n of [0, 7, 999, 1234, 12_345, 1_234_567, 2.25, 0.04, 1536.78]) {
      expect(formatearNumero(n)).toBe(n.toLocaleString('es-CL', { maximumFractionDigits: 1 }));
      expect(formatearNumero(n, 0)).toBe(n.toLocaleString('es-CL', { maximumFractionDigits: 0 }));
    }
    expect(formatearNumero(12_345)).toBe('12.345');
    expect(formatearNumero(2.25)).toBe('2,3');
  });
  it('writes file sizes', () => {
    expect(formatearTamano(512)).toBe('512 B');
    expect(formatearTamano(1536)).toBe('1,5 KB');
    expect(formatearTamano(25 * 1024 * 1024)).toBe('25 MB');
  });
});

describe('names and RUTs', () => {
  const ana = { primer_nombre: 'Ana', segundo_nombre: 'María', apellido_paterno: 'Pérez', apellido_materno: 'Soto' };
  it('writes the full name without its empty parts, with or without the second name', () => {
    expect(nombreCompleto(ana)).toBe('Ana María Pérez Soto');
    expect(nombreCompleto(ana, { segundoNombre: false })).toBe('Ana Pérez Soto');
    expect(nombreCompleto({ ...ana, segundo_nombre: '', apellido_materno: '' })).toBe('Ana Pérez');
  });
  it('takes the initials of the first two words', () => {
    expect(iniciales('Ana Pérez')).toBe('AP');
    expect(iniciales('ana')).toBe('A');
  });
  it('groups the digits of a RUT and leaves anything else as it came', () => {
    expect(formatearRut('12345678-5')).toBe('12.345.678-5');
    expect(formatearRut('9876543-K')).toBe('9.876.543-K');
    expect(formatearRut('sin rut')).toBe('sin rut');
  });
});

describe('truncation (SPEC 9)', () => {
  it('keeps short text and cuts long text on a word with an ellipsis', () => {
    expect(truncar('Fracciones', 70)).toBe('Fracciones');
    const long = 'Aprendizaje basado en proyectos para la enseñanza de las fracciones en cuarto básico con material concreto';
    const cut = truncar(long, 70);
    expect(Array.from(cut).length).toBeLessThanOrEqual(70);
    expect(cut.endsWith('…')).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
  });
});

describe('rich text', () => {
  it('renders Markdown and escapes raw HTML and dangerous links', () => {
    expect(renderMarkdown('**Objetivo**: sumar ~~mal~~')).toBe('<p><strong>Objetivo</strong>: sumar <del>mal</del></p>');
    const html = renderMarkdown('<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
  });

  it('turns pictures into links and marks links as user content', () => {
    expect(renderMarkdown('![mapa](https://example.com/m.png) [guía](https://mineduc.cl) [x](javascript:alert(1))')).toBe(
      '<p><a rel="nofollow ugc noopener" href="https://example.com/m.png">mapa</a> ' +
        '<a rel="nofollow ugc noopener" href="https://mineduc.cl">guía</a> x</p>',
    );
  });
});
