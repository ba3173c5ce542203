/**
 * `npm run miniaturas [-- --forzar]`
 *
 * Makes the list cards' WebP thumbnails of content uploaded before they existed (issue 15,
 * docs/decisions/0031) and reports each one. It works on the stored files alone, wherever
 * STORAGE_URL keeps them (DATA_DIR/files or a bucket, issue 19; see media/regenerar.server.ts):
 * with the servers running or stopped, on PGlite or PostgreSQL, and again after an interruption,
 * doing only what is still missing.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.server.ts';
import { paths } from '../data-dir.server.ts';
import { resolverHerramientas } from '../media/herramientas.server.ts';
import { type Informe, type Resultado, regenerarMiniaturas } from '../media/regenerar.server.ts';
import { createStorage } from '../storage/storage.server.ts';

const USO = `Uso:
  npm run miniaturas              crea las miniaturas que faltan (se puede repetir sin riesgo)
  npm run miniaturas -- --forzar  las crea todas de nuevo`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { forzar: { type: 'boolean', default: false }, ayuda: { type: 'boolean', short: 'h' } },
  });
  if (values.ayuda) {
    process.stdout.write(`${USO}\n`);
    return 0;
  }
  const config = loadConfig();
  const raiz = paths(config.dataDir).files;
  const storage = await createStorage({ url: config.STORAGE_URL, filesDir: raiz });
  const donde = storage.tipo === 'disco' ? raiz : config.STORAGE_URL;
  process.stdout.write(`Miniaturas de ${donde}${values.forzar ? ' (todas de nuevo)' : ''}\n`);
  const alAvanzar = ({ contenido, resultado, detalle }: Informe) => {
    // Only what changed or needs a look; what was already there is only counted.
    if (resultado !== 'ya estaba') process.stdout.write(`${contenido}: ${resultado}${detalle ? ` (${detalle})` : ''}\n`);
  };
  const lectorPdf = resolverHerramientas(config).pdf;
  const informes = await regenerarMiniaturas(storage, { forzar: values.forzar, alAvanzar, lectorPdf });
  const cuenta = (r: Resultado) => informes.filter((i) => i.resultado === r).length;
  process.stdout.write(
    `Hechas: ${cuenta('hecha')}; ya estaban: ${cuenta('ya estaba')}; sin miniatura: ${cuenta('sin miniatura')}; fallidas: ${cuenta('fallida')}.\n`,
  );
  return cuenta('fallida') > 0 ? 1 : 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USO}\n`);
    process.exit(2);
  },
);
