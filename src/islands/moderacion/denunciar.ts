/**
 * The report call (issue 17), through the one API client. It answers a result and never throws:
 * a refusal keeps the server's Spanish sentence ('Ya denunciaste este contenido.'), and the
 * field messages of a 400 go back to their fields.
 */

import type { z } from 'zod';
import { api } from '../../lib/api/client';
import type { denunciaSchema } from '../../lib/validation/denuncias';

export type Envio = { ok: true } | { ok: false; detalle: string; errores?: Record<string, string[]> | undefined };

const SIN_CONEXION = 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo nuevamente.';
const NO_ENVIADA = 'No se pudo enviar la denuncia. Inténtalo nuevamente.';

export type Denuncia = z.output<typeof denunciaSchema>;

export async function denunciar(datos: Denuncia): Promise<Envio> {
  try {
    const { error, response } = await api.POST('/api/denuncias/', { body: datos });
    if (response.status === 201) return { ok: true };
    return { ok: false, detalle: error?.detail ?? NO_ENVIADA, errores: error?.errors };
  } catch {
    return { ok: false, detalle: SIN_CONEXION };
  }
}
