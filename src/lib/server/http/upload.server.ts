/**
 * Multipart uploads streamed to disk: the request body flows through busboy into a temporary
 * file, never whole into memory. A declared size over the limit is refused before reading; a
 * file that passes its limit, a body cut short, a client that goes away or any parser error ends
 * in an ApiError (413 or 400) with every temporary file removed: no stream is left without an
 * 'error' listener, so nothing a client sends can throw outside the request.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { z } from 'zod';
import { ApiError } from '../api/errors.server.ts';
import { parseWith } from '../api/input.server.ts';
import type { UploadedFile } from '../archivo-recibido.server.ts';
import { tooLarge } from '../errores.server.ts';
import { SIN_ESPACIO_ARCHIVO, sinEspacio } from '../storage/fallas.server.ts';

export type { UploadedFile };

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

const FIELD_BYTES = 64 * 1024;
const DEFAULT_FIELDS = 50;
const MAX_FILENAME = 255;
const MAX_EXTENSION = 16;

const invalidForm = () => new ApiError(400, 'El formulario enviado no es válido');

/** The largest whole request a form with this file limit can be: the file, its text fields and the multipart framing. */
export function uploadRequestLimit(maxFileBytes: number, maxFields = DEFAULT_FIELDS): number {
  return maxFileBytes + maxFields * FIELD_BYTES + 64 * 1024;
}

/** A part's filename as it may reach the database: no folders, no control or format characters, well-formed, bounded. */
export function cleanFilename(raw: string | undefined): string {
  const base =
    (raw ?? '')
      .toWellFormed()
      .replace(/[\p{Cc}\p{Cf}]/gu, '')
      .split(/[\\/]/)
      .at(-1)
      ?.trim() ?? '';
  const chars = Array.from(base);
  if (chars.length <= MAX_FILENAME) return base;
  const extension = path.extname(base);
  const keep = extension.length > 1 && extension.length <= MAX_EXTENSION ? extension : '';
  return chars.slice(0, MAX_FILENAME - Array.from(keep).length).join('') + keep;
}

const mimePattern = /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/;
const cleanMimeType = (raw: string | undefined) => (raw && mimePattern.test(raw) ? raw.toLowerCase() : 'application/octet-stream');

export async function receiveUpload(request: Request, tempDir: string, limits: UploadLimits): Promise<Upload> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) throw new ApiError(415, 'Envíe el formulario como multipart/form-data');
  const maxFields = limits.maxFields ?? DEFAULT_FIELDS;
  // Refused before a byte is read: the server closes the connection after answering (main.server.ts).
  if (Number(request.headers.get('content-length')) > uploadRequestLimit(limits.maxFileBytes, maxFields)) {
    throw tooLarge(limits.maxFileBytes);
  }
  if (!request.body) throw invalidForm();
  await mkdir(tempDir, { recursive: true });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles ?? 1, fields: maxFields, fieldSize: FIELD_BYTES },
      defParamCharset: 'utf8',
    });
  } catch {
    throw invalidForm();
  }

  const fields: Record<string, string | string[]> = {};
  const files: UploadedFile[] = [];
  const writes: Promise<void>[] = [];
  const discard = async () => {
    await Promise.all(files.map((f) => rm(f.tmpPath, { force: true })));
  };

  let failed = false;
  let fail: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    fail = (error) => {
      failed = true;
      reject(error);
    };
    parser.on('close', () => resolve());
  });
  // These listeners stay for the life of the streams: an error after the answer (a client that
  // goes away while the rest of the body is ignored) is expected and must not reach the process.
  parser.on('error', fail);
  parser.on('filesLimit', () => fail(new ApiError(400, 'Solo se puede subir un archivo')));
  parser.on('field', (name, value) => {
    if (name === '__proto__') return;
    const current = fields[name];
    fields[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
  });
  parser.on('file', (field, stream, info) => {
    stream.on('error', fail);
    if (failed) {
      stream.resume();
      return;
    }
    const file: UploadedFile = {
      field,
      filename: cleanFilename(info.filename),
      mimeType: cleanMimeType(info.mimeType),
      tmpPath: path.join(tempDir, randomUUID()),
      size: 0,
    };
    files.push(file);
    stream.on('data', (chunk: Buffer) => {
      file.size += chunk.length;
    });
    stream.on('limit', () => fail(tooLarge(limits.maxFileBytes)));
    const write = pipeline(stream, createWriteStream(file.tmpPath));
    write.catch(fail);
    writes.push(write);
  });

  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  source.on('error', fail);
  source.pipe(parser);
  try {
    await done;
    await Promise.all(writes);
  } catch (error) {
    // Stop reading: the answer goes out and the server closes the connection, so a client that
    // sends gigabytes is not read to the end. Cancelling the source would close the socket before
    // the answer, so it is only detached and paused.
    source.unpipe(parser);
    source.pause();
    parser.destroy();
    await Promise.allSettled(writes);
    await discard();
    if (error instanceof ApiError) throw error;
    // The disk refused the temporary file: the server's fault, not the form's (issue 28).
    if (sinEspacio(error)) throw new ApiError(507, SIN_ESPACIO_ARCHIVO);
    throw invalidForm();
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
