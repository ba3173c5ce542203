/**
 * Multipart uploads streamed to disk: the request body flows through busboy into a temporary
 * file, never whole into memory, and stops with 413 as soon as a file passes its limit.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { z } from 'zod';
import { ApiError } from '../api/errors.server.ts';
import { parseWith } from '../api/input.server.ts';

export interface UploadedFile {
  field: string;
  /** The name the browser gave; only a hint (the type is checked from the bytes). */
  filename: string;
  mimeType: string;
  tmpPath: string;
  size: number;
}

export interface Upload {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
  /** Removes every temporary file that was not adopted into storage. */
  discard(): Promise<void>;
}

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles?: number;
  maxFields?: number;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export async function receiveUpload(request: Request, tempDir: string, limits: UploadLimits): Promise<Upload> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) throw new ApiError(415, 'Envíe el formulario como multipart/form-data');
  if (!request.body) throw new ApiError(400, 'El formulario enviado no es válido');
  await mkdir(tempDir, { recursive: true });

  const fields: Record<string, string | string[]> = {};
  const files: UploadedFile[] = [];
  const discard = async () => {
    await Promise.all(files.map((f) => rm(f.tmpPath, { force: true })));
  };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles ?? 1, fields: limits.maxFields ?? 50, fieldSize: 64 * 1024 },
      defParamCharset: 'utf8',
    });
  } catch {
    throw new ApiError(400, 'El formulario enviado no es válido');
  }

  const writes: Promise<void>[] = [];
  const sinks: { from: NodeJS.ReadableStream; to: ReturnType<typeof createWriteStream> }[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(error);
    parser.on('field', (name, value) => {
      const current = fields[name];
      fields[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
    });
    parser.on('file', (field, stream, info) => {
      const tmpPath = path.join(tempDir, randomUUID());
      const file: UploadedFile = { field, filename: info.filename ?? '', mimeType: info.mimeType, tmpPath, size: 0 };
      files.push(file);
      const out = createWriteStream(tmpPath);
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
      });
      stream.on('limit', () => fail(new ApiError(413, `El archivo supera el tamaño máximo permitido (${megabytes(limits.maxFileBytes)})`)));
      sinks.push({ from: stream, to: out });
      writes.push(
        new Promise<void>((res, rej) => {
          out.on('close', res);
          out.on('error', rej);
          stream.pipe(out);
        }),
      );
    });
    parser.on('filesLimit', () => fail(new ApiError(400, 'Solo se puede subir un archivo')));
    parser.on('error', () => fail(new ApiError(400, 'El formulario enviado no es válido')));
    parser.on('close', () => resolve());
  });

  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    await done;
    await Promise.all(writes);
  } catch (error) {
    // Stop writing, and let the rest of the body drain into nothing (memory stays flat).
    source.unpipe(parser);
    source.resume();
    for (const { from, to } of sinks) {
      from.unpipe(to);
      to.destroy();
    }
    await Promise.allSettled(writes);
    await discard();
    throw error instanceof ApiError ? error : new ApiError(400, 'El formulario enviado no es válido');
  }
  return { fields, files, discard };
}

export interface FormOptions<S extends z.ZodType> extends UploadLimits {
  /** The schema of the text fields. */
  fields: S;
  /** The field that carries the file. */
  file: string;
}

/**
 * A multipart form for a handler: receives it, validates its text fields, hands them and the
 * named file to `use`, and removes the temporary files afterwards, whatever happened (a file the
 * handler adopted into storage is no longer there to remove).
 */
export async function withUpload<S extends z.ZodType, R>(
  request: Request,
  tempDir: string,
  options: FormOptions<S>,
  use: (fields: z.output<S>, file: UploadedFile | undefined) => Promise<R>,
): Promise<R> {
  const upload = await receiveUpload(request, tempDir, options);
  try {
    return await use(
      parseWith(options.fields, upload.fields),
      upload.files.find((f) => f.field === options.file),
    );
  } finally {
    await upload.discard();
  }
}
