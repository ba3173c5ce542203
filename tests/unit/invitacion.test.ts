import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/lib/server/cli/csv.server.ts';
import { invitacionSchema } from '../../src/lib/validation/invitacion.ts';
import { normalizarRut } from '../../src/lib/validation/rut.ts';

describe('RUT', () => {
  it('accepts valid RUTs in any common format and normalises them', () => {
    expect(normalizarRut('12.345.678-5')).toBe('12345678-5');
    expect(normalizarRut('123456785')).toBe('12345678-5');
    expect(normalizarRut('7.775.735-k')).toBe('7775735-K');
    expect(normalizarRut('1-9')).toBe('1-9');
  });
  it('rejects a wrong check digit or garbage', () => {
    expect(normalizarRut('12.345.678-9')).toBeNull();
    expect(normalizarRut('abc')).toBeNull();
    expect(normalizarRut('')).toBeNull();
  });
});

describe('invitation', () => {
  it('lower-cases the email and reads admin flags from a roster', () => {
    expect(invitacionSchema.parse({ email: ' Ana@X.CL ', nombres: 'Ana', apellidos: 'Soto', admin: 'si' })).toMatchObject({
      email: 'ana@x.cl',
      admin: true,
      rut: '',
    });
    expect(invitacionSchema.parse({ email: 'a@x.cl', nombres: 'A', apellidos: 'B', admin: '' }).admin).toBe(false);
  });
});

describe('roster CSV', () => {
  it('reads a header and rows with quotes, commas inside quotes and CRLF', () => {
    const rows = parseCsv('email,nombres,apellidos\r\nana@x.cl,"Ana, María",Soto\r\n\r\n"pe""dro@x.cl",Pedro,"Rojas\nLagos"\r\n');
    expect(rows).toEqual([
      { line: 1, values: ['email', 'nombres', 'apellidos'] },
      { line: 2, values: ['ana@x.cl', 'Ana, María', 'Soto'] },
      { line: 4, values: ['pe"dro@x.cl', 'Pedro', 'Rojas\nLagos'] },
    ]);
  });
  it('detects semicolons (spreadsheets in es-CL) and strips a BOM', () => {
    expect(parseCsv('\uFEFFemail;nombres;apellidos\nana@x.cl;Ana;Soto')).toEqual([
      { line: 1, values: ['email', 'nombres', 'apellidos'] },
      { line: 2, values: ['ana@x.cl', 'Ana', 'Soto'] },
    ]);
  });
});
