/**
 * The mochila (issue 35, decision 0069): a collection as one ZIP that works from a USB stick with
 * no network. Inside, in the collection's order: each material's and manual's file, each capsule's
 * light MP4 (the 234p version the video job makes) and its captions, each conversation as a page,
 * and `index.html` listing everything with titles, descriptions, OAs, licences and the owner's
 * notes, with relative links only and no scripts. Only what the reader may see goes in.
 *
 * An OA's materials make a mochila the same way (`FuenteMochila`: any named, ordered list of items).
 *
 * Written by yazl as a stream (storage/zip.server.ts): each stored file is read from storage when
 * the ZIP reaches it, so a mochila of gigabytes costs no more memory than an empty one. Streamed to
 * the request, or, when large, into storage by the 'mochila-preparar' job (mochilas-grandes.server.ts).
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import type { ZipFile } from 'yazl';
import { slug } from '../../../format/index.ts';
import { licenciaDe } from '../../../licencias.ts';
import type { Db } from '../../db/client.server.ts';
import { capsulas, foroConversaciones, manuales, materiales, materialesOas, oas, subtitulos } from '../../db/schema.server.ts';
import type { Storage } from '../../storage/storage.server.ts';
import { agregarGuardado, guardarZip, zipEnStream } from '../../storage/zip.server.ts';
import { claves } from '../capsulas/video.server.ts';
import type { Coleccion } from './colecciones.server.ts';
import type { InfoItem } from './items.server.ts';
import { paginaConversacion, paginaMochila } from './mochila-indice.server.ts';

/** One file of the ZIP: from storage (`clave`) or written here (`contenido`). */
export interface ArchivoMochila {
  ruta: string;
  bytes: number;
  clave?: string;
  contenido?: string;
  etiqueta: string;
}

/** One item as the index lists it. */
export interface EntradaMochila {
  tipo: string;
  titulo: string;
  autor: string;
  descripcion: string;
  nota: string;
  oas: string[];
  licencia: { nombre: string; url: string | null };
  archivos: ArchivoMochila[];
  /** Why an item comes without its file ('Esta cápsula aún no tiene versión liviana.'). */
  aviso?: string;
}

/** What a mochila carries: a collection, or an OA's materials, as its reader sees them, in order. */
export interface FuenteMochila {
  nombre: string;
  descripcion: string;
  /** The index's line under the title ('Colección de Ana Pérez'). */
  presentacion: string;
  /** The page the mochila belongs to (where its notification leads). */
  enlace: string;
  /** `contenido` null: not visible to the reader, left out. */
  items: { tipo: string; id_item: number; nota: string; contenido: InfoItem | null }[];
}

/** A collection as a mochila's source. */
export const fuenteColeccion = (c: Coleccion): FuenteMochila => ({
  nombre: c.nombre,
  descripcion: c.descripcion,
  presentacion: `Colección de ${c.autor.nombre}`,
  enlace: `/colecciones/${c.id}`,
  items: c.items,
});

export interface PlanMochila {
  nombre: string;
  descripcion: string;
  /**
   * A hash of everything the ZIP holds (each file's path, stored key and size, each written page):
   * the same for the same contents, another one once anything in it changes.
   */
  firma: string;
  entradas: EntradaMochila[];
  /** The ZIP's files, the index first. */
  archivos: ArchivoMochila[];
  /** About what the download weighs (the files plus the index; the ZIP adds a little). */
  bytes: number;
}

/** '01-fracciones-en-la-recta': the item's place and its title, for file names a stick's file system takes. */
const base = (n: number, titulo: string) => `${String(n + 1).padStart(2, '0')}-${slug(titulo).slice(0, 60) || 'contenido'}`;

