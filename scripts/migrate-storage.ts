/**
 * `npm run migrate-storage -- --to s3://bucket?endpoint=...&region=... [--verificar]`
 *
 * Copies every file of the storage the configuration names (STORAGE_URL, by default the disk
 * under DATA_DIR/files) into a bucket, through the Storage interface alone: files are listed,
 * read as streams and written as streams, never held whole in memory (issue 19, decision 0042).
 *
 * It can run while the server does (files are only added there) and again after any interruption:
 * a file whose copy has the same size is left alone, so a second run copies only what is missing
 * or differs. With --verificar, a copy of the same size is also read back and compared by SHA-256
 * with the original; one that differs is reported and copied again, and the run ends with 1.
 *
 * Exit codes, as the other commands: 0 everything is in the bucket, 1 some file failed or
 * differed, 2 usage or configuration error (nothing was copied).
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../src/lib/server/config.server.ts';
import { paths } from '../src/lib/server/data-dir.server.ts';
import { type ArchivoGuardado, createStorage, type Storage } from '../src/lib/server/storage/storage.server.ts';
import { sumador } from '../src/lib/server/storage/sumador.server.ts';

const USO = `Uso:
  npm run migrate-storage -- --to "s3://bucket?endpoint=https://...&region=...[&forcePathStyle=true]"
      copia al bucket los archivos que le faltan o cuyo tamaño difiere (se puede repetir sin riesgo)
  npm run migrate-storage -- --to "s3://..." --verificar
      además compara por SHA-256 cada archivo que ya estaba y copia de nuevo el que difiere
Las credenciales se leen de AWS_ACCESS_KEY_ID y AWS_SECRET_ACCESS_KEY.`;

/** Files copied at once: enough to hide each request's round trip, few enough for a small server. */
const SIMULTANEOS = 4;

/**
 * Names of files still being written by a running server or worker (a disk write's
 * `<name>.<pid>.tmp`, a transcode's `.intento-…`/`.partial` folder, a replaced folder's
 * `.viejo-…`): not files yet, so never copied; the next run finds them under their final names.
 */
const EN_CURSO = /(^|\/)[^/]*\.(\d+\.tmp|tmp\.jpg|partial|intento-[0-9a-f-]+|viejo-[0-9a-f-]+)(\.jpg)?(\/|$)/;

/** A mistake in how the command was called or configured: exit 2, nothing copied. */
class ErrorDeUso extends Error {}

const mensaje = (error: unknown) => (error instanceof Error ? error.message : String(error));

