/**
 * `npm run usuarios -- crear --email ... --nombres ... --apellidos ... [--rut ...] [--colegio ...] [--admin]`
 * `npm run usuarios -- importar roster.csv`
 * `npm run usuarios -- reenviar --email ...`
 *
 * Creates teacher accounts and queues their activation emails, or a fresh activation link. With the embedded database and a
 * server running (found by its lock record or at its configured address), it goes through the
 * server's admin endpoint (the database admits one process); otherwise it claims the data directory
 * and opens the database itself.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { invitacionSchema } from '../../validation/invitacion.ts';
import { ADMIN_KEY_HEADER } from '../api/acceso-admin.server.ts';
import { ApiError, fieldErrors } from '../api/errors.server.ts';
import { loadConfig } from '../config.server.ts';
import { persistentSecret } from '../data-dir.server.ts';
import { acquireLock } from '../data-dir-lock.server.ts';
import { createLogger } from '../log.server.ts';
import { parseCsv } from './csv.server.ts';
import { servidorEnEjecucion } from './servidor.server.ts';

const USO = `Uso:
  npm run usuarios -- crear --email CORREO --nombres "NOMBRES" --apellidos "APELLIDOS" [--rut RUT] [--colegio "COLEGIO"] [--admin]
  npm run usuarios -- importar ARCHIVO.csv
  npm run usuarios -- reenviar --email CORREO   (nuevo enlace de activación; el anterior deja de funcionar)

El CSV lleva una fila de encabezado con las columnas email, nombres, apellidos y, si se quiere,
rut, colegio y admin (si/no). Se aceptan comas o punto y coma como separador.`;

type Outcome =
  | { kind: 'invitado'; email: string; colegioCreado: boolean }
  | { kind: 'omitido'; email: string; motivo: string }
  | { kind: 'error'; mensaje: string };

type Invitar = (input: Record<string, unknown>) => Promise<Outcome>;
/** A fresh activation link: the address it went to, or why not. */
type Reenviar = (email: string) => Promise<{ ok: true; email: string } | { ok: false; mensaje: string }>;

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.body.errors ?? {}).flat();
    return fields.length > 0 ? fields.join('; ') : error.body.detail;
  }
  return error instanceof Error ? error.message : String(error);
}

interface Respuesta {
  status: number;
  body: { detail?: string; errors?: Record<string, string[]>; colegio_creado?: boolean; email?: string };
}

const mensajeDe = ({ status, body }: Respuesta) => {
  const fields = Object.values(body.errors ?? {}).flat();
  return fields.length > 0 ? fields.join('; ') : (body.detail ?? `HTTP ${status}`);
};

