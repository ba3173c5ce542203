/**
 * The database in and out of a backup as JSON lines, the same on PGlite and PostgreSQL
 * (docs/decisions/0048): every table of the `public` schema read in one read-only REPEATABLE READ
 * transaction (one snapshot), each row as PostgreSQL's own `row_to_json`, in primary-key order;
 * loaded back with `json_populate_recordset`, so every type goes through PostgreSQL's own text
 * form both ways.
 */
import { sql } from 'drizzle-orm';
import { type Db, filasDe } from '../db/client.server.ts';

/**
 * Rows of these tables are this process's and this moment's (locks, runner heartbeats), not data;
 * the lists' count versions (drizzle/0021) are moved by the restore's own inserts.
 */
export const SIN_VOLCAR = new Set(['bloqueos', 'ejecutores', 'versiones_conteo']);

/** Rows fetched from the cursor, and inserted, per statement. */
const LOTE = 500;

type Conexion = Pick<Db, 'execute'>;

export interface Tabla {
  nombre: string;
  /** Stored columns (not generated ones), in their order. */
  columnas: string[];
  /** The primary key's columns, in the key's order. */
  clave: string[];
}

export const ident = (nombre: string) => `"${nombre.replaceAll('"', '""')}"`;

/** The tables of the schema, by name. */
export async function tablas(db: Conexion): Promise<Tabla[]> {
  const columnas = await filasDe<{ tabla: string; columna: string }>(
    db,
    sql`select table_name as tabla, column_name as columna from information_schema.columns
        where table_schema = 'public' and is_generated = 'NEVER'
          and table_name in (select tablename from pg_tables where schemaname = 'public')
        order by table_name, ordinal_position`,
  );
  const claves = await filasDe<{ tabla: string; columna: string }>(
    db,
    sql`select c.relname as tabla, a.attname as columna
        from pg_index i
        join pg_class c on c.oid = i.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey::int2[])
        where n.nspname = 'public' and i.indisprimary
        order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const porNombre = new Map<string, Tabla>();
  for (const { tabla, columna } of columnas) {
    const t = porNombre.get(tabla) ?? { nombre: tabla, columnas: [], clave: [] };
    t.columnas.push(columna);
    porNombre.set(tabla, t);
  }
  for (const { tabla, columna } of claves) porNombre.get(tabla)?.clave.push(columna);
  return [...porNombre.values()].sort((a, b) => a.nombre.localeCompare(b.nombre));
}

/** The applied migrations (drizzle's journal in the database), oldest first: the schema's level. */
export async function migraciones(db: Conexion): Promise<string[]> {
  const rows = await filasDe<{ hash: string }>(db, sql`select hash from drizzle.__drizzle_migrations order by id`);
  return rows.map((r) => r.hash);
}

/**
 * Calls `escribir` with each row of `tabla` as one line of JSON, in primary-key order, through a
 * cursor (never the whole table in memory). `db` must be the snapshot's transaction.
 */
export async function volcarTabla(db: Conexion, tabla: Tabla, escribir: (linea: string) => Promise<void>): Promise<number> {
  if (SIN_VOLCAR.has(tabla.nombre)) return 0;
  const orden = (tabla.clave.length > 0 ? tabla.clave : tabla.columnas).map(ident).join(', ');
  await db.execute(
    sql.raw(
      `declare respaldo_cursor no scroll cursor for select row_to_json(x)::text as j from (select ${tabla.columnas
        .map(ident)
        .join(', ')} from ${ident(tabla.nombre)} order by ${orden}) x`,
    ),
  );
  let total = 0;
  try {
    for (;;) {
      const lote = await filasDe<{ j: string }>(db, sql.raw(`fetch ${LOTE} from respaldo_cursor`));
      for (const { j } of lote) await escribir(j);
      total += lote.length;
      if (lote.length < LOTE) return total;
    }
  } finally {
    await db.execute(sql.raw('close respaldo_cursor'));
  }
}

/** Runs `fn` on one consistent, read-only snapshot of the whole database. */
export function enInstantanea<T>(db: Db, fn: (tx: Conexion) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** True when no table of the schema has a row. */
export async function vacia(db: Conexion): Promise<boolean> {
  for (const t of await tablas(db)) {
    const [fila] = await filasDe<{ hay: boolean }>(db, sql.raw(`select exists (select 1 from ${ident(t.nombre)}) as hay`));
    if (fila?.hay) return false;
  }
  return true;
}

export interface Carga {
  /** Adds the rows (JSON lines) of one table. */
  tabla(nombre: string, lineas: AsyncIterable<string>): Promise<number>;
}

/**
 * Loads rows into an empty, migrated database in one transaction: foreign keys are dropped while
 * the rows go in (in any order) and added back after, which checks every one of them; then each
 * sequence continues after its column's largest value, and the comment counters are recounted.
 * `cargar` feeds the tables.
 */
export async function cargarTablas(db: Db, cargar: (carga: Carga) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    const porNombre = new Map((await tablas(tx)).map((t) => [t.nombre, t]));
    const foraneas = await filasDe<{ tabla: string; nombre: string; definicion: string }>(
      tx,
      sql`select c.relname as tabla, k.conname as nombre, pg_get_constraintdef(k.oid) as definicion
          from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
          where k.contype = 'f' and n.nspname = 'public'`,
    );
    for (const f of foraneas) await tx.execute(sql.raw(`alter table ${ident(f.tabla)} drop constraint ${ident(f.nombre)}`));
    await cargar({
      async tabla(nombre, lineas) {
        const t = porNombre.get(nombre);
        if (!t) throw new Error(`the backup has a table this version does not: ${nombre}`);
        const cols = t.columnas.map(ident).join(', ');
        let lote: string[] = [];
        let total = 0;
        const insertar = async () => {
          if (lote.length === 0) return;
          await tx.execute(
            sql`${sql.raw(`insert into ${ident(nombre)} (${cols}) overriding system value select ${cols} from json_populate_recordset(null::${ident(nombre)}, `)}${`[${lote.join(',')}]`}::json)`,
          );
          total += lote.length;
          lote = [];
        };
        for await (const linea of lineas) {
          if (linea === '') continue;
          lote.push(linea);
          if (lote.length >= LOTE) await insertar();
        }
        await insertar();
        return total;
      },
    });
    for (const f of foraneas) await tx.execute(sql.raw(`alter table ${ident(f.tabla)} add constraint ${ident(f.nombre)} ${f.definicion}`));
    // The comment counters' triggers (drizzle/0020) counted each comment again as it went in, or
    // not at all when it came before its item: every counter is set from the rows.
    await tx.execute(sql`select public.recontar_comentarios()`);
    const secuencias = await filasDe<{ tabla: string; columna: string; secuencia: string }>(
      tx,
      sql`select table_name as tabla, column_name as columna,
                 pg_get_serial_sequence(quote_ident(table_name), column_name) as secuencia
          from information_schema.columns
          where table_schema = 'public' and pg_get_serial_sequence(quote_ident(table_name), column_name) is not null`,
    );
    for (const s of secuencias) {
      const t = ident(s.tabla);
      const c = ident(s.columna);
      await tx.execute(
        sql.raw(`select setval('${s.secuencia.replaceAll("'", "''")}', coalesce(max(${c}), 1), max(${c}) is not null) from ${t}`),
      );
    }
  });
}
