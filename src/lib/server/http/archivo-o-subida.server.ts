/**
 * A create or edit form whose file comes either in the multipart body (docs/SPEC.md section 7) or as
 * `id_subida`, the id of a finished resumable upload (issue 18): in a JSON body, or as a text
 * field of a multipart form that has no file. Both roads end in the same `use(fields, file)`, so
 * the file is checked from its bytes and stored exactly the same way.
 */
import { z } from 'zod';
import { idSubida } from '../../validation/subidas.ts';
import { ApiError } from '../api/errors.server.ts';
import { parseWith, readJsonObject } from '../api/input.server.ts';
import { type FormOptions, receiveUpload, type UploadedFile } from './upload.server.ts';

/** Hands upload `id` to `use` as the form's file (field `campo`), once (services/subidas.server.ts). */
export type UsarSubida = <R>(id: string, campo: string, use: (file: UploadedFile) => Promise<R>) => Promise<R>;

const AMBOS = 'Envíe el archivo o id_subida, no ambos';
const conId = z.object({ id_subida: idSubida });
/** The id, validated where a refusal names the field. */
const leerId = (id_subida: unknown) => parseWith(conId, { id_subida }).id_subida;

/**
 * `withUpload` (upload.server.ts) that also takes `id_subida`: the fields are validated first,
 * then the file, from the multipart body or from the finished upload, goes to `use`.
 */
export async function withUploadOrSubida<S extends z.ZodType, R>(
  request: Request,
  tempDir: string,
  options: FormOptions<S>,
  usarSubida: UsarSubida,
  use: (fields: z.output<S>, file: UploadedFile | undefined) => Promise<R>,
): Promise<R> {
  if ((request.headers.get('content-type') ?? '').startsWith('application/json')) {
    const { id_subida, ...campos } = await readJsonObject(request);
    const fields = parseWith(options.fields, campos);
    if (id_subida === undefined) return use(fields, undefined);
    return usarSubida(leerId(id_subida), options.file, (file) => use(fields, file));
  }
  const upload = await receiveUpload(request, tempDir, options);
  try {
    const { id_subida, ...campos } = upload.fields;
    const fields = parseWith(options.fields, campos);
    const file = upload.files.find((f) => f.field === options.file);
    if (id_subida === undefined) return await use(fields, file);
    if (file) throw new ApiError(400, AMBOS, { errors: { id_subida: [AMBOS] } });
    return await usarSubida(leerId(id_subida), options.file, (f) => use(fields, f));
  } finally {
    await upload.discard();
  }
}
