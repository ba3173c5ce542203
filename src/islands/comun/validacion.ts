/**
 * Form validation that arrives in its own chunk: zod is about 23 kB gzip, and with React
 * (about 69 kB) it would push every account page past the 90 kB budget of docs/DESIGN.md. The chunk
 * starts loading when the person first reaches the form (`precargar`, on focus), well before a
 * field is left or the form is sent; until it is there, validation waits for it.
 */
import type { FieldValues, Resolver } from 'react-hook-form';
import { cargaUnica } from './carga';

export interface ValidacionDiferida<Entrada extends FieldValues, Salida> {
  resolver: Resolver<Entrada, unknown, Salida>;
  precargar: () => void;
}

export function validacionDiferida<Entrada extends FieldValues, Salida>(
  cargar: () => Promise<Resolver<Entrada, unknown, Salida>>,
): ValidacionDiferida<Entrada, Salida> {
  const obtener = cargaUnica(cargar);
  return {
    resolver: async (valores, contexto, opciones) => (await obtener())(valores, contexto, opciones),
    precargar: () => void obtener().catch(() => undefined),
  };
}
