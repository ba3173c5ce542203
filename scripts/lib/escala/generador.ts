/**
 * Issue 36 item 1: fills a fresh installation at a size of a region, straight through the database
 * layer (the server's own `openDatabase`, migrations and catalogue seed, then bulk inserts of
 * `unnest` arrays, 20,000 rows a statement), with a fixed seed. Size 1 is a school network (200
 * teachers, 2,000 materials, 400 capsules, 100 manuals, 20,000 comments, 2,000 conversations);
 * sizes 10 and 100 multiply every count. One material gets POPULARES comments whatever the size.
 *
 * No file is written: every material, manual and capsule points at the same storage key, which
 * the lists never read (their thumbnails come from keys derived from the id; a missing one is the
 * placeholder). Every generated teacher signs in with CLAVE_ESCALA.
 */
import { performance } from 'node:perf_hooks';
import { type SQL, sql } from 'drizzle-orm';
import { hashPassword } from '../../../src/lib/server/auth/password.server.ts';
import { filasDe, openDatabase } from '../../../src/lib/server/db/client.server.ts';
import { seedAdmin, seedCatalogos } from '../../../src/lib/server/db/seed.server.ts';
import { PRIVACIDAD_VERSION } from '../../../src/lib/validation/privacidad.ts';
import { crearAzar } from '../../../tests/fuzz/azar.ts';
import { ADMIN } from '../../../tests/support/server.ts';
import { APELLIDOS, COMUNAS, comentario, descripcion, NOMBRES, TEMAS, titulo, zipf } from './textos.ts';

export const CLAVE_ESCALA = 'Escala2026';
const SEMILLA = 36;
const POPULARES = 3000;
const LOTE = 20_000;
const DIA = 86_400_000;
/** Content spans three school years back from the generation. */
const HISTORIA_DIAS = 3 * 365;

export const correoDocente = (i: number) => `docente${i}@escala.example.cl`;

export interface Conteos {
  docentes: number;
  materiales: number;
  capsulas: number;
  manuales: number;
  comentarios: number;
  conversaciones: number;
  respuestas: number;
}

export const conteos = (tamano: number): Conteos => ({
  docentes: 200 * tamano,
  materiales: 2000 * tamano,
  capsulas: 400 * tamano,
  manuales: 100 * tamano,
  comentarios: 20_000 * tamano,
  conversaciones: 2000 * tamano,
  respuestas: 6000 * tamano,
});

/** What the measuring part needs to know about the generated data. */
export interface Generado {
  tamano: number;
  conteos: Conteos;
  segundos: number;
  /** The material with POPULARES comments. */
  popular: number;
  /** OAs and units by how many materials they have (the most used first). */
  oasPopulares: number[];
  oasRaros: number[];
  unidades: number[];
  areas: number[];
  categorias: number[];
}

/** The database or one of its transactions: all the generator runs. */
interface Ejecutor {
  execute(q: SQL): PromiseLike<unknown>;
}

type Tipo = 'text' | 'int4' | 'timestamptz' | 'bool' | 'float4';
type Columnas = Record<string, Tipo>;

/** `insert into tabla (cols) select * from unnest($1::t[], ...)`, LOTE rows at a time. */
async function volcar(db: Ejecutor, tabla: string, columnas: Columnas, filas: unknown[][]) {
  const nombres = Object.keys(columnas);
  for (let desde = 0; desde < filas.length; desde += LOTE) {
    const lote = filas.slice(desde, desde + LOTE);
    const arreglos: SQL[] = nombres.map((n, i) => sql`${sql.param(lote.map((f) => f[i]))}::${sql.raw(columnas[n] ?? 'text')}[]`);
    await db.execute(
      sql`insert into ${sql.identifier(tabla)} (${sql.raw(nombres.map((n) => `"${n}"`).join(', '))}) select * from unnest(${sql.join(arreglos, sql`, `)})`,
    );
  }
}

/**
 * Generates size `tamano` into the database at `destino` (a PGlite data directory, or a
 * PostgreSQL URL), which must be empty. `log` gets one line per table.
 */
