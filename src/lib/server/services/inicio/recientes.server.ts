/**
 * The home's capsules, materials and manuals (issue 36): its blocks and its 'Desde tu última visita'
 * counts, taken from one shared list per kind instead of a few statements per person.
 *
 * The list is the newest RECIENTES_INICIO items of a kind as a group of people sees them: admins
 * (every ready capsule, every material and manual), and every teacher with no hidden item of that
 * kind of their own (hidden items are their author's and admins' only, so those teachers see the
 * same items; the list is read as nobody's, so an item of theirs hidden in between never reaches
 * the others). Each kind has its own lists, read once per group until that kind's table changes
 * (2 s for another server's writes). A person's block is the first rows of the list within their
 * profile, and a count the rows newer than their previous visit that others wrote.
 *
 * Exact, or no answer: when the list ends (it holds RECIENTES_INICIO rows) before the block has its
 * rows or before the count reaches the visit, the caller asks the database as before; so does a
 * person with hidden items of their own. At 200 teachers opening their home, that was eight
 * statements each.
 */
import { cacheDeLecturas } from '../../db/cache.server.ts';
import type { Db } from '../../db/client.server.ts';
import { areas, capsulas, manuales, materiales, niveles } from '../../db/schema.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import type { ItemContenido } from '../inicio.server.ts';
import { autoresConOcultos, NADIE } from './actividad.server.ts';

/** Rows per shared list: a block of 4 within a profile, and counts up to 100, are most often found in them. */
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
}

const TABLAS = { capsulas, materiales, manuales } as const;

/** A row of a shared list as a count reads it: when, and by whom. */
export type FilaContada = Pick<FilaReciente, 'fecha' | 'id_usuario'>;

/**
 * How many rows of a shared list (newest first) others than `idUsuario` wrote after `desde`, up to
 * `tope`; undefined when the list ends before it can tell, unless it is `completa` (it holds every
 * row there is, not only as many as it may).
 */
export function contarDesde(lista: readonly FilaContada[], desde: Date, idUsuario: number, tope: number, completa: boolean) {
  let n = 0;
  for (const f of lista) {
    if (Date.parse(f.fecha) <= desde.getTime()) return n;
    if (f.id_usuario !== idUsuario && ++n === tope) return n;
  }
  return completa ? n : undefined;
}

export function createRecientes({ db, now, leer }: Dependencias) {
  // Per kind: a new material re-reads the materials' lists, not the capsules' or the manuals'.
  const porTipo = (tipo: Contenido) => {
    const tabla = TABLAS[tipo];
    return {
      listas: cacheDeLecturas<FilaReciente[]>(db, {
        segundos: 2,
        now,
        tablas: [tabla, areas, niveles],
        // Their rows hold no views or comments, which counted views and comments move all day.
        sinContadores: [tabla],
        max: 2,
      }),
      autoresOcultos: autoresConOcultos(db, now, tabla, tabla.id_usuario),
    };
  };
  const caches = { capsulas: porTipo('capsulas'), materiales: porTipo('materiales'), manuales: porTipo('manuales') };

  /** The list this person reads a kind from: the admins', everyone's, or none (their own hidden items). */
  async function lista(tipo: Contenido, actor: Actor): Promise<FilaReciente[] | undefined> {
    const { listas, autoresOcultos } = caches[tipo];
    if (esAdmin(actor)) return listas.leer('admin', () => leer(tipo, actor, RECIENTES_INICIO));
    if ((await autoresOcultos()).has(actor.id)) return undefined;
    return listas.leer('todos', () => leer(tipo, NADIE, RECIENTES_INICIO));
  }

  return {
    /** The newest `filas` rows within `dentro` (the profile); undefined when the list cannot tell. */
    async bloque(tipo: Contenido, actor: Actor, dentro: (f: FilaReciente) => boolean, filas: number) {
      const l = await lista(tipo, actor);
      if (!l) return undefined;
      const elegidas: FilaReciente[] = [];
      for (const f of l) {
        if (!dentro(f)) continue;
        elegidas.push(f);
        if (elegidas.length === filas) return elegidas;
      }
      return l.length < RECIENTES_INICIO ? elegidas : undefined;
    },

    /** How many rows others wrote after `desde`, up to `tope`; undefined when the list cannot tell. */
    async cuenta(tipo: Contenido, actor: Actor, desde: Date, tope: number) {
      const l = await lista(tipo, actor);
      return l && contarDesde(l, desde, actor.id, tope, l.length < RECIENTES_INICIO);
    },
  };
}
