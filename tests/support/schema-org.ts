/**
 * Checks a page's JSON-LD against schema.org's types (issue 34): the object, as the page sent it,
 * is written as a TypeScript literal of schema-dts's type (the schema.org vocabulary as TypeScript
 * types, published by Google) and the compiler says what does not fit: an unknown type or
 * property, a property on a type it does not belong to, a value of the wrong kind. Offline: no
 * vocabulary file or validator service is fetched (decision 0068).
 */
import path from 'node:path';
import ts from 'typescript';
import { root } from './server.ts';

/** A schema-dts type, written as TypeScript over `S` (the module): e.g. `S.LearningResource`. */
export type TipoSchemaOrg = string;

const OPCIONES: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: [],
};

/**
 * TypeScript's complaints about each `[datos, tipo]`, `datos` taken as a `WithContext<tipo>`: an
 * empty list for one that fits. One compilation for all (loading the vocabulary takes seconds).
 */
export function erroresSchemaOrg(casos: [datos: unknown, tipo: TipoSchemaOrg][]): string[][] {
  const archivos = new Map(
    casos.map(([datos, tipo], i) => [
      path.join(root, 'tests', `__jsonld_${i}__.ts`),
      `import type * as S from 'schema-dts';\nexport const datos: S.WithContext<${tipo}> = ${JSON.stringify(datos, null, 2)};\n`,
    ]),
  );
  const host = ts.createCompilerHost(OPCIONES);
  const leer = host.getSourceFile.bind(host);
  host.getSourceFile = (nombre, version, ...resto) => {
    const fuente = archivos.get(nombre);
    return fuente === undefined ? leer(nombre, version, ...resto) : ts.createSourceFile(nombre, fuente, version);
  };
  const existe = host.fileExists.bind(host);
  host.fileExists = (nombre) => archivos.has(nombre) || existe(nombre);
  const programa = ts.createProgram([...archivos.keys()], OPCIONES, host);
  const diagnosticos = ts.getPreEmitDiagnostics(programa);
  return [...archivos.keys()].map((archivo) =>
    diagnosticos
      .filter((d) => d.file?.fileName === archivo || d.file === undefined)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  );
}
