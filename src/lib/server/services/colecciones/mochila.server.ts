/**
 * The mochila (issue 35, decision 0069): a collection as one ZIP that works from a USB stick with
 * no network. Inside, in the collection's order: each material's and manual's file, each capsule's
 * light MP4 (the 234p version the video job makes) and its captions, each conversation as a page,
 * and `index.html` listing everything with titles, descriptions, OAs, licences and the owner's
 * notes, with relative links only and no scripts. Only what the reader may see goes in.
 *
 * An OA's materials make a mochila the same way (`FuenteMochila`: any named, ordered list of items).
 *
 * Two steps (decision 0076): `leer` reads the rows once and sums them up from the database alone
 * (size, item count, `firma`), which is all a page view or a poll needs; `planear` then asks storage
 * for each file's size and writes the pages, only to stream the ZIP or to build it.
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

/**
 * What a mochila is, read from the database alone (no storage lookups, no page written): enough
 * for a page to state its size, to choose streaming or the job, and to find a large one's build.
 */
export interface ResumenMochila {
  nombre: string;
  /**
   * A hash of everything the ZIP is made of (the source's name, text and order; each item's
   * title, author, note, description, licence, OAs, stored key and recorded size, captions,
   * conversation text): the same for the same contents, another one once anything in it changes.
   */
  firma: string;
  /** The items it carries. */
  elementos: number;
  /** About what the download weighs, from the sizes recorded at upload (the plan asks storage). */
  bytes: number;
}

export interface PlanMochila {
  nombre: string;
  descripcion: string;
  /** The same as the summary's (`ResumenMochila.firma`). */
  firma: string;
  entradas: EntradaMochila[];
  /** The ZIP's files, the index first. */
  archivos: ArchivoMochila[];
  /** About what the download weighs (the files plus the index; the ZIP adds a little). */
  bytes: number;
}

/** '01-fracciones-en-la-recta': the item's place and its title, for file names a stick's file system takes. */
const base = (n: number, titulo: string) => `${String(n + 1).padStart(2, '0')}-${slug(titulo).slice(0, 60) || 'contenido'}`;

type Item = FuenteMochila['items'][number] & { contenido: InfoItem };
/** One visible item with its row, in the source's order: what both the summary and the plan are made from. */
type Pieza =
  | { item: Item; tipo: 'capsula'; fila: typeof capsulas.$inferSelect; subtitulos: { idioma: string; vtt: string }[] }
  | { item: Item; tipo: 'material' | 'manual'; fila: typeof materiales.$inferSelect | typeof manuales.$inferSelect; oas: string[] }
  | { item: Item; tipo: 'conversacion'; fila: typeof foroConversaciones.$inferSelect };

/** A mochila's source with its rows read: its summary now, its plan when it is streamed or built. */
export interface MochilaLeida {
  fuente: FuenteMochila;
  piezas: Pieza[];
  resumen: ResumenMochila;
}

const claveLiviana = (c: { id: number; tamano_liviana: number | null }) => (c.tamano_liviana === null ? null : claves(c.id).liviana);

/** What the ZIP's contents depend on, piece by piece, for its signature. */
function hechosDe(p: Pieza): unknown[] {
  const { tipo, id_item, nota, contenido } = p.item;
  const comun = [tipo, id_item, nota, contenido.titulo, contenido.autor];
  if (p.tipo === 'capsula')
    return [...comun, p.fila.descripcion, p.fila.licencia, claveLiviana(p.fila), p.fila.tamano_liviana, p.subtitulos];
  if (p.tipo === 'conversacion') return [...comun, p.fila.titulo, p.fila.contenido];
  return [...comun, p.fila.descripcion, p.fila.licencia, p.fila.extension, p.fila.archivo, p.fila.tamano, p.oas];
}

/** What a piece's files weigh, as recorded (a capsule without its light version carries its captions only). */
function bytesDe(p: Pieza): number {
  if (p.tipo === 'capsula') return (p.fila.tamano_liviana ?? 0) + p.subtitulos.reduce((s, t) => s + Buffer.byteLength(t.vtt), 0);
  if (p.tipo === 'conversacion') return Buffer.byteLength(p.fila.contenido);
  return p.fila.tamano;
}

