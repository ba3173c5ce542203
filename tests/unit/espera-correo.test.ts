import { describe, expect, it } from 'vitest';
import { esperaReintento, MAX_INTENTOS_CORREO } from '../../src/lib/server/mail/outbox.server.ts';

describe('mail retry delays', () => {
  it('doubles from one minute and stops growing at one hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(esperaReintento)).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
    expect(esperaReintento(100)).toBe(3600);
  });

  it('keeps trying for at least a day before giving up', () => {
    let total = 0;
    for (let intento = 1; intento < MAX_INTENTOS_CORREO; intento++) total += esperaReintento(intento);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    expect(total).toBeLessThan(30 * 3600);
  });
});
