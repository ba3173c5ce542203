/**
 * Runs before each API test file. The files share their worker's modules (decision 0094), so what
 * a file starts in a shared module is stopped here, in the file's own hooks.
 */
import { afterAll } from 'vitest';
import { cerrarS3DelArchivo } from '../support/api.ts';

afterAll(cerrarS3DelArchivo);