export async function generar(
  tamano: number,
  destino: { pgliteDir: string } | { databaseUrl: string },
  log: (linea: string) => void = () => {},
): Promise<Generado> {
  const inicio = performance.now();
  const database = await openDatabase(destino);
  const { db } = database;
  try {
    await database.migrate();
    await seedCatalogos(db);
    await seedAdmin(db, ADMIN);
    const n = conteos(tamano);
    // One transaction: on PostgreSQL every statement then runs on the same connection, which the
    // setting below needs.
    const generado = await db.transaction(async (db) => {
      const r = crearAzar(SEMILLA + tamano);
      const ahora = Date.now();
      /** `cuantos` dates, oldest first, over the last HISTORIA_DIAS (ids follow dates, as in a real install). */
      const fechas = (cuantos: number) =>
        Array.from({ length: cuantos }, () => ahora - r.siguiente() * HISTORIA_DIAS * DIA)
          .sort((a, b) => a - b)
          .map((t) => new Date(t).toISOString());
      /** A table's ids, in order. */
      const ids = async (tabla: string) =>
        (await filasDe<{ id: number }>(db, sql`select id from ${sql.identifier(tabla)} order by id`)).map((x) => x.id);
      /** A view count: most items have few, a few have many. */
      const visitas = () => Math.floor(2000 / (1 + r.entero(0, 399)));
      /** A date between `desde` (an item's creation, ISO) and now: a comment on it. */
      const despuesDe = (desde: string | undefined) => {
        const t = Date.parse(desde ?? new Date(ahora).toISOString());
        return new Date(t + r.siguiente() * (ahora - t)).toISOString();
      };

      // The seeded curriculum, in a fixed order so the Zipf ranks are the same on both databases.
      const curriculo = await filasDe<{ id: number; unidad: number; area: number; nivel: string }>(
        db,
        sql`select o.id, u.id as unidad, u.id_area as area, u.codigo_nivel as nivel from oas o join unidades u on u.id = o.id_unidad where o.vigente order by o.codigo`,
      );
      // Shuffled so the most used OAs are spread over areas and levels.
      const oas = r.barajar(curriculo);
      const elegirOa = zipf(oas.length);
      const areas = await ids('areas');
      const niveles = (await filasDe<{ codigo: string }>(db, sql`select codigo from niveles order by orden`)).map((x) => x.codigo);
      const metodologias = await ids('metodologias');
      const tipos = await ids('tipos_material');
      // The generated rows are consistent by construction: foreign-key triggers are skipped while
      // loading (the way a restore loads), which is most of an insert's cost.
      await db.execute(sql`set local session_replication_role = replica`);
      // The big tables' secondary indexes (not keys) are built once after loading, as a restore
      // does: a bulk build is many times faster than growing them a row at a time (GIN above all).
      const indices = await filasDe<{ nombre: string; definicion: string }>(
        db,
        sql`select i.indexname as nombre, i.indexdef as definicion from pg_indexes i
            where i.schemaname = 'public' and i.tablename in ('materiales', 'materiales_oas', 'capsulas', 'manuales', 'comentarios', 'foro_conversaciones', 'foro_comentarios')
              and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      );
      for (const { nombre } of indices) await db.execute(sql`drop index ${sql.identifier(nombre)}`);
      const paso = (que: string, t0: number) => log(`  ${que}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

      // Teachers: one known password hash for all, the privacy notice accepted, a profile and a school.
      let t0 = performance.now();
      const hash = await hashPassword(CLAVE_ESCALA);
      const [primero] = await filasDe<{ id: number }>(db, sql`select coalesce(max(id), 0) + 1 as id from usuarios`);
      const base = Number(primero?.id ?? 2);
      const aceptada = new Date(ahora).toISOString();
      const fechasDocentes = fechas(n.docentes);
      await volcar(
        db,
        'usuarios',
        {
          id: 'int4',
          email: 'text',
          password_hash: 'text',
          activo: 'bool',
          primer_nombre: 'text',
          apellido_paterno: 'text',
          apellido_materno: 'text',
          privacidad_version: 'text',
          privacidad_aceptada_en: 'timestamptz',
          fecha_creacion: 'timestamptz',
        },
        fechasDocentes.map((f, i) => [
          base + i,
          correoDocente(i),
          hash,
          true,
          r.uno(NOMBRES),
          r.uno(APELLIDOS),
          r.uno(APELLIDOS),
          PRIVACIDAD_VERSION,
          aceptada,
          f,
        ]),
      );
      await db.execute(sql`select setval(pg_get_serial_sequence('usuarios', 'id'), (select max(id) from usuarios))`);
      const docentes = Array.from({ length: n.docentes }, (_, i) => base + i);
      await volcar(
        db,
        'perfiles_docentes',
        { id_usuario: 'int4', titulo_profesional: 'text' },
        docentes.map((id) => [id, 'Profesor/a de Educación Básica']),
      );
      const nColegios = Math.max(20, Math.round(n.docentes / 20));
      await volcar(
        db,
        'colegios',
        { nombre: 'text' },
        Array.from({ length: nColegios }, (_, i) => [`Escuela Básica N° ${i + 1} de ${COMUNAS[i % COMUNAS.length]}`]),
      );
      const colegios = await ids('colegios');
      await volcar(
        db,
        'perfil_colegios',
        { id_usuario: 'int4', id_colegio: 'int4' },
        docentes.map((id) => [id, r.uno(colegios)]),
      );
      await volcar(
        db,
        'perfil_areas',
        { id_usuario: 'int4', id_area: 'int4' },
        docentes.map((id) => [id, r.uno(areas)]),
      );
      await volcar(
        db,
        'perfil_niveles',
        { id_usuario: 'int4', codigo_nivel: 'text' },
        docentes.map((id) => [id, r.uno(niveles)]),
      );
      paso(`${n.docentes} teachers`, t0);

      // Materials, each with one to three OAs of its unit's pair, the first one Zipf-chosen. Items are
      // inserted after their comments are drawn, with their comment counters (drizzle/0020) set.
      const materiales: unknown[][] = [];
      const materialesOas: unknown[][] = [];
      const porUnidad = new Map<number, number[]>();
      for (const o of curriculo) porUnidad.set(o.unidad, [...(porUnidad.get(o.unidad) ?? []), o.id]);
      const fechasMateriales = fechas(n.materiales);
      for (let i = 0; i < n.materiales; i++) {
        const oa = oas[elegirOa(r)] as (typeof oas)[number];
        const tema = TEMAS[(oa.id * 7 + r.entero(0, 2)) % TEMAS.length] as string;
        materiales.push([
          titulo(r, tema),
          descripcion(r),
          'pdf',
          'escala/compartido.pdf',
          250_000 + r.entero(0, 3_999_999),
          1 + r.entero(0, 29),
          oa.area,
          oa.nivel,
          oa.unidad,
          r.uno(tipos),
          r.uno(docentes),
          visitas(),
          fechasMateriales[i],
        ]);
        const hermanos = (porUnidad.get(oa.unidad) ?? []).filter((x) => x !== oa.id);
        const extra = new Set([oa.id, ...Array.from({ length: r.entero(0, 2) }, () => (hermanos.length > 0 ? r.uno(hermanos) : oa.id))]);
        for (const idOa of extra) materialesOas.push([i + 1, idOa]);
      }

      const fechasCapsulas = fechas(n.capsulas);
      const columnasCapsulas: Columnas = {
        titulo: 'text',
        descripcion: 'text',
        extension: 'text',
        archivo: 'text',
        tamano: 'int4',
        estado: 'text',
        duracion: 'float4',
        n_visitas: 'int4',
        id_area: 'int4',
        codigo_nivel: 'text',
        id_metodologia: 'int4',
        id_usuario: 'int4',
        fecha_creacion: 'timestamptz',
      };
      const capsulasFilas = fechasCapsulas.map((f) => {
        const oa = oas[elegirOa(r)] as (typeof oas)[number];
        return [
          titulo(r, r.uno(TEMAS)),
          descripcion(r),
          'mp4',
          'escala/compartido.mp4',
          5_000_000,
          'listo',
          60 + r.entero(0, 599),
          visitas(),
          oa.area,
          oa.nivel,
          r.uno(metodologias),
          r.uno(docentes),
          f,
        ];
      });
      const fechasManuales = fechas(n.manuales);
      const columnasManuales: Columnas = {
        titulo: 'text',
        autor: 'text',
        descripcion: 'text',
        extension: 'text',
        archivo: 'text',
        tamano: 'int4',
        paginas: 'int4',
        id_area: 'int4',
        id_usuario: 'int4',
        n_visitas: 'int4',
        fecha_creacion: 'timestamptz',
      };
      const manualesFilas = fechasManuales.map((f) => [
        `Manual de ${r.uno(TEMAS)}`,
        'Ministerio de Educación',
        descripcion(r),
        'pdf',
        'escala/compartido.pdf',
        1_000_000,
        40 + r.entero(0, 199),
        r.uno(areas),
        r.uno(docentes),
        visitas(),
        f,
      ]);

      // Comments: POPULARES on the popular material, the rest Zipf over each kind's items; a quarter
      // are replies to an earlier comment of the same item. Ids are the row numbers (a fresh table).
      const popular = Math.max(1, n.materiales - 5);
      const elegir = { material: zipf(n.materiales), capsula: zipf(n.capsulas), manual: zipf(n.manuales) };
      const fechaDe = { material: fechasMateriales, capsula: fechasCapsulas, manual: fechasManuales };
      const ultimoBase = new Map<string, number>();
      const comentarios: unknown[][] = [];
      for (let i = 0; i < n.comentarios; i++) {
        const x = r.siguiente();
        const tipo = i < POPULARES ? 'material' : x < 0.7 ? 'material' : x < 0.9 ? 'capsula' : 'manual';
        const cuantos = tipo === 'material' ? n.materiales : tipo === 'capsula' ? n.capsulas : n.manuales;
        // Rank 0 is the newest item: recent items get the most comments.
        const id = i < POPULARES ? popular : cuantos - elegir[tipo](r);
        const clave = `${tipo}${id}`;
        const padre = ultimoBase.get(clave);
        const respuesta = padre !== undefined && r.siguiente() < 0.25 ? padre : null;
        if (respuesta === null) ultimoBase.set(clave, i + 1);
        const fecha = despuesDe(fechaDe[tipo][id - 1]);
        comentarios.push([
          comentario(r),
          r.uno(docentes),
          respuesta,
          tipo === 'capsula' ? id : null,
          tipo === 'material' ? id : null,
          tipo === 'manual' ? id : null,
          fecha,
        ]);
      }
      // Every generated comment is counted (none is deleted or hidden): each item's count, by id.
      const cuentas = (cuantos: number, columna: number) => {
        const porItem = new Array<number>(cuantos).fill(0);
        for (const c of comentarios) if (typeof c[columna] === 'number') porItem[c[columna] - 1] = (porItem[c[columna] - 1] ?? 0) + 1;
        return porItem;
      };
      const cuenta = { capsula: cuentas(n.capsulas, 3), material: cuentas(n.materiales, 4), manual: cuentas(n.manuales, 5) };
      t0 = performance.now();
      await volcar(
        db,
        'materiales',
        {
          titulo: 'text',
          descripcion: 'text',
          extension: 'text',
          archivo: 'text',
          tamano: 'int4',
          paginas: 'int4',
          id_area: 'int4',
          codigo_nivel: 'text',
          id_unidad: 'int4',
          id_tipo_material: 'int4',
          id_usuario: 'int4',
          n_visitas: 'int4',
          fecha_creacion: 'timestamptz',
          n_comentarios: 'int4',
        },
        materiales.map((m, i) => [...m, cuenta.material[i]]),
      );
      await volcar(db, 'materiales_oas', { id_material: 'int4', id_oa: 'int4' }, materialesOas);
      paso(`${n.materiales} materials (${materialesOas.length} OA links)`, t0);
      t0 = performance.now();
      const conCuenta = (filas: unknown[][], cuentas: number[]) => filas.map((f, i) => [...f, cuentas[i]]);
      await volcar(db, 'capsulas', { ...columnasCapsulas, n_comentarios: 'int4' }, conCuenta(capsulasFilas, cuenta.capsula));
      await volcar(db, 'manuales', { ...columnasManuales, n_comentarios: 'int4' }, conCuenta(manualesFilas, cuenta.manual));
      paso(`${n.capsulas} capsules, ${n.manuales} manuals`, t0);
      t0 = performance.now();
      await volcar(
        db,
        'comentarios',
        {
          contenido: 'text',
          id_usuario: 'int4',
          id_respuesta_comentario: 'int4',
          id_capsula: 'int4',
          id_material: 'int4',
          id_manual: 'int4',
          fecha_creacion: 'timestamptz',
        },
        comentarios,
      );
      paso(`${n.comentarios} comments`, t0);

      // The forum: eight active categories, conversations and their replies (a third answer a reply).
      t0 = performance.now();
      const nombresCategorias = [
        'Matemática en el aula',
        'Lenguaje y lectura',
        'Ciencias',
        'Historia y ciudadanía',
        'Convivencia escolar',
        'Evaluación',
        'Inclusión',
        'Tecnología educativa',
      ];
      await volcar(
        db,
        'foro_categorias',
        { nombre: 'text', descripcion: 'text', activa: 'bool', archivo: 'text' },
        nombresCategorias.map((c) => [c, `Conversaciones sobre ${c.toLowerCase()}.`, true, 'escala/compartido.png']),
      );
      const categorias = await ids('foro_categorias');
      const fechasConversaciones = fechas(n.conversaciones);
      const columnasConversaciones: Columnas = {
        id_categoria: 'int4',
        id_usuario_creador: 'int4',
        titulo: 'text',
        contenido: 'text',
        n_visitas: 'int4',
        fecha_creacion: 'timestamptz',
      };
      const conversacionesFilas = fechasConversaciones.map((f) => [
        r.uno(categorias),
        r.uno(docentes),
        `¿Cómo trabajan ${r.uno(TEMAS)}?`,
        `<p>${descripcion(r)}</p>`,
        r.entero(0, 499),
        f,
      ]);
      const elegirConversacion = zipf(n.conversaciones);
      const respuestas: unknown[][] = [];
      const ultimaRespuesta = new Map<number, number>();
      for (let i = 0; i < n.respuestas; i++) {
        const id = n.conversaciones - elegirConversacion(r);
        const padre = ultimaRespuesta.get(id);
        const hijo = padre !== undefined && r.siguiente() < 0.33 ? padre : null;
        if (hijo === null) ultimaRespuesta.set(id, i + 1);
        respuestas.push([id, r.uno(docentes), hijo, `<p>${comentario(r)}</p>`, despuesDe(fechasConversaciones[id - 1])]);
      }
      const porConversacion = new Array<number>(n.conversaciones).fill(0);
      for (const [id] of respuestas) porConversacion[(id as number) - 1] = (porConversacion[(id as number) - 1] ?? 0) + 1;
      await volcar(
        db,
        'foro_conversaciones',
        { ...columnasConversaciones, n_comentarios: 'int4' },
        conversacionesFilas.map((f, i) => [...f, porConversacion[i]]),
      );
      await volcar(
        db,
        'foro_comentarios',
        { id_conversacion: 'int4', id_usuario: 'int4', comentario_padre: 'int4', contenido: 'text', fecha_creacion: 'timestamptz' },
        respuestas,
      );
      paso(`${n.conversaciones} conversations, ${n.respuestas} replies`, t0);

      const t1 = performance.now();
      for (const { definicion } of indices) await db.execute(sql.raw(definicion));
      paso(`${indices.length} indexes built`, t1);
      const usoOas = new Map<number, number>();
      for (const [, idOa] of materialesOas) usoOas.set(idOa as number, (usoOas.get(idOa as number) ?? 0) + 1);
      const porUso = [...usoOas.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
      const unidadesUsadas = [...new Set(materiales.map((m) => m[8] as number))].sort((a, b) => a - b);
      return {
        tamano,
        conteos: n,
        popular,
        oasPopulares: porUso.slice(0, 20),
        oasRaros: porUso.slice(-50),
        unidades: unidadesUsadas,
        areas,
        categorias,
      };
    });
    // What a database that has been running looks like: the visibility map set, so index-only
    // scans (the map's counts) skip the table's pages, as PostgreSQL's autovacuum and PGlite's
    // nightly upkeep (decision 0080) leave it; then statistics. VACUUM reads through a small ring of
    // buffers and leaves the cache cold, while ANALYZE's sample reads through the cache: run alone,
    // `vacuum (analyze)` made each query's first requests read from disk (materials page 1 at 100x
    // on PostgreSQL: p95 109 to 986-1,376 ms), a cache no server that has been running has.
    const t0 = performance.now();
    await db.execute(sql`vacuum`);
    await db.execute(sql`analyze`);
    log(`  vacuum, analyze: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return { ...generado, segundos: (performance.now() - inicio) / 1000 };
  } finally {
    await database.close();
  }
}