const numero = new Intl.NumberFormat('es-CL', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
function tamano(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const unidades = ['kB', 'MB', 'GB', 'TB'];
  let valor = bytes / 1024;
  let i = 0;
  while (valor >= 1024 && i < unidades.length - 1) {
    valor /= 1024;
    i++;
  }
  return `${numero.format(valor)} ${unidades[i]}`;
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Streams `key` from one storage to the other and returns the SHA-256 and length of what was read. */
async function copiar(origen: Storage, destino: Storage, key: string): Promise<{ sha: string; bytes: number }> {
  const suma = sumador();
  // A read error reaches the write through the pipeline; a failed write closes the read.
  const flujo = pipeline(await origen.read(key), suma.transform, () => {});
  try {
    await destino.write(key, flujo);
  } finally {
    flujo.destroy();
  }
  const { sha256, bytes } = suma.resultado();
  return { sha: sha256, bytes };
}

/** Runs `tarea` over every item with at most `n` running at once; `tarea` never rejects. */
async function enParalelo<T>(items: AsyncIterable<T>, n: number, tarea: (item: T) => Promise<void>): Promise<void> {
  const enVuelo = new Set<Promise<void>>();
  for await (const item of items) {
    const promesa: Promise<void> = tarea(item).finally(() => enVuelo.delete(promesa));
    enVuelo.add(promesa);
    if (enVuelo.size >= n) await Promise.race(enVuelo);
  }
  await Promise.all(enVuelo);
}

interface Cuentas {
  archivos: number;
  bytes: number;
  copiados: number;
  bytesCopiados: number;
  yaEstaban: number;
  verificados: number;
  distintos: number;
  enCurso: number;
  desaparecidos: number;
  fallidos: number;
}

async function destinoDe(to: string | undefined, config: Config): Promise<{ url: string; storage: Storage }> {
  const ejemplo = 's3://bucket?endpoint=https://s3.example.cl&region=us-east-1';
  if (!to) throw new ErrorDeUso(`Falta --to: la URL del bucket de destino, por ejemplo ${ejemplo}.`);
  let url: string;
  try {
    // The same rule STORAGE_URL follows, so what is copied to can be configured afterwards.
    url = loadConfig({ ...process.env, STORAGE_URL: to }).STORAGE_URL;
  } catch {
    url = '';
  }
  if (!url.startsWith('s3://')) throw new ErrorDeUso(`--to debe ser la URL de un bucket S3, como ${ejemplo}; no «${to}».`);
  if (url === config.STORAGE_URL) throw new ErrorDeUso(`STORAGE_URL ya es ${url}: no hay nada que migrar.`);
  let storage: Storage;
  try {
    storage = await createStorage({ url, filesDir: paths(config.dataDir).files });
  } catch (error) {
    throw new ErrorDeUso(`--to no es una URL de bucket válida (${mensaje(error)}); por ejemplo ${ejemplo}.`);
  }
  try {
    // One listing call: a wrong endpoint, bucket name or credential fails here, before any copy.
    for await (const _ of storage.list('')) break;
  } catch (error) {
    throw new ErrorDeUso(
      `No se pudo leer el bucket de destino (${mensaje(error)}). Revise el endpoint, la región, el nombre del bucket y AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.`,
    );
  }
  return { url, storage };
}

async function origenDe(config: Config): Promise<{ nombre: string; storage: Storage }> {
  const filesDir = paths(config.dataDir).files;
  if (config.STORAGE_URL === 'file:' && !(await stat(filesDir).catch(() => null))?.isDirectory()) {
    throw new ErrorDeUso(`No existe la carpeta de archivos ${filesDir}: revise DATA_DIR.`);
  }
  const nombre = config.STORAGE_URL === 'file:' ? filesDir : config.STORAGE_URL;
  return { nombre, storage: await createStorage({ url: config.STORAGE_URL, filesDir }) };
}

async function run(argv: string[]): Promise<number> {
  let values: { to?: string | undefined; verificar?: boolean | undefined; ayuda?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { to: { type: 'string' }, verificar: { type: 'boolean', default: false }, ayuda: { type: 'boolean', short: 'h' } },
    }));
  } catch {
    // parseArgs explains in English; the person reads which options exist in the usage below.
    throw new ErrorDeUso(`Opciones no válidas: ${argv.join(' ')}`);
  }
  if (values.ayuda) {
    process.stdout.write(`${USO}\n`);
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    throw new ErrorDeUso(`La configuración no es válida.\n${mensaje(error)}`);
  }
  const verificar = values.verificar === true;
  // The source first: creating the bucket's storage may create its temporary folder in DATA_DIR.
  const origen = await origenDe(config);
  const destino = await destinoDe(values.to, config);
  process.stdout.write(`Copiando los archivos de ${origen.nombre} a ${destino.url}${verificar ? ' (verificando por SHA-256)' : ''}\n`);

  const c: Cuentas = {
    archivos: 0,
    bytes: 0,
    copiados: 0,
    bytesCopiados: 0,
    yaEstaban: 0,
    verificados: 0,
    distintos: 0,
    enCurso: 0,
    desaparecidos: 0,
    fallidos: 0,
  };
  const linea = (texto: string) => process.stdout.write(`${texto}\n`);

  const migrarUno = async ({ key, size }: ArchivoGuardado): Promise<void> => {
    if (EN_CURSO.test(key)) {
      c.enCurso++;
      return;
    }
    c.archivos++;
    c.bytes += size;
    try {
      if ((await destino.storage.size(key)) === size) {
        if (!verificar) {
          c.yaEstaban++;
          return;
        }
        const [original, copia] = await Promise.all([origen.storage.read(key).then(sha256), destino.storage.read(key).then(sha256)]);
        if (original === copia) {
          c.yaEstaban++;
          c.verificados++;
          return;
        }
        c.distintos++;
        linea(`distinto: ${key} (mismo tamaño, otro contenido; se copia de nuevo)`);
      }
      const { sha, bytes } = await copiar(origen.storage, destino.storage, key);
      if (verificar && (await destino.storage.read(key).then(sha256)) !== sha) {
        throw new Error('la copia leída de vuelta no coincide con el original');
      }
      c.copiados++;
      c.bytesCopiados += bytes;
      if (verificar) c.verificados++;
      linea(`copiado: ${key} (${tamano(bytes)})`);
    } catch (error) {
      // Removed while the migration ran (content deleted on a live server): nothing to copy.
      if ((await origen.storage.size(key).catch(() => 0)) === null) {
        c.desaparecidos++;
        linea(`ya no existe: ${key} (se borró durante la migración)`);
        return;
      }
      c.fallidos++;
      linea(`falló: ${key} (${mensaje(error)})`);
    }
  };

  await enParalelo(origen.storage.list(''), SIMULTANEOS, migrarUno);

  linea(
    `Archivos: ${c.archivos} (${tamano(c.bytes)}); copiados: ${c.copiados} (${tamano(c.bytesCopiados)}); ya estaban: ${c.yaEstaban}` +
      (verificar ? `; verificados por SHA-256: ${c.verificados}; distintos: ${c.distintos}` : '') +
      `; en curso (omitidos): ${c.enCurso}; borrados durante la migración: ${c.desaparecidos}; fallidos: ${c.fallidos}.`,
  );
  if (c.fallidos > 0 || c.distintos > 0) {
    linea(
      c.fallidos > 0
        ? 'Algunos archivos no se copiaron: revise los mensajes de arriba y ejecute el comando de nuevo (copia solo lo que falta).'
        : 'Había copias distintas del original; ya se copiaron de nuevo. Ejecute el comando otra vez con --verificar para confirmarlo.',
    );
    return 1;
  }
  if (!verificar || c.enCurso > 0) {
    linea('Si el servidor sigue recibiendo archivos, detenga las escrituras y ejecute el comando de nuevo con --verificar.');
  }
  linea(
    'Para usar el bucket, ponga en la configuración de cada servidor y worker (con AWS_ACCESS_KEY_ID y AWS_SECRET_ACCESS_KEY) y reinícielos:',
  );
  linea(`STORAGE_URL=${destino.url}`);
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ErrorDeUso) process.stderr.write(`${error.message}\n${USO}\n`);
    else process.stderr.write(`La migración se detuvo: ${mensaje(error)}\n`);
    process.exit(error instanceof ErrorDeUso ? 2 : 1);
  },
);
