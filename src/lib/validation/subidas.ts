/**
 * Resumable uploads (tus, issue 18): where a finished upload may be used, the metadata a client
 * declares when it creates one, and the `id_subida` the create forms accept instead of the file.
 * Shared by the server and, later, by the drop zones.
 */
import { z } from 'zod';
import { cadena } from './texto.ts';

/** The forms an upload is for; each has its own size limit and its own permission. */
export const DESTINOS_SUBIDA = ['capsula', 'material', 'manual', 'foto', 'categoria'] as const;
export type DestinoSubida = (typeof DESTINOS_SUBIDA)[number];

export const DESTINO_NO_VALIDO = 'El destino de la subida no es válido';
export const SUBIDA_NO_VALIDA = 'La subida no es válida';

/** The decoded Upload-Metadata: the file's name and type (hints only, the bytes decide) and its form. */
export const metadatosSubidaSchema = z.object({
  filename: cadena().max(1024, 'El nombre del archivo es demasiado largo').default(''),
  filetype: cadena().max(255, 'El tipo del archivo no es válido').default(''),
  destino: z.enum(DESTINOS_SUBIDA, { error: DESTINO_NO_VALIDO }),
});

/** An upload's id as the server makes them (@tus/server's default: 16 random bytes in hex). */
export const idSubida = z.string({ error: SUBIDA_NO_VALIDA }).regex(/^[0-9a-f]{32}$/, SUBIDA_NO_VALIDA);
