/**
 * The home's words (issue 21): the counts of 'Desde tu última visita' in Spanish with their
 * plurals and links, and the 'Ver más' links of each block of 'Novedades para ti' with the list's
 * filters set from the profile.
 */
import { plural } from '../../lib/format/index.ts';
import { type Alcance, type Area, CUENTA_TOPE, type Cuentas, type Nivel } from '../../lib/server/services/inicio.server.ts';

export interface Enlace {
  href: string;
  texto: string;
}

/** The non-zero counts, each a sentence and the section it leads to (newest first there); past CUENTA_TOPE, 'Más de 99'. */
export function cuentasVisita(c: Cuentas): Enlace[] {
  const filas: [number, string, string, string][] = [
    [c.capsulas, 'cápsula nueva', 'cápsulas nuevas', '/capsulas/'],
    [c.materiales, 'material nuevo en la Biblioteca Docente', 'materiales nuevos en la Biblioteca Docente', '/biblioteca-docente/'],
    [c.manuales, 'manual nuevo', 'manuales nuevos', '/manuales/'],
    [c.conversaciones, 'conversación nueva en el foro', 'conversaciones nuevas en el foro', '/foro/?order=fecha_ultimo_post'],
    [c.comentarios, 'comentario nuevo en el foro', 'comentarios nuevos en el foro', '/foro/?order=fecha_ultimo_post'],
  ];
  return (
    filas
      .filter(([n]) => n > 0)
      // The counts stop past CUENTA_TOPE: 'Más de 99 comentarios nuevos en el foro'.
      .map(([n, uno, varios, href]) => ({ href, texto: n > CUENTA_TOPE ? `Más de ${CUENTA_TOPE} ${varios}` : plural(n, uno, varios) }))
  );
}

/** 'Matemáticas, Historia y Lenguaje'. */
export function enumerar(nombres: string[]): string {
  if (nombres.length <= 1) return nombres.join('');
  return `${nombres.slice(0, -1).join(', ')} y ${nombres.at(-1)}`;
}

/** What the profile filters by, as the heading's discreet line says it. */
export function lineaPerfil(areas: Area[], niveles: Nivel[]): string | null {
  const a = enumerar(areas.map((x) => x.nombre));
  const n = enumerar(niveles.map((x) => x.nombre));
  if (areas.length > 0 && niveles.length > 0) return `Según tus áreas (${a}) y niveles (${n}).`;
  if (areas.length > 0) return `Según tus áreas: ${a}.`;
  if (niveles.length > 0) return `Según tus niveles: ${n}.`;
  return null;
}

/** A block's list: its path, the query names of its area and level filters (null: it has none). */
export interface Lista {
  ruta: string;
  /** 'cápsulas', 'materiales', 'manuales': the link says 'Ver más {nombre}'. */
  nombre: string;
  area: string;
  nivel: string | null;
  /** Whether the name is feminine ('las más recientes'). */
  femenino: boolean;
  /** The block's heading, its icon, and what an empty block says. */
  titulo: string;
  icono: 'capsulas' | 'biblioteca' | 'manuales';
  vacio: string;
}

export const LISTAS = {
  capsulas: {
    ruta: '/capsulas/',
    nombre: 'cápsulas',
    area: 'area',
    nivel: 'nivel',
    femenino: true,
    titulo: 'Cápsulas',
    icono: 'capsulas',
    vacio: 'Aún no hay cápsulas publicadas.',
  },
  materiales: {
    ruta: '/biblioteca-docente/',
    nombre: 'materiales',
    area: 'id_area',
    nivel: 'id_nivel',
    femenino: false,
    titulo: 'Biblioteca Docente',
    icono: 'biblioteca',
    vacio: 'Aún no hay materiales en la Biblioteca Docente.',
  },
  manuales: {
    ruta: '/manuales/',
    nombre: 'manuales',
    area: 'area',
    nivel: null,
    femenino: false,
    titulo: 'Manuales',
    icono: 'manuales',
    vacio: 'Aún no hay manuales publicados.',
  },
} as const satisfies Record<string, Lista>;

/** At most this many 'Ver más' links of a block (one per area, or per level); more get one to the whole list. */
const MAX_ENLACES = 3;

/**
 * A block's 'Ver más' links. With the profile's items: one per area of the profile, with its
 * level when the profile has exactly one (the lists filter by one area and one level), or one per
 * level when the profile has levels only. Otherwise the whole list.
 */
export function verMas(lista: Lista, alcance: Alcance, areas: Area[], niveles: Nivel[]): Enlace[] {
  const todo = { href: lista.ruta, texto: `Ver más ${lista.nombre}` };
  if (alcance !== 'perfil') return [todo];
  const nivelesLista = lista.nivel ? niveles : [];
  const url = (params: [string, string][]) => `${lista.ruta}?${new URLSearchParams(params).toString()}`;
  const [unico] = nivelesLista.length === 1 ? nivelesLista : [];
  const enlaces: Enlace[] =
    areas.length > 0
      ? areas.map((a) => {
          const params: [string, string][] = [[lista.area, String(a.id)]];
          if (unico && lista.nivel) params.push([lista.nivel, unico.codigo]);
          return { href: url(params), texto: `Ver más ${lista.nombre} de ${a.nombre}${unico ? ` en ${unico.nombre}` : ''}` };
        })
      : nivelesLista.map((n) => ({ href: url([[lista.nivel ?? '', n.codigo]]), texto: `Ver más ${lista.nombre} de ${n.nombre}` }));
  if (enlaces.length === 0) return [todo];
  if (enlaces.length <= MAX_ENLACES) return enlaces;
  return [...enlaces.slice(0, MAX_ENLACES), { href: lista.ruta, texto: `Ver la lista completa de ${lista.nombre}` }];
}

/**
 * The line of a block whose profile filter found nothing, so it shows the network's newest:
 * 'Aún no hay cápsulas de tus áreas y niveles: estas son las más recientes de la red.'
 */
export function notaBloque(lista: Lista, alcance: Alcance, areas: Area[], niveles: Nivel[]): string | null {
  if (alcance !== 'sin_coincidencias') return null;
  const a = areas.length > 0;
  const n = lista.nivel !== null && niveles.length > 0;
  const deTuPerfil = a && n ? 'de tus áreas y niveles' : a ? 'de tus áreas' : 'de tus niveles';
  const recientes = lista.femenino ? 'estas son las más recientes' : 'estos son los más recientes';
  return `Aún no hay ${lista.nombre} ${deTuPerfil}: ${recientes} de la red.`;
}
