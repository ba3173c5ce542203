/**
 * A file a person sent, already on this server's disk in a temporary folder: what a service
 * receives to check and adopt into storage, whoever took it in (a multipart form,
 * http/upload.server.ts, or a finished resumable upload, services/subidas.server.ts).
 */
export interface UploadedFile {
  field: string;
  /** The name the browser gave, cleaned (no folders, no control characters, at most 255 characters); only a hint. */
  filename: string;
  mimeType: string;
  tmpPath: string;
  size: number;
}
