/**
 * How the embedded database runs a statement (issue 36, decision 0089). PGlite's `query` makes five
 * calls into the WebAssembly for each one (parse, describe, bind, describe, execute, then sync),
 * parsing and planning it every time. This runs the same extended-protocol messages in one call:
 *
 * - A text Drizzle prepares under a name (`.prepare('leer_materiales')`) is parsed once under a
 *   name of its own and bound from then on, as node-postgres does on PostgreSQL; PostgreSQL then
 *   plans it afresh for its first five runs and may keep one plan after that. At 1x the material
 *   list's statement took 3.3 ms through `query`, 1.1 ms named.
 * - Any other text is parsed and planned for its values on every run, as before, with its
 *   parameters' types remembered from its first run: parse, bind, execute and sync in one call.
 *
 * Statements PGlite's own path must serve (a blob, explicit parameter types) still take it.
 */
import { type PGlite, parse, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

/** How many texts' parameter types are remembered; past it the least recently used is forgotten (and closed, when named). */
const MAXIMO = 500;

interface Conocida {
  /** The statement's name on the database; '' for a text parsed anew on each run. */
  nombre: string;
  /** The parameters' types PostgreSQL inferred on the first run, which choose each value's serializer. */
  tipos: number[];
}

const { serialize } = protocol;

const unir = (partes: Uint8Array[]): Uint8Array => {
  const salida = new Uint8Array(partes.reduce((n, p) => n + p.length, 0));
  let desde = 0;
  for (const p of partes) {
    salida.set(p, desde);
    desde += p.length;
  }
  return salida;
};

/**
 * A named statement the database no longer has, or whose result's columns changed under it (a
 * migration): bind failed before anything ran, and the text is prepared again.
 */
const caducada = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '26000' || (code === '0A000' && /cached plan/.test(String(message)));
};

export interface Sentencias {
  /** Registers a text Drizzle prepared under a name. */
  nombrar(texto: string): void;
  /** Whether `ejecutar` serves this call; otherwise PGlite's `query` does. */
  sirve(options: QueryOptions | undefined): boolean;
  /** Runs one statement, in one call into the database once its parameters' types are known. */
  ejecutar<T>(texto: string, params: unknown[], options: QueryOptions | undefined, enTransaccion: boolean): Promise<Results<T>>;
}

export function crearSentencias(client: PGlite, maximo = MAXIMO): Sentencias {
  const nombradas = new Set<string>();
  /** In order of last use: the first one is the next to forget. */
  const conocidas = new Map<string, Conocida>();
  /** Named statements to close with the next text described. */
  const porCerrar: string[] = [];
  let siguiente = 0;

  const olvidar = (texto: string) => {
    const conocida = conocidas.get(texto);
    conocidas.delete(texto);
    if (conocida?.nombre) porCerrar.push(conocida.nombre);
  };

  const llamar = (partes: Uint8Array[]) => client.execProtocolStream(unir([...partes, serialize.sync()]), { syncToFs: false });

  /** A new text: parsed (under a name when it has one) and described; its unnamed statement stands until the next parse. */
  async function describir(texto: string): Promise<Conocida> {
    for (const [vieja] of conocidas) {
      if (conocidas.size < maximo) break;
      olvidar(vieja);
    }
    const nombre = nombradas.has(texto) ? `ed_${++siguiente}` : '';
    const mensajes = await llamar([
      ...porCerrar.splice(0).map((name) => serialize.close({ type: 'S', name })),
      serialize.parse({ name: nombre, text: texto, types: [] }),
      serialize.describe({ type: 'S', name: nombre }),
    ]);
    const conocida = { nombre, tipos: parse.parseDescribeStatementResults(mensajes) };
    conocidas.set(texto, conocida);
    return conocida;
  }

  /**
   * The type parsers and options for `parse.parseResults`. Given a statement's own parsers (Drizzle
   * passes nine on every query) it copies all of PGlite's 380 into a new object for each statement,
   * 0.19-0.24 ms a statement on this machine (a tenth of the home page's server time at 10x); the
   * statement's few parsers over PGlite's, as its prototype, take 3 µs and find the same.
   */
  const conConversores = (options: QueryOptions | undefined): [PGlite['parsers'], QueryOptions | undefined] =>
    options?.parsers
      ? [Object.assign(Object.create(client.parsers), options.parsers), { ...options, parsers: undefined }]
      : [client.parsers, options];

  async function correr<T>(texto: string, params: unknown[], options: QueryOptions | undefined, enTransaccion: boolean) {
    const antes = conocidas.get(texto);
    if (antes) {
      conocidas.delete(texto);
      conocidas.set(texto, antes);
    }
    const { nombre, tipos } = antes ?? (await describir(texto));
    const values = params.map((valor, i) => {
      if (valor === null || valor === undefined) return null;
      const tipo = tipos[i] ?? 0;
      const serializar = options?.serializers?.[tipo] ?? client.serializers[tipo];
      return serializar ? (serializar(valor) as string) : String(valor);
    });
    const mensajes = await llamar([
      ...(antes && !nombre ? [serialize.parse({ text: texto, types: tipos })] : []),
      serialize.bind({ statement: nombre, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
    ]);
    if (!enTransaccion) await client.syncToFs();
    return parse.parseResults(mensajes, ...conConversores(options))[0] as Results<T>;
  }

  return {
    nombrar: (texto) => void nombradas.add(texto),
    sirve: (options) => !options?.blob && !options?.paramTypes,
    async ejecutar<T>(texto: string, params: unknown[], options: QueryOptions | undefined, enTransaccion: boolean) {
      // PGlite's own order: a transaction's statements on its turn, any other after the open transaction.
      const exclusiva = () => client._runExclusiveQuery(() => correr<T>(texto, params, options, enTransaccion));
      const una = () => (enTransaccion ? exclusiva() : client._checkReady().then(() => client._runExclusiveTransaction(exclusiva)));
      try {
        return await una();
      } catch (error) {
        const vieja = caducada(error);
        if (vieja) olvidar(texto);
        // Inside a transaction the failed bind aborted it: the caller sees the error, as from `query`.
        if (!vieja || enTransaccion) throw Object.assign(error as object, { query: texto, params, queryOptions: options });
        return await una();
      }
    },
  };
}
