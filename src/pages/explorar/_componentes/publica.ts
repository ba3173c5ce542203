/**
 * The public pages' data (issue 34, decision 0068): an item as its public page shows it, its
 * absolute addresses (PUBLIC_URL), and its JSON-LD (schema.org LearningResource, and VideoObject
 * for a capsule, with the licence, es-CL, the level and the OAs as AlignmentObjects of the Bases
 * Curriculares).
 */
import type { Esquema } from '../../../lib/api/contrato.ts';
import { rutaPublica, type TipoPublico } from '../../../lib/explorar.ts';
import { nombreCorto } from '../../../lib/format/index.ts';
import { licenciaDe } from '../../../lib/licencias.ts';

const MARCO_CURRICULAR = 'Bases Curriculares (Mineduc, Chile)';

export interface ItemPublico {
  tipo: TipoPublico;
  id: number;
  titulo: string;
  descripcion: string;
  autor: string;
  licencia: string;
  nivel: { codigo: string; nombre: string } | null;
  area: { id: number; nombre: string };
  oas: { codigo: string; descripcion: string }[];
  /** The thumbnail's base path ('/miniaturas/bdocente/3/'). */
  miniatura: string;
  fecha_creacion: string;
  /** The file to download (materials, manuals) or the light and original videos (capsules). */
  descarga: { href: string; tamano: number; paginas: number | null } | null;
  video: { liviana: string | null; hls: string; original: string; duracion: number | null } | null;
}

/** What every kind shows alike: its ids, texts, author, licence, date and the thumbnail under `/miniaturas/{carpeta}/`. */
const comun = (
  tipo: TipoPublico,
  carpeta: string,
  x: {
    id: number;
    titulo: string;
    descripcion: string;
    id_usuario: Parameters<typeof nombreCorto>[0];
    licencia: string;
    fecha_creacion: string;
  },
) => ({
  tipo,
  id: x.id,
  titulo: x.titulo,
  descripcion: x.descripcion,
  autor: nombreCorto(x.id_usuario),
  licencia: x.licencia,
  miniatura: `/miniaturas/${carpeta}/${x.id}/`,
  fecha_creacion: x.fecha_creacion,
});

export function materialPublico(m: Esquema<'MaterialDocente'>): ItemPublico {
  return {
    ...comun('material', 'bdocente', m),
    nivel: m.id_nivel,
    area: m.id_area,
    oas: m.oas.map((o) => ({ codigo: o.codigo, descripcion: o.descripcion })),
    descarga: { href: m.archivo, tamano: m.tamano, paginas: m.paginas },
    video: null,
  };
}

export function manualPublico(m: Esquema<'Manual'>): ItemPublico {
  return {
    ...comun('manual', 'manuales', m),
    nivel: null,
    area: { id: m.id_area.id, nombre: m.id_area.nombre },
    oas: [],
    descarga: { href: m.archivo, tamano: m.tamano, paginas: m.paginas },
    video: null,
  };
}

export function capsulaPublica(c: Esquema<'Capsula'>): ItemPublico {
  return {
    ...comun('capsula', 'capsulas', c),
    nivel: c.id_nivel,
    area: c.id_area,
    oas: [],
    descarga: null,
    video: {
      liviana: c.tamano_liviana === null ? null : `/api/capsulas/${c.id}/descargar/?version=liviana`,
      hls: `/streaming/${c.id}/manifest.m3u8`,
      original: `/api/capsulas/${c.id}/descargar/`,
      duracion: c.duracion,
    },
  };
}

/** Plain text for meta descriptions: the Markdown's words, at most `max` characters. */
export function textoPlano(markdown: string, max = 200): string {
  const texto = markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return texto.length > max ? `${texto.slice(0, max - 1).trimEnd()}…` : texto;
}

/** ISO 8601 duration ('PT3M12S') of a number of seconds. */
const duracionIso = (s: number) => `PT${Math.floor(s / 60)}M${Math.round(s % 60)}S`;

export function absoluta(base: string, ruta: string): string {
  return new URL(ruta, base).toString();
}

/** The item's JSON-LD (schema.org), as one object. */
export function jsonLd(item: ItemPublico, base: string): Record<string, unknown> {
  const url = absoluta(base, rutaPublica(item.tipo, item.id, item.titulo));
  const licencia = licenciaDe(item.licencia);
  const datos: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': item.tipo === 'capsula' ? ['LearningResource', 'VideoObject'] : 'LearningResource',
    '@id': url,
    url,
    name: item.titulo,
    description: textoPlano(item.descripcion, 500),
    inLanguage: 'es-CL',
    license: licencia.url ?? undefined,
    author: { '@type': 'Person', name: item.autor },
    dateCreated: item.fecha_creacion,
    image: absoluta(base, item.miniatura),
    thumbnailUrl: absoluta(base, item.miniatura),
    about: item.area.nombre,
    isAccessibleForFree: true,
    ...(item.nivel ? { educationalLevel: item.nivel.nombre } : {}),
    educationalAlignment: [
      ...(item.nivel
        ? [
            {
              '@type': 'AlignmentObject',
              alignmentType: 'educationalLevel',
              educationalFramework: MARCO_CURRICULAR,
              targetName: item.nivel.nombre,
            },
          ]
        : []),
      {
        '@type': 'AlignmentObject',
        alignmentType: 'educationalSubject',
        educationalFramework: MARCO_CURRICULAR,
        targetName: item.area.nombre,
      },
      ...item.oas.map((oa) => ({
        '@type': 'AlignmentObject',
        alignmentType: 'teaches',
        educationalFramework: MARCO_CURRICULAR,
        targetName: oa.codigo,
        targetDescription: oa.descripcion,
        targetUrl: absoluta(base, `/explorar/oa/${encodeURIComponent(oa.codigo)}`),
      })),
    ],
  };
  if (item.video) {
    datos.uploadDate = item.fecha_creacion;
    datos.contentUrl = absoluta(base, item.video.liviana ?? item.video.original);
    if (item.video.duracion) datos.duration = duracionIso(item.video.duracion);
  } else if (item.descarga) {
    datos.encoding = { '@type': 'MediaObject', contentUrl: absoluta(base, item.descarga.href), contentSize: `${item.descarga.tamano} B` };
  }
  return JSON.parse(JSON.stringify(datos));
}

/** JSON for a script element: '<' escaped so no text can close it. */
export const scriptJson = (datos: unknown) => JSON.stringify(datos).replace(/</g, '\\u003c');
