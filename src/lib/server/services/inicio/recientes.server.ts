/**
 * The home's capsules, materials and manuals (issue 36): its blocks and its 'Desde tu última visita'
 * counts, taken from lists shared by a group of people instead of a few statements per person.
 *
 * A group sees the same items: admins (every ready capsule, every material and manual), and every
 * teacher with no hidden item of that kind of their own (hidden items are their author's and
 * admins' only; the group's lists are read as nobody's, so an item of theirs hidden in between
 * never reaches the others). Each kind has its own lists, read once per group until that kind's
 * table changes (its counters aside: they show in none of them; 2 s for another server's writes).
 * A person with hidden items of their own reads from the database, as everyone once did.
 *
 * - Blocks: the newest rows of every area and level (`celdas`), so the newest within any profile
 *   are among them, whatever the rest of the network wrote since. At 100x, with the newest 200 of
 *   all instead, 197 of 200 teachers found too few of their one area and level there.
 * - Counts: the newest RECIENTES_INICIO rows, counted down to the person's previous visit; where
 *   the list ends first (and does not hold everything), the caller asks the database.
 */
import { cacheDeLecturas } from '../../db/cache.server.ts';
import type { Db } from '../../db/client.server.ts';
import { areas, capsulas, manuales, materiales, niveles } from '../../db/schema.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import type { ItemContenido } from '../inicio.server.ts';
import { autoresConOcultos, NADIE } from './actividad.server.ts';

/** Rows per shared list of the counts: counts up to 100 are most often found in them. */
export const RECIENTES_INICIO = 200;

export type Contenido = 'capsulas' | 'materiales' | 'manuales';

/** A row of a block, with what the profile and the counts filter it by. */
export interface FilaReciente extends ItemContenido {
  id_area: number;
  codigo_nivel: string | null;
  id_usuario: number;
}

interface Dependencias {
  db: Db;
  now: () => Date;
  /** The newest `limite` rows of a kind that `actor` may open, newest first: the blocks' own query. */
  leer: (tipo: Contenido, actor: Actor, limite: number) => Promise<FilaReciente[]>;
  /** The newest `porCelda` rows of every area and level that `actor` may open, newest first. */
  leerCeldas: (tipo: Contenido, actor: Actor, porCelda: number) => Promise<FilaReciente[]>;
}

const TABLAS = { capsulas, materiales, manuales } as const;

/** A row of a shared list as a count reads it: when (as toISOString() writes it), and by whom. */
export type FilaContada = Pick<FilaReciente, 'fecha' | 'id_usuario'>;

/**
 * How many rows of a shared list (newest first) others than `idUsuario` wrote after `desde`, up to
 * `tope`; undefined when the list ends before it can tell, unless it is `completa` (it holds every
 * row there is, not only as many as it may).
 */
export function contarDesde(lista: readonly FilaContada[], desde: Date, idUsuario: number, tope: number, completa: boolean) {
  // The rows' dates are toISOString()'s, whose order as text is their order in time: no parsing per row.
  const hasta = desde.toISOString();
  let n = 0;
  for (const f of lista) {
    if (f.fecha <= hasta) return n;
    if (f.id_usuario !== idUsuario && ++n === tope) return n;
  }
  return completa ? n : undefined;
}

export function createRecientes({ db, now, leer, leerCeldas }: Dependencias) {
  // Per kind: a new material re-reads the materials' lists, not the capsules' or the manuals'.
  const porTipo = (tipo: Contenido) => {
    const tabla = TABLAS[tipo];
    // Their rows hold no views or comments, which counted views and comments move all day.
    const opciones = { segundos: 2, now, tablas: [tabla, areas, niveles], sinContadores: [tabla] };
    return {
      listas: cacheDeLecturas<FilaReciente[]>(db, { ...opciones, max: 2 }),
      celdas: cacheDeLecturas<FilaReciente[]>(db, { ...opciones, max: 4 }),
      autoresOcultos: autoresConOcultos(db, now, tabla, tabla.id_usuario),
    };
  };
  const caches = { capsulas: porTipo('capsulas'), materiales: porTipo('materiales'), manuales: porTipo('manuales') };

  /** Who reads with this person: the admins, everyone, or nobody (their own hidden items). */
  async function grupo(tipo: Contenido, actor: Actor): Promise<{ clave: string; como: Actor } | undefined> {
    if (esAdmin(actor)) return { clave: 'admin', como: actor };
    if ((await caches[tipo].autoresOcultos()).has(actor.id)) return undefined;
    return { clave: 'todos', como: NADIE };
  }

  /** The newest RECIENTES_INICIO rows this person's group may open; none for a person of their own. */
  async function lista(tipo: Contenido, actor: Actor): Promise<FilaReciente[] | undefined> {
    const g = await grupo(tipo, actor);
    return g && caches[tipo].listas.leer(g.clave, () => leer(tipo, g.como, RECIENTES_INICIO));
  }

  return {
    /** The newest `filas` rows within `dentro` (a profile: areas and levels); undefined for a person of their own. */
    async bloque(tipo: Contenido, actor: Actor, dentro: (f: FilaReciente) => boolean, filas: number) {
      const g = await grupo(tipo, actor);
      if (!g) return undefined;
      const celdas = await caches[tipo].celdas.leer(`${g.clave} ${filas}`, () => leerCeldas(tipo, g.como, filas));
      const elegidas: FilaReciente[] = [];
      for (const f of celdas) {
        if (!dentro(f)) continue;
        elegidas.push(f);
        if (elegidas.length === filas) break;
      }
      return elegidas;
    },

    /** How many rows others wrote after `desde`, up to `tope`; undefined when the list cannot tell. */
    async cuenta(tipo: Contenido, actor: Actor, desde: Date, tope: number) {
      const l = await lista(tipo, actor);
      return l && contarDesde(l, desde, actor.id, tope, l.length < RECIENTES_INICIO);
    },
  };
}