export function createMochila(db: Db, storage: Storage) {
  const porId = <T extends { id: number }>(filas: T[]) => new Map(filas.map((f) => [f.id, f]));

  /** What the ZIP of this source, as it shows to its reader, holds. */
  async function planear(coleccion: FuenteMochila): Promise<PlanMochila> {
    const visibles = coleccion.items.filter((i) => i.contenido !== null);
    const ids = (tipo: string) => visibles.filter((i) => i.tipo === tipo).map((i) => i.id_item);
    const [filasCapsulas, filasMateriales, filasManuales, filasConversaciones, filasOas, filasSubtitulos] = await Promise.all([
      db
        .select()
        .from(capsulas)
        .where(inArray(capsulas.id, ids('capsula'))),
      db
        .select()
        .from(materiales)
        .where(inArray(materiales.id, ids('material'))),
      db
        .select()
        .from(manuales)
        .where(inArray(manuales.id, ids('manual'))),
      db
        .select()
        .from(foroConversaciones)
        .where(inArray(foroConversaciones.id, ids('conversacion'))),
      db
        .select({ id_material: materialesOas.id_material, codigo: oas.codigo })
        .from(materialesOas)
        .innerJoin(oas, eq(oas.id, materialesOas.id_oa))
        .where(inArray(materialesOas.id_material, ids('material'))),
      db
        .select({ id_capsula: subtitulos.id_capsula, idioma: subtitulos.idioma, vtt: subtitulos.vtt })
        .from(subtitulos)
        .where(inArray(subtitulos.id_capsula, ids('capsula'))),
    ]);
    const [cap, mat, man, con] = [porId(filasCapsulas), porId(filasMateriales), porId(filasManuales), porId(filasConversaciones)];
    // Every stored file's size at once (null: no longer in storage), not one storage call after another.
    const claveLiviana = (c: { id: number; tamano_liviana: number | null }) => (c.tamano_liviana === null ? null : claves(c.id).liviana);
    const guardadas = [
      ...filasCapsulas.map(claveLiviana),
      ...filasMateriales.map((f) => f.archivo),
      ...filasManuales.map((f) => f.archivo),
    ];
    const tamanos = new Map(await Promise.all(guardadas.filter((k) => k !== null).map(async (k) => [k, await storage.size(k)] as const)));
    const tamano = (clave: string | null) => (clave === null ? null : (tamanos.get(clave) ?? null));
    const entradas: EntradaMochila[] = [];
    for (const [n, item] of visibles.entries()) {
      const info = item.contenido;
      if (!info) continue;
      const nombre = base(n, info.titulo);
      const comun = { titulo: info.titulo, autor: info.autor, nota: item.nota };
      if (item.tipo === 'capsula') {
        const c = cap.get(item.id_item);
        if (!c) continue;
        const clave = claveLiviana(c);
        const bytes = tamano(clave);
        const archivos: ArchivoMochila[] =
          clave === null || bytes === null ? [] : [{ ruta: `capsulas/${nombre}.mp4`, clave, bytes, etiqueta: 'Video (versión liviana)' }];
        for (const s of filasSubtitulos.filter((s) => s.id_capsula === c.id)) {
          archivos.push({
            ruta: `capsulas/${nombre}.${s.idioma}.vtt`,
            contenido: s.vtt,
            bytes: Buffer.byteLength(s.vtt),
            etiqueta: `Subtítulos (${s.idioma})`,
          });
        }
        entradas.push({
          ...comun,
          tipo: 'Cápsula',
          descripcion: c.descripcion,
          oas: [],
          licencia: licenciaDe(c.licencia),
          archivos,
          ...(bytes === null ? { aviso: 'Esta cápsula aún no tiene versión liviana para llevar.' } : {}),
        });
      } else if (item.tipo === 'material' || item.tipo === 'manual') {
        const f = item.tipo === 'material' ? mat.get(item.id_item) : man.get(item.id_item);
        if (!f) continue;
        const bytes = tamano(f.archivo);
        const carpeta = item.tipo === 'material' ? 'materiales' : 'manuales';
        entradas.push({
          ...comun,
          tipo: item.tipo === 'material' ? 'Material' : 'Manual',
          descripcion: f.descripcion,
          oas: item.tipo === 'material' ? filasOas.filter((o) => o.id_material === f.id).map((o) => o.codigo) : [],
          licencia: licenciaDe(f.licencia),
          archivos: bytes === null ? [] : [{ ruta: `${carpeta}/${nombre}.${f.extension}`, clave: f.archivo, bytes, etiqueta: 'Archivo' }],
          ...(bytes === null ? { aviso: 'El archivo ya no se conserva en la plataforma.' } : {}),
        });
      } else {
        const f = con.get(item.id_item);
        if (!f) continue;
        const pagina = paginaConversacion(f.titulo, info.autor, f.contenido);
        entradas.push({
          ...comun,
          tipo: 'Conversación',
          descripcion: '',
          oas: [],
          licencia: licenciaDe('reservados'),
          archivos: [
            { ruta: `conversaciones/${nombre}.html`, contenido: pagina, bytes: Buffer.byteLength(pagina), etiqueta: 'Conversación' },
          ],
        });
      }
    }
    const indice = paginaMochila(coleccion, entradas);
    const archivos = [
      { ruta: 'index.html', contenido: indice, bytes: Buffer.byteLength(indice), etiqueta: 'Índice' },
      ...entradas.flatMap((e) => e.archivos),
    ];
    const firma = createHash('sha256');
    for (const a of archivos) firma.update(`${a.ruta}\0${a.clave ?? ''}\0${a.bytes}\0${a.contenido ?? ''}\0`);
    return {
      nombre: coleccion.nombre,
      descripcion: coleccion.descripcion,
      firma: firma.digest('hex'),
      entradas,
      archivos,
      bytes: archivos.reduce((s, a) => s + a.bytes, 0),
    };
  }

  /** Adds the plan's files to `zip`, each stored one read only when the ZIP reaches it. */
  function llenar(zip: ZipFile, plan: PlanMochila, fecha: Date): void {
    for (const a of plan.archivos) {
      if (a.contenido !== undefined) zip.addBuffer(Buffer.from(a.contenido), a.ruta, { mtime: fecha });
      else if (a.clave) agregarGuardado(zip, storage, { ruta: a.ruta, clave: a.clave, bytes: a.bytes }, fecha);
    }
  }

  return {
    planear,
    /** The ZIP as a stream, read from storage file by file as it is consumed (backpressure): nothing is held whole. */
    zip: (plan: PlanMochila, fecha: Date): Readable => zipEnStream((zip) => llenar(zip, plan, fecha)),
    /** The ZIP written into storage under `clave` (the 'mochila-preparar' job); its size. */
    guardar: (plan: PlanMochila, fecha: Date, clave: string, opciones: Parameters<typeof guardarZip>[3]) =>
      guardarZip(storage, clave, (zip) => llenar(zip, plan, fecha), opciones),
  };
}
