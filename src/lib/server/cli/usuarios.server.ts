/**
 * `npm run usuarios -- crear --email ... --nombres ... --apellidos ... [--rut ...] [--colegio ...] [--admin]`
 * `npm run usuarios -- importar roster.csv`
 *
 * Creates teacher accounts and sends their activation emails. With the embedded database and a
 * server running, it goes through the server's admin endpoint (the database admits one process);
 * otherwise it opens the database itself.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { invitacionSchema } from '../../validation/invitacion.ts';
import { ADMIN_KEY_HEADER } from '../api/admin.server.ts';
import { ApiError, fieldErrors } from '../api/errors.server.ts';
import { loadConfig } from '../config.server.ts';
import { acquireLock, persistentSecret, readLock } from '../data-dir.server.ts';
import { createLogger } from '../log.server.ts';
import { createRuntime } from '../runtime.server.ts';
import { parseCsv } from './csv.server.ts';

const USO = `Uso:
  npm run usuarios -- crear --email CORREO --nombres "NOMBRES" --apellidos "APELLIDOS" [--rut RUT] [--colegio "COLEGIO"] [--admin]
  npm run usuarios -- importar ARCHIVO.csv

El CSV lleva una fila de encabezado con las columnas email, nombres, apellidos y, si se quiere,
rut, colegio y admin (si/no). Se aceptan comas o punto y coma como separador.`;

type Outcome =
  | { kind: 'creado'; email: string; colegioCreado: boolean }
  | { kind: 'existente'; email: string }
  | { kind: 'error'; mensaje: string };

type Invitar = (input: Record<string, unknown>) => Promise<Outcome>;

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.body.errors ?? {}).flat();
    return fields.length > 0 ? fields.join('; ') : error.body.detail;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Through the running server's admin endpoint. */
function viaServer(url: string, adminKey: string): Invitar {
  return async (input) => {
    let response: Response;
    try {
      response = await fetch(new URL('/api/admin/usuarios/', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [ADMIN_KEY_HEADER]: adminKey },
        body: JSON.stringify(input),
      });
    } catch (error) {
      return { kind: 'error', mensaje: `No se pudo contactar al servidor en ${url}: ${describe(error)}` };
    }
    const body = (await response.json().catch(() => ({}))) as {
      detail?: string;
      errors?: Record<string, string[]>;
      colegio_creado?: boolean;
    };
    const email = String(input.email ?? '');
    if (response.status === 201) return { kind: 'creado', email, colegioCreado: body.colegio_creado === true };
    if (response.status === 409) return { kind: 'existente', email };
    const fields = Object.values(body.errors ?? {}).flat();
    return { kind: 'error', mensaje: fields.length > 0 ? fields.join('; ') : (body.detail ?? `HTTP ${response.status}`) };
  };
}

/** The running server on this data directory, waiting while it is still starting. */
async function runningServer(dataDir: string) {
  for (let waited = 0; waited < 60; waited++) {
    const lock = readLock(dataDir);
    if (!lock || lock.url.startsWith('http')) return lock;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('El servidor sigue iniciándose; intente de nuevo en unos segundos.');
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'debug' ? 'debug' : 'warn', { service: 'cli' });

  let invitar: Invitar;
  let cleanup = async () => {};
  const server = config.DATABASE_URL ? null : await runningServer(config.dataDir);
  if (server) {
    invitar = viaServer(server.url, persistentSecret(config.dataDir, 'admin-key'));
  } else {
    const lock = config.DATABASE_URL ? null : acquireLock(config.dataDir, 'npm run usuarios');
    const runtime = await createRuntime(config, log);
    cleanup = async () => {
      await runtime.close();
      lock?.release();
    };
    invitar = async (input) => {
      const parsed = invitacionSchema.safeParse(input);
      if (!parsed.success) return { kind: 'error', mensaje: Object.values(fieldErrors(parsed.error)).flat().join('; ') };
      try {
        const result = await runtime.api.services.invitaciones.invitar(parsed.data);
        return { kind: 'creado', email: result.usuario.email, colegioCreado: result.colegio_creado };
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return { kind: 'existente', email: parsed.data.email };
        return { kind: 'error', mensaje: describe(error) };
      }
    };
  }

  try {
    if (command === 'crear') {
      const { values } = parseArgs({
        args: rest,
        options: {
          email: { type: 'string' },
          nombres: { type: 'string' },
          apellidos: { type: 'string' },
          rut: { type: 'string' },
          colegio: { type: 'string' },
          admin: { type: 'boolean', default: false },
        },
        strict: true,
      });
      const outcome = await invitar(values);
      if (outcome.kind === 'creado') {
        process.stdout.write(`Cuenta creada para ${outcome.email}; se envió el correo de activación.\n`);
        if (outcome.colegioCreado) process.stdout.write(`Se agregó el colegio nuevo «${values.colegio}».\n`);
        return 0;
      }
      process.stderr.write(
        outcome.kind === 'existente' ? `Ya existe una cuenta con ${outcome.email}; no se creó otra.\n` : `${outcome.mensaje}\n`,
      );
      return 1;
    }
    if (command === 'importar') {
      const file = rest[0];
      if (!file) throw new Error(USO);
      const rows = parseCsv(readFileSync(file, 'utf8'));
      const [header, ...data] = rows;
      if (!header) throw new Error('El archivo está vacío.');
      const columns = header.values.map((h) =>
        h
          .trim()
          .toLowerCase()
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, ''),
      );
      const missing = ['email', 'nombres', 'apellidos'].filter((c) => !columns.includes(c));
      if (missing.length > 0) throw new Error(`Faltan columnas en el encabezado: ${missing.join(', ')}.\n\n${USO}`);
      let creados = 0;
      let existentes = 0;
      let errores = 0;
      for (const row of data) {
        const input: Record<string, string> = {};
        columns.forEach((c, i) => {
          input[c] = row.values[i]?.trim() ?? '';
        });
        const outcome = await invitar(input);
        if (outcome.kind === 'creado') {
          creados++;
          process.stdout.write(
            `Línea ${row.line}: cuenta creada para ${outcome.email}${outcome.colegioCreado ? ` (colegio nuevo «${input.colegio}»)` : ''}.\n`,
          );
        } else if (outcome.kind === 'existente') {
          existentes++;
          process.stdout.write(`Línea ${row.line}: ya existe una cuenta con ${outcome.email}; se omitió.\n`);
        } else {
          errores++;
          process.stderr.write(`Línea ${row.line}: ${outcome.mensaje}\n`);
        }
      }
      process.stdout.write(`\n${creados} creadas, ${existentes} omitidas por existir, ${errores} con errores.\n`);
      return errores > 0 ? 1 : 0;
    }
    process.stderr.write(`${USO}\n`);
    return command ? 2 : 0;
  } finally {
    await cleanup();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
