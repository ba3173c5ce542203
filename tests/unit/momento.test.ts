import { describe, expect, it } from 'vitest';
import { formatearMomento, segundoDe } from '../../src/lib/format/momento.ts';

describe('a moment of a video', () => {
  it('is written 0:12, 3:12 and 1:02:03, rounded down to the second', () => {
    expect(formatearMomento(0)).toBe('0:00');
    expect(formatearMomento(12.9)).toBe('0:12');
    expect(formatearMomento(192)).toBe('3:12');
    expect(formatearMomento(599.999)).toBe('9:59');
    expect(formatearMomento(3723)).toBe('1:02:03');
    expect(formatearMomento(36_000)).toBe('10:00:00');
  });
  it('is 0:00 for what is not a moment', () => {
    expect(formatearMomento(-5)).toBe('0:00');
    expect(formatearMomento(Number.NaN)).toBe('0:00');
    expect(formatearMomento(Number.POSITIVE_INFINITY)).toBe('0:00');
  });
  it('is read from a link’s ?t= only as whole seconds', () => {
    expect(segundoDe('192')).toBe(192);
    expect(segundoDe(' 0 ')).toBe(0);
    for (const malo of [null, undefined, '', '-3', '1e3', '12.5', 'abc', '9999999', '0x10']) expect(segundoDe(malo)).toBeNull();
  });
});