export function createMochila(db: Db, storage: Storage) {
  const porId = <T extends { id: number }>(filas: T[]) => new Map(filas.map((f) => [f.id, f]));

  /** The rows of what the source shows its reader (one query per table), and the summary they make. */
  async function leer(fuente: FuenteMochila): Promise<MochilaLeida> {
    const visibles = fuente.items.filter((i): i is Item => i.contenido !== null);
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
        .where(inArray(materialesOas.id_material, ids('material')))
        .orderBy(materialesOas.id_material, oas.codigo),
      db
        .select({ id_capsula: subtitulos.id_capsula, idioma: subtitulos.idioma, vtt: subtitulos.vtt })
        .from(subtitulos)
        .where(inArray(subtitulos.id_capsula, ids('capsula')))
        .orderBy(subtitulos.id_capsula, subtitulos.idioma),
    ]);
    const [cap, mat, man, con] = [porId(filasCapsulas), porId(filasMateriales), porId(filasManuales), porId(filasConversaciones)];
    const piezas: Pieza[] = [];
    for (const item of visibles) {
      if (item.tipo === 'capsula') {
        const fila = cap.get(item.id_item);
        const subs = filasSubtitulos.filter((s) => s.id_capsula === item.id_item).map(({ idioma, vtt }) => ({ idioma, vtt }));
        if (fila) piezas.push({ item, tipo: 'capsula', fila, subtitulos: subs });
      } else if (item.tipo === 'material' || item.tipo === 'manual') {
        const fila = item.tipo === 'material' ? mat.get(item.id_item) : man.get(item.id_item);
        const codigos = item.tipo === 'material' ? filasOas.filter((o) => o.id_material === item.id_item).map((o) => o.codigo) : [];
        if (fila) piezas.push({ item, tipo: item.tipo, fila, oas: codigos });
      } else if (item.tipo === 'conversacion') {
        const fila = con.get(item.id_item);
        if (fila) piezas.push({ item, tipo: 'conversacion', fila });
      }
    }
    const firma = createHash('sha256').update(
      JSON.stringify([fuente.nombre, fuente.descripcion, fuente.presentacion, fuente.enlace, ...piezas.map(hechosDe)]),
    );
    return {
      fuente,
      piezas,
      resumen: {
        nombre: fuente.nombre,
        firma: firma.digest('hex'),
        elementos: piezas.length,
        bytes: piezas.reduce((s, p) => s + bytesDe(p), 0),
      },
    };
  }

  /** What the ZIP of a source read by `leer` holds: each stored file's size asked of storage, the pages written. */
  async function planear({ fuente, piezas, resumen }: MochilaLeida): Promise<PlanMochila> {
    // Every stored file's size at once (null: no longer in storage), not one storage call after another.
    const guardadas = piezas.map((p) => (p.tipo === 'capsula' ? claveLiviana(p.fila) : p.tipo === 'conversacion' ? null : p.fila.archivo));
    const tamanos = new Map(await Promise.all(guardadas.filter((k) => k !== null).map(async (k) => [k, await storage.size(k)] as const)));
    const tamano = (clave: string | null) => (clave === null ? null : (tamanos.get(clave) ?? null));
    const entradas: EntradaMochila[] = [];
    for (const [n, p] of piezas.entries()) {
      const info = p.item.contenido;
      const nombre = base(n, info.titulo);
      const comun = { titulo: info.titulo, autor: info.autor, nota: p.item.nota };
      if (p.tipo === 'capsula') {
        const clave = claveLiviana(p.fila);
        const bytes = tamano(clave);
        const archivos: ArchivoMochila[] =
          clave === null || bytes === null ? [] : [{ ruta: `capsulas/${nombre}.mp4`, clave, bytes, etiqueta: 'Video (versión liviana)' }];
        for (const s of p.subtitulos) {
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
          descripcion: p.fila.descripcion,
          oas: [],
          licencia: licenciaDe(p.fila.licencia),
          archivos,
          ...(bytes === null ? { aviso: 'Esta cápsula aún no tiene versión liviana para llevar.' } : {}),
        });
      } else if (p.tipo === 'conversacion') {
        const pagina = paginaConversacion(p.fila.titulo, info.autor, p.fila.contenido);
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
      } else {
        const bytes = tamano(p.fila.archivo);
        const carpeta = p.tipo === 'material' ? 'materiales' : 'manuales';
        entradas.push({
          ...comun,
          tipo: p.tipo === 'material' ? 'Material' : 'Manual',
          descripcion: p.fila.descripcion,
          oas: p.oas,
          licencia: licenciaDe(p.fila.licencia),
          archivos:
            bytes === null ? [] : [{ ruta: `${carpeta}/${nombre}.${p.fila.extension}`, clave: p.fila.archivo, bytes, etiqueta: 'Archivo' }],
          ...(bytes === null ? { aviso: 'El archivo ya no se conserva en la plataforma.' } : {}),
        });
      }
    }
    const indice = paginaMochila(fuente, entradas);
    const archivos = [
      { ruta: 'index.html', contenido: indice, bytes: Buffer.byteLength(indice), etiqueta: 'Índice' },
      ...entradas.flatMap((e) => e.archivos),
    ];
    return {
      nombre: fuente.nombre,
      descripcion: fuente.descripcion,
      firma: resumen.firma,
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
    leer,
    planear,
    /** The ZIP as a stream, read from storage file by file as it is consumed (backpressure): nothing is held whole. */
    zip: (plan: PlanMochila, fecha: Date): Readable => zipEnStream((zip) => llenar(zip, plan, fecha)),
    /** The ZIP written into storage under `clave` (the 'mochila-preparar' job); its size. */
    guardar: (plan: PlanMochila, fecha: Date, clave: string, opciones: Parameters<typeof guardarZip>[3]) =>
      guardarZip(storage, clave, (zip) => llenar(zip, plan, fecha), opciones),
  };
}
