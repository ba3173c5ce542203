/** The quality menu's costs and the data saver's ceiling (src/islands/capsulas/calidades.ts, issue 20). */
import { describe, expect, it } from 'vitest';
import { ALTO_AHORRO, conCoste, costePorMinuto, nivelTope } from '../../src/islands/capsulas/calidades.ts';

describe('costePorMinuto', () => {
  it('gives megabytes a minute in Spanish number format, one decimal under 10', () => {
    // 250 kbps: 1,875 MB a minute.
    expect(costePorMinuto(250_000)).toBe('~1,9 MB/min');
    expect(costePorMinuto(266_667)).toBe('~2 MB/min');
    expect(costePorMinuto(800_000)).toBe('~6 MB/min');
    expect(costePorMinuto(2_528_000)).toBe('~19 MB/min');
    expect(costePorMinuto(20_000_000)).toBe('~150 MB/min');
  });

  it('never says 0 for a tiny rate, and says nothing without a usable one', () => {
    expect(costePorMinuto(1)).toBe('~0,1 MB/min');
    for (const malo of [undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(costePorMinuto(malo)).toBeNull();
  });

  it('adds the cost after the rung’s name only when known', () => {
    expect(conCoste('234p', 250_000)).toBe('234p · ~1,9 MB/min');
    expect(conCoste('234p', undefined)).toBe('234p');
  });
});

describe('nivelTope', () => {
  const escalera = [
    { height: 234, bitrate: 300_000 },
    { height: 360, bitrate: 850_000 },
    { height: 720, bitrate: 2_600_000 },
  ];

  it('picks the tallest rung at or below the ceiling, whatever the order', () => {
    expect(nivelTope(escalera, ALTO_AHORRO)).toBe(1);
    expect(nivelTope([...escalera].reverse(), ALTO_AHORRO)).toBe(1);
    expect(nivelTope(escalera, 1080)).toBe(2);
    expect(nivelTope(escalera, 300)).toBe(0);
  });

  it('takes the lowest rung when every one is taller, the best rate among equals, -1 without rungs', () => {
    expect(
      nivelTope(
        [
          { height: 720, bitrate: 2_000_000 },
          { height: 480, bitrate: 1_000_000 },
        ],
        ALTO_AHORRO,
      ),
    ).toBe(1);
    expect(
      nivelTope(
        [
          { height: 360, bitrate: 500_000 },
          { height: 360, bitrate: 900_000 },
        ],
        ALTO_AHORRO,
      ),
    ).toBe(1);
    expect(nivelTope([], ALTO_AHORRO)).toBe(-1);
  });
});
