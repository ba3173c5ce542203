/**
 * The home (issue 21): 'Desde tu última visita' (what is new since the person's previous visit)
 * and 'Novedades para ti' (the newest capsules, materials and manuals of their profile's areas and
 * levels, the forum conversations with recent activity, their unread notifications). Everything
 * is what the person may open: the lists' visibility rules (visibleA, ready capsules, active
 * categories), a few rows per block, each query limited and in parallel.
 */
import { and, type Column, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { cacheDeLecturas } from '../db/cache.server.ts';
import { calificada } from '../db/fragmentos.server.ts';
import {
  areas,
  capsulas,
  foroCategorias,
  foroComentarios,
  foroConversaciones,
  ingresos,
  manuales,
  materiales,
  niveles,
  notificaciones,
  perfilAreas,
  perfilNiveles,
  usuarios,
  visitasInicio,
} from '../db/schema.server.ts';
import { type Actor, esAdmin } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';
import { autoresConOcultos, createConversacionesActivas, type ItemConversacion } from './inicio/actividad.server.ts';
import { type Cuentas, createCuentas } from './inicio/cuentas.server.ts';
import { type Contenido, createRecientes, type FilaReciente } from './inicio/recientes.server.ts';
import { siguienteVisita } from './inicio/visitas.server.ts';
import type { EntradaNotificacion, NotificacionesService } from './notificaciones.server.ts';
import { visibleA } from './recursos.server.ts';
import { areasDelPerfil, nivelesDelPerfil } from './usuarios.server.ts';

export type { ItemConversacion } from './inicio/actividad.server.ts';
export { CUENTA_TOPE, type Cuentas } from './inicio/cuentas.server.ts';
export { REFRESCO_VISITA_MS, siguienteVisita, VISITA_MS } from './inicio/visitas.server.ts';

const MINUTO_MS = 60 * 1000;
const DIA_MS = 24 * 60 * MINUTO_MS;

/** Rows per block. */
export const FILAS_BLOQUE = 4;
/** A first visit ever counts what is this recent. */
export const PRIMERA_VISITA_DIAS = 7;
export interface Area {
  id: number;
  nombre: string;
}
export interface Nivel {
  codigo: string;
  nombre: string;
}

/** A capsule, material or manual as a row of a block. */
export interface ItemContenido {
  id: number;
  titulo: string;
  href: string;
  area: string;
  /** Manuals have no level. */
  nivel: string | null;
  fecha: string;
}

/**
 * What a block shows: the profile's (`perfil`), nothing of the profile so the network's newest
 * (`sin_coincidencias`), or everything because the profile has nothing to filter by (`todo`).
 */
export type Alcance = 'perfil' | 'sin_coincidencias' | 'todo';

export interface Bloque {
  alcance: Alcance;
  items: ItemContenido[];
}

/** What the cache keeps of a person's home for one visit. */
type Novedades = Omit<Inicio, 'visita' | 'notificaciones'> & { cuentas: Cuentas };

export interface Inicio {
  visita: {
    /** The previous visit's last opening; null on a first visit ever. */
    anterior: string | null;
    /** Since when the counts go: `anterior`, or PRIMERA_VISITA_DIAS ago on a first visit. */
    desde: string;
    cuentas: Cuentas;
  };
  perfil: { areas: Area[]; niveles: Nivel[] };
  capsulas: Bloque;
  materiales: Bloque;
  manuales: Bloque;
  conversaciones: ItemConversacion[];
  notificaciones: { no_leidas: number; items: EntradaNotificacion[] };
}

export function createInicioService(ctx: ServiceContext, deps: { notificaciones: NotificacionesService }) {
  const { db } = ctx;

  /**
   * The profile's condition on a column: its areas' ids or levels' codes as a list the planner can
   * see (issue 36: a subquery made it walk back through every row for a rare area and level); none
   * when the profile has none of that kind.
   */
  const delPerfil = <T>(columna: Column, valores: T[]) => (valores.length > 0 ? inArray(columna, valores) : undefined);

  const capsulasVisibles = (actor: Actor) => and(eq(capsulas.estado, 'listo'), visibleA(actor, capsulas));

  /** The three kinds of content as the blocks and counts read them: where they are seen, what they may show. */
  const contenidos = {
    capsulas: { tabla: capsulas, nivel: capsulas.codigo_nivel, ruta: '/capsulas/', visibles: capsulasVisibles },
    materiales: {
      tabla: materiales,
      nivel: materiales.codigo_nivel,
      ruta: '/biblioteca-docente/',
      visibles: (actor: Actor) => visibleA(actor, materiales),
    },
    manuales: { tabla: manuales, nivel: null, ruta: '/manuales/', visibles: (actor: Actor) => visibleA(actor, manuales) },
  } as const;

  /** A block's row as read with its area's and level's names. */
  const comoFila = (ruta: string, f: Omit<FilaReciente, 'href' | 'fecha'> & { fecha: Date }): FilaReciente => ({
    ...f,
    href: `${ruta}${f.id}`,
    fecha: f.fecha.toISOString(),
  });

  /** The newest of a kind this person may open, within `filtro`: a block's rows, or a shared list's (`limite`). */
  async function leerContenido(tipo: Contenido, actor: Actor, filtro?: SQL, limite = FILAS_BLOQUE): Promise<FilaReciente[]> {
    const { tabla, nivel, ruta, visibles } = contenidos[tipo];
    const filas = await db
      .select({
        id: tabla.id,
        titulo: tabla.titulo,
        area: areas.nombre,
        nivel: nivel ? niveles.nombre : sql<null>`null`,
        fecha: tabla.fecha_creacion,
        id_area: tabla.id_area,
        codigo_nivel: nivel ?? sql<null>`null`,
        id_usuario: tabla.id_usuario,
      })
      .from(tabla)
      .innerJoin(areas, eq(areas.id, tabla.id_area))
      // Manuals have no level: their join finds no row, and the level reads null.
      .leftJoin(niveles, nivel ? eq(niveles.codigo, nivel) : sql`false`)
      .where(and(visibles(actor), filtro))
      .orderBy(desc(tabla.fecha_creacion), desc(tabla.id))
      .limit(limite);
    return filas.map((f) => comoFila(ruta, f));
  }

  /**
   * The newest `porCelda` of a kind this person may open in every area and level (every area, for
   * manuals), newest first: a block of up to `porCelda` rows of any profile is the first of them
   * within it. One probe of the kind's area and level index per pair of the catalogues (308 today).
   */
  async function leerCeldas(tipo: Contenido, actor: Actor, porCelda: number): Promise<FilaReciente[]> {
    const { tabla, nivel, ruta, visibles } = contenidos[tipo];
    const ultimas = db
      .select({ id: tabla.id, titulo: tabla.titulo, fecha: tabla.fecha_creacion, id_usuario: tabla.id_usuario })
      .from(tabla)
      .where(and(eq(tabla.id_area, areas.id), nivel ? eq(nivel, niveles.codigo) : undefined, visibles(actor)))
      .orderBy(desc(tabla.fecha_creacion), desc(tabla.id))
      .limit(porCelda)
      .as('ultimas');
    const filas = await db
      .select({
        id: ultimas.id,
        titulo: ultimas.titulo,
        area: areas.nombre,
        nivel: nivel ? niveles.nombre : sql<null>`null`,
        fecha: ultimas.fecha,
        id_area: areas.id,
        codigo_nivel: nivel ? niveles.codigo : sql<null>`null`,
        id_usuario: ultimas.id_usuario,
      })
      .from(areas)
      // Every level with every area; for manuals, which have none, one row of nulls per area.
      .leftJoin(niveles, nivel ? sql`true` : sql`false`)
      .crossJoinLateral(ultimas)
      .orderBy(desc(ultimas.fecha), desc(ultimas.id));
    return filas.map((f) => comoFila(ruta, f));
  }
  const recientes = createRecientes({
    db,
    now: ctx.now,
    leer: (tipo, actor, limite) => leerContenido(tipo, actor, undefined, limite),
    leerCeldas,
  });
  /** Whoever has a hidden conversation of their own: the forum's block and counts are then theirs alone. */
  const foroOcultos = autoresConOcultos(db, ctx.now, foroConversaciones, foroConversaciones.id_usuario_creador);
  const desdeLaVisita = createCuentas({ db, now: ctx.now, foroOcultos, contenidos, recientes });
  const conversacionesActivas = createConversacionesActivas(ctx, FILAS_BLOQUE, foroOcultos);

  /**
   * A block: the newest of a kind within the profile (`areas`, `niveles`; none of a kind means any),
   * from the shared newest of every area and level, else (a person with hidden items of their own)
   * from the database.
   */
  async function bloqueDe(tipo: Contenido, actor: Actor, idsAreas: number[] = [], codigosNiveles: string[] = []): Promise<ItemContenido[]> {
    const { tabla, nivel: columnaNivel } = contenidos[tipo];
    // Manuals have no level: only their areas filter them.
    const delNivel = columnaNivel ? codigosNiveles : [];
    const dentro = (f: FilaReciente) =>
      (idsAreas.length === 0 || idsAreas.includes(f.id_area)) && (delNivel.length === 0 || delNivel.includes(f.codigo_nivel ?? ''));
    const filas =
      (await recientes.bloque(tipo, actor, dentro, FILAS_BLOQUE)) ??
      (await leerContenido(
        tipo,
        actor,
        and(delPerfil(tabla.id_area, idsAreas), columnaNivel ? delPerfil(columnaNivel, delNivel) : undefined),
      ));
    return filas.map((f) => ({ id: f.id, titulo: f.titulo, href: f.href, area: f.area, nivel: f.nivel, fecha: f.fecha }));
  }

  /**
   * Records this opening, when it changes anything (siguienteVisita), on the row as it was read:
   * of two openings at once, the second finds it changed and writes nothing.
   */
  async function visitar(
    idUsuario: number,
    leida: { visita_ultima: Date | null; visita_anterior: Date | null },
    siguiente: ReturnType<typeof siguienteVisita>,
  ) {
    if (!siguiente.escribir) return;
    const valores = { id: idUsuario, ultima: siguiente.visita_ultima, anterior: siguiente.visita_anterior };
    if (!leida.visita_ultima) await primeraVisita.execute(valores);
    else await otraVisita.execute({ ...valores, leida: leida.visita_ultima });
  }
  /**
   * The visit's two writes, prepared once (issue 36): a first opening of the home writes one of them.
   * The times go to the driver as they are (a Date, or null), not through the column's encoder, which takes no null.
   */
  const nuevos = { visita_ultima: sql`${sql.placeholder('ultima')}`, visita_anterior: sql`${sql.placeholder('anterior')}` };
  const primeraVisita = db
    .insert(visitasInicio)
    .values({ id_usuario: sql.placeholder('id'), ...nuevos })
    .onConflictDoNothing()
    .prepare('inicio_primera_visita');
  const otraVisita = db
    .update(visitasInicio)
    .set(nuevos)
    .where(and(eq(visitasInicio.id_usuario, sql.placeholder('id')), eq(visitasInicio.visita_ultima, sql.placeholder('leida'))))
    .prepare('inicio_otra_visita');

  /** Whether the profile has anything to filter this kind of content by. */
  const alcance = (filtra: boolean, items: ItemContenido[]): Alcance =>
    !filtra ? 'todo' : items.length > 0 ? 'perfil' : 'sin_coincidencias';

  /** The newest content of each kind within the profile's areas and levels. */
  async function leerContenidoDelPerfil(actor: Actor, { areas: susAreas, niveles: susNiveles }: Inicio['perfil']) {
    const [idsAreas, codigosNiveles] = [susAreas.map((a) => a.id), susNiveles.map((n) => n.codigo)];
    const [cap, mat, man] = await Promise.all([
      bloqueDe('capsulas', actor, idsAreas, codigosNiveles),
      bloqueDe('materiales', actor, idsAreas, codigosNiveles),
      bloqueDe('manuales', actor, idsAreas),
    ]);
    return { cap, mat, man };
  }

  /** Everything of the home but the visit and the notifications: what a reload within a visit reads again from the cache. */
  async function leerNovedades(actor: Actor, desde: Date, perfil: Inicio['perfil']): Promise<Novedades> {
    const { areas: susAreas, niveles: susNiveles } = perfil;
    const [{ cap, mat, man }, conversaciones, cuentas] = await Promise.all([
      leerContenidoDelPerfil(actor, perfil),
      conversacionesActivas.leer(actor),
      desdeLaVisita.contar(actor, desde),
    ]);
    const conPerfil = susAreas.length > 0 || susNiveles.length > 0;
    // Nothing of the profile in a block: the network's newest there instead.
    const [redCapsulas, redMateriales, redManuales] = await Promise.all([
      conPerfil && cap.length === 0 ? bloqueDe('capsulas', actor) : cap,
      conPerfil && mat.length === 0 ? bloqueDe('materiales', actor) : mat,
      susAreas.length > 0 && man.length === 0 ? bloqueDe('manuales', actor) : man,
    ]);
    return {
      cuentas,
      perfil,
      capsulas: { alcance: alcance(conPerfil, cap), items: redCapsulas },
      materiales: { alcance: alcance(conPerfil, mat), items: redMateriales },
      manuales: { alcance: alcance(susAreas.length > 0, man), items: redManuales },
      conversaciones,
    };
  }

  /**
   * Per person and visit, read again after any write to the tables they come from (db/cambios;
   * within 2 s for another server's). Not `visitas_inicio`, which the visit itself writes: a reload
   * reads one row and finds the rest here.
   */
  const novedades = cacheDeLecturas<Novedades>(db, {
    tablas: [
      capsulas,
      materiales,
      manuales,
      areas,
      niveles,
      foroCategorias,
      foroConversaciones,
      foroComentarios,
      perfilAreas,
      perfilNiveles,
    ],
    // The capsules', materials' and manuals' blocks show none of their views or comments, which
    // every counted view and comment moves: those keep the entries.
    sinContadores: [capsulas, materiales, manuales],
    segundos: 2,
    max: 5_000,
    now: ctx.now,
  });
  /** The unread notifications, as the bell's count: until the table changes. The actors' names may lag a renaming by minutes. */
  const avisos = cacheDeLecturas<Inicio['notificaciones']>(db, { tablas: [notificaciones], segundos: 2, max: 5_000, now: ctx.now });
  const leerAvisos = (idUsuario: number) =>
    avisos.leer(String(idUsuario), async () => {
      const lista = await deps.notificaciones.listar(idUsuario, { no_leidas: true, pagina: 1 });
      return { no_leidas: lista.no_leidas, items: lista.notificaciones.slice(0, FILAS_BLOQUE) };
    });

  /**
   * Prepared once (issue 36): the person's visit row, if any, their latest sign-in as the sign-in
   * records it (the console's 'Último ingreso'), and their profile's areas and levels.
   */
  const leerVisita = db
    .select({
      visita_ultima: visitasInicio.visita_ultima,
      visita_anterior: visitasInicio.visita_anterior,
      ingreso:
        sql`(select max(${calificada(ingresos.fecha)}) from ${ingresos} where ${calificada(ingresos.id_usuario)} = ${calificada(usuarios.id)})`.mapWith(
          ingresos.fecha,
        ),
      areas: areasDelPerfil<Area>(
        sql`json_build_object('id', ${calificada(areas.id)}, 'nombre', ${calificada(areas.nombre)})`,
        usuarios.id,
      ),
      niveles: nivelesDelPerfil<Nivel>(
        sql`json_build_object('codigo', ${calificada(niveles.codigo)}, 'nombre', ${calificada(niveles.nombre)})`,
        usuarios.id,
      ),
    })
    .from(usuarios)
    .leftJoin(visitasInicio, eq(visitasInicio.id_usuario, usuarios.id))
    .where(eq(usuarios.id, sql.placeholder('id')))
    .prepare('inicio_visita');

  return {
    /** The home of this person, recording the opening as a visit. */
    async abrir(actor: Actor): Promise<Inicio> {
      const ahora = ctx.now();
      const [fila] = await leerVisita.execute({ id: actor.id });
      const leida = { visita_ultima: fila?.visita_ultima ?? null, visita_anterior: fila?.visita_anterior ?? null };
      const siguiente = siguienteVisita(leida, ahora, fila?.ingreso ?? null);
      const anterior = siguiente.visita_anterior;
      // A first visit counts from 7 days before this minute: reloads within it share the cached counts.
      const desde = anterior ?? new Date(Math.floor(ahora.getTime() / MINUTO_MS) * MINUTO_MS - PRIMERA_VISITA_DIAS * DIA_MS);
      const clave = `${actor.id}|${esAdmin(actor) ? 'admin' : ''}|${desde.toISOString()}`;
      const [contenido, avisosNoLeidos] = await Promise.all([
        novedades.leer(clave, () => leerNovedades(actor, desde, { areas: fila?.areas ?? [], niveles: fila?.niveles ?? [] })),
        leerAvisos(actor.id),
        visitar(actor.id, leida, siguiente),
      ]);
      const { cuentas, ...bloques } = contenido;
      return {
        visita: { anterior: anterior?.toISOString() ?? null, desde: desde.toISOString(), cuentas },
        ...bloques,
        notificaciones: avisosNoLeidos,
      };
    },
  };
}

export type InicioService = ReturnType<typeof createInicioService>;
