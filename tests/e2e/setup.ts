/**
 * Runs before each browser test file. The files share their worker's modules (decision 0094), so
 * the hooks every test needs are registered here, in each file's own scope, rather than once when
 * helpers.ts is first imported.
 */
import { afterEach } from 'vitest';
import { cerrarContextos, revisarPaginas } from './helpers.ts';

// Registered first, so it runs after the file's own afterEach hooks (vitest runs them as a stack):
// the checks below still see the pages.
afterEach(cerrarContextos);
afterEach(revisarPaginas);