/** Through the running server's admin endpoints. */
function viaServer(url: string, adminKey: string): { invitar: Invitar; reenviar: Reenviar } {
  async function post(ruta: string, input: unknown): Promise<Respuesta | string> {
    try {
      const response = await fetch(new URL(ruta, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [ADMIN_KEY_HEADER]: adminKey },
        body: JSON.stringify(input),
      });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as Respuesta['body'] };
    } catch (error) {
      return `No se pudo contactar al servidor en ${url}: ${describe(error)}`;
    }
  }
  return {
    async invitar(input) {
      const res = await post('/api/admin/usuarios/', input);
      if (typeof res === 'string') return { kind: 'error', mensaje: res };
      const email = String(input.email ?? '');
      if (res.status === 201) return { kind: 'invitado', email, colegioCreado: res.body.colegio_creado === true };
      if (res.status === 409) return { kind: 'omitido', email, motivo: mensajeDe(res) };
      return { kind: 'error', mensaje: mensajeDe(res) };
    },
    async reenviar(email) {
      const res = await post('/api/admin/usuarios/reenviar-activacion/', { email });
      if (typeof res === 'string') return { ok: false, mensaje: res };
      return res.status === 200 ? { ok: true, email: res.body.email ?? email } : { ok: false, mensaje: mensajeDe(res) };
    },
  };
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'debug' ? 'debug' : 'warn', { service: 'cli' });

  let invitar: Invitar;
  let reenviar: Reenviar;
  let cleanup = async () => {};
  const adminKey = config.DATABASE_URL ? '' : persistentSecret(config.dataDir, 'admin-key');
  const server = config.DATABASE_URL ? null : await servidorEnEjecucion(config, adminKey);
  if (server) {
    ({ invitar, reenviar } = viaServer(server, adminKey));
  } else {
    // Refused (DataDirBusyError) while any other process holds the data directory, record or not.
    const lock = config.DATABASE_URL ? null : await acquireLock(config.dataDir, 'npm run usuarios');
    // The whole server, imported only when no running one takes the call: 2.5 of the 3 s the
    // command took to invite one teacher through a running server.
    const { createRuntime } = await import('../runtime.server.ts');
    const runtime = await createRuntime(config, log, { servicio: 'cli' });
    cleanup = async () => {
      // One attempt at the queued mail now; if the mail server does not answer, the server's (or
      // the worker's) job runner retries it.
      await runtime.jobs.drainMail().catch(() => undefined);
      await runtime.close();
      lock?.release();
    };
    const { invitaciones } = runtime.services;
    invitar = async (input) => {
      const parsed = invitacionSchema.safeParse(input);
      if (!parsed.success) return { kind: 'error', mensaje: Object.values(fieldErrors(parsed.error)).flat().join('; ') };
      try {
        // The audit log names the local admin key, as it does when the server takes the call.
        const result = await invitaciones.invitar(parsed.data, { id: null });
        return { kind: 'invitado', email: result.usuario.email, colegioCreado: result.colegio_creado };
      } catch (error) {
        if (error instanceof ApiError && error.status === 409)
          return { kind: 'omitido', email: parsed.data.email, motivo: describe(error) };
        return { kind: 'error', mensaje: describe(error) };
      }
    };
    reenviar = async (email) => {
      try {
        return { ok: true, ...(await invitaciones.reenviar({ email })) };
      } catch (error) {
        return { ok: false, mensaje: describe(error) };
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
      if (outcome.kind === 'invitado') {
        process.stdout.write(`Cuenta creada para ${outcome.email}; se envió el correo de activación.\n`);
        if (outcome.colegioCreado) process.stdout.write(`Se agregó el colegio nuevo «${values.colegio}».\n`);
        return 0;
      }
      process.stderr.write(outcome.kind === 'omitido' ? `${outcome.motivo}\n` : `${outcome.mensaje}\n`);
      return 1;
    }
    if (command === 'reenviar') {
      const { values } = parseArgs({ args: rest, options: { email: { type: 'string' } }, strict: true });
      if (!values.email) throw new Error(USO);
      const result = await reenviar(values.email);
      if (result.ok) {
        process.stdout.write(`Se envió un nuevo enlace de activación a ${result.email}; el anterior ya no funciona.\n`);
        return 0;
      }
      process.stderr.write(`${result.mensaje}\n`);
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
      // Each line is reported as 'invitado', 'omitido' (with why) or 'error' (with why).
      const cuenta = { invitado: 0, omitido: 0, error: 0 };
      for (const row of data) {
        const input: Record<string, string> = {};
        columns.forEach((c, i) => {
          input[c] = row.values[i]?.trim() ?? '';
        });
        const outcome = await invitar(input);
        cuenta[outcome.kind]++;
        if (outcome.kind === 'invitado') {
          const colegio = outcome.colegioCreado ? ` (colegio nuevo «${input.colegio}»)` : '';
          process.stdout.write(`Línea ${row.line}: invitado ${outcome.email}${colegio}.\n`);
        } else if (outcome.kind === 'omitido') {
          process.stdout.write(`Línea ${row.line}: omitido ${outcome.email}: ${outcome.motivo}\n`);
        } else {
          process.stderr.write(`Línea ${row.line}: error: ${outcome.mensaje}\n`);
        }
      }
      process.stdout.write(`\n${cuenta.invitado} invitados, ${cuenta.omitido} omitidos, ${cuenta.error} con errores.\n`);
      return cuenta.error > 0 ? 1 : 0;
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
