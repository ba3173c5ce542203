/**
 * The console's forms for a request that arrived in writing (/admin/solicitudes): one schema for
 * the account's address and the reason, which the deletion's form extends with its decision.
 */
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../src/lib/server/api/errors.server.ts';
import {
  eliminacionEscritaSchema,
  eliminarCuentaAdminSchema,
  MOTIVO_REQUERIDO,
  solicitudEscritaSchema,
} from '../../src/lib/validation/baja.ts';

const errors = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error as never);
};
/** The message a page shows: the first one, the address's before the reason's. */
const primero = (schema: typeof solicitudEscritaSchema | typeof eliminacionEscritaSchema, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message;

describe('a written request, access or deletion', () => {
  it.each([
    ['access', solicitudEscritaSchema],
    ['deletion', eliminacionEscritaSchema],
  ] as const)('%s: asks for the address first, then the reason, in the same words', (_, schema) => {
    expect(primero(schema, { correo: '', motivo: '' })).toBe('Escribe el correo de la cuenta');
    expect(primero(schema, { correo: '   ', motivo: 'Carta' })).toBe('Escribe el correo de la cuenta');
    expect(primero(schema, { correo: 'ana@colegio.cl', motivo: '  ' })).toBe(MOTIVO_REQUERIDO);
    expect(errors(schema, { correo: 'ana@colegio.cl', motivo: 'x'.repeat(501) })).toEqual({
      motivo: ['Puedes escribir hasta 500 caracteres'],
    });
    expect(errors(schema, { correo: 'ana\u0000@colegio.cl', motivo: 'Carta' })).toEqual({
      correo: ['El texto contiene caracteres no permitidos'],
    });
  });

  it('trims what it keeps', () => {
    expect(solicitudEscritaSchema.parse({ correo: ' ana@colegio.cl ', motivo: ' Carta del 2 de marzo ' })).toEqual({
      correo: 'ana@colegio.cl',
      motivo: 'Carta del 2 de marzo',
    });
  });

  it("the deletion's form adds the API's decision, read as the API reads it", () => {
    expect(
      eliminacionEscritaSchema.parse({ correo: 'ana@colegio.cl', motivo: 'Carta', conservar_aportes: 'false', inmediato: 'true' }),
    ).toEqual({ correo: 'ana@colegio.cl', motivo: 'Carta', conservar_aportes: false, inmediato: true });
    const { correo: _, ...decision } = eliminacionEscritaSchema.parse({
      correo: 'ana@colegio.cl',
      motivo: 'Carta',
      conservar_aportes: true,
    });
    expect(eliminarCuentaAdminSchema.parse(decision)).toEqual(decision);
  });
});
