/**
 * Zod speaks Spanish: its own messages (a wrong type, an unknown option) appear where a schema
 * gives none of docs/SPEC.md's, and they reach people through the API and the forms. Configured once,
 * here; texto.ts imports this module, and every shared schema imports texto.ts, so the server and
 * the islands (which load the schemas lazily) both have it before any schema runs.
 */
import { config } from 'zod';
import es from 'zod/v4/locales/es.js';

config(es());
// No code generation: the pages' Content-Security-Policy refuses eval, and Zod's probe for it
// (new Function) would be reported as a violation in every island that parses (decision 0022).
config({ jitless: true });
