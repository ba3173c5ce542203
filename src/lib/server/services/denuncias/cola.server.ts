/**
 * The moderation queue (issue 17): how many items await a decision, and its pages of entries
 * (reports of one item together, with what the item looks like or, deleted, what is known of it).
 */
import { and, asc, count, desc, eq, inArray, min, or, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import { cuentaEliminada } from '../../../validation/baja.ts';
import type { TipoDenuncia } from '../../../validation/denuncias.ts';
import { numPaginas } from '../../../validation/listas.ts';
import { cacheDeLecturas } from '../../db/cache.server.ts';
import { denuncias, notificaciones, usuarios } from '../../db/schema.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { autorColumns, toAutor } from '../recursos.server.ts';
import { CLAVE_LOCAL } from '../registro.server.ts';
import { leerItem, SIN_TITULO } from './items.server.ts';

export type ItemDenunciado = Esquema<'ItemDenunciado'>;
export type EstadoDenuncia = 'abierta' | 'resuelta';

const TAMANO_PAGINA = 20;
const LARGO_TEXTO = 300;

/** Plain text for a preview: HTML tags and Markdown marks removed, spaces collapsed, at most 300 characters. */
export function textoPlano(texto: string, largo = LARGO_TEXTO): string {
  const plano = texto
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e] ?? ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const letras = [...plano];
  return letras.length <= largo
    ? plano
    : `${letras
        .slice(0, largo - 1)
        .join('')
        .trimEnd()}…`;
}

export function createColaDenuncias(ctx: ServiceContext) {
  const { db } = ctx;
  /** Every admin page asks for the number of items awaiting a decision: kept until a report changes. */
  const porRevisar = cacheDeLecturas<number>(db, { tablas: [denuncias], segundos: 2, max: 1, now: ctx.now });

  /** What the queue shows of an item, deleted or not. */
  async function vistaPrevia(tipo: TipoDenuncia, id: number) {
    const item = await leerItem(db, tipo, id);
    if (item) {
      const [autor] = await db.select(autorColumns).from(usuarios).where(eq(usuarios.id, item.idAutor));
      return {
        existe: true,
        oculto: item.oculto,
        titulo: item.titulo,
        texto: textoPlano(item.texto),
        enlace: item.enlace,
        autor: autor ? toAutor(autor) : null,
      };
    }
    // Deleted: its author's 'eliminado' notice (or any notice about it) still names it and them.
    const [aviso] = await db
      .select({ titulo: notificaciones.titulo, para: notificaciones.id_usuario, tipo: notificaciones.tipo })
      .from(notificaciones)
      .where(and(eq(notificaciones.recurso_tipo, tipo), eq(notificaciones.id_recurso, id)))
      .orderBy(sql`${notificaciones.tipo} = 'eliminado' desc`, desc(notificaciones.id))
      .limit(1);
    const [autor] = aviso?.tipo === 'eliminado' ? await db.select(autorColumns).from(usuarios).where(eq(usuarios.id, aviso.para)) : [];
    return {
      existe: false,
      oculto: false,
      titulo: aviso?.titulo || SIN_TITULO,
      texto: '',
      enlace: null,
      autor: autor ? toAutor(autor) : null,
    };
  }

  /** The entries of one page: reports of the same item in the same state (and, resolved, the same decision) together. */
  async function entradas(estado: EstadoDenuncia, grupos: { tipo: TipoDenuncia; id_recurso: number; fecha: Date | null }[]) {
    if (grupos.length === 0) return [];
    const filas = await db
      .select({ d: denuncias, denunciante: autorColumns })
      .from(denuncias)
      .innerJoin(usuarios, eq(usuarios.id, denuncias.id_usuario))
      .where(
        and(
          eq(denuncias.estado, estado),
          or(...grupos.map((g) => and(eq(denuncias.tipo, g.tipo), eq(denuncias.id_recurso, g.id_recurso)))),
        ),
      )
      .orderBy(asc(denuncias.id));
    const idsAdmin = [...new Set(filas.flatMap((f) => (f.d.id_admin === null ? [] : [f.d.id_admin])))];
    const admins = new Map(
      idsAdmin.length === 0
        ? []
        : (
            await db
              .select({ id: usuarios.id, email: usuarios.email, eliminada_en: usuarios.eliminada_en })
              .from(usuarios)
              .where(inArray(usuarios.id, idsAdmin))
          ).map((a) => [a.id, a.eliminada_en ? cuentaEliminada(a.id) : a.email] as const),
    );
    const mismaFecha = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
    const resultado: ItemDenunciado[] = [];
    for (const g of grupos) {
      const suyas = filas.filter(
        (f) =>
          f.d.tipo === g.tipo && f.d.id_recurso === g.id_recurso && (estado === 'abierta' || mismaFecha(f.d.fecha_resolucion, g.fecha)),
      );
      const primera = suyas[0]?.d;
      if (!primera) continue;
      resultado.push({
        id: primera.id,
        tipo: g.tipo,
        id_recurso: g.id_recurso,
        ...(await vistaPrevia(g.tipo, g.id_recurso)),
        n_denuncias: suyas.length,
        denuncias: suyas.map((f) => ({
          id: f.d.id,
          motivo: f.d.motivo,
          detalle: f.d.detalle,
          fecha_creacion: f.d.fecha_creacion.toISOString(),
          denunciante: toAutor(f.denunciante),
        })),
        resolucion:
          estado === 'resuelta' && primera.accion && primera.fecha_resolucion
            ? {
                accion: primera.accion,
                motivo: primera.motivo_resolucion,
                fecha: primera.fecha_resolucion.toISOString(),
                // The local key when no account decided (an admin erased since is named by number).
                admin: (primera.id_admin !== null && admins.get(primera.id_admin)) || CLAVE_LOCAL,
              }
            : null,
      });
    }
    return resultado;
  }

  return {
    entradas,

    /** How many items await a decision: the console's menu shows it beside 'Moderación'. */
    pendientes(): Promise<number> {
      return porRevisar.leer('', async () => {
        const grupos = db
          .selectDistinct({ tipo: denuncias.tipo, id_recurso: denuncias.id_recurso })
          .from(denuncias)
          .where(eq(denuncias.estado, 'abierta'))
          .as('grupos');
        const [fila] = await db.select({ n: count() }).from(grupos);
        return fila?.n ?? 0;
      });
    },

    /**
     * Open reports: the most reported item first, then the oldest report first. Resolved ones:
     * each decision an entry, the newest first. 20 entries a page.
     */
    async listar(f: { estado: EstadoDenuncia; pagina: number }): Promise<Esquema<'DenunciasAdmin'>> {
      // An open report has no decision date, so one key groups both states: by item while
      // open, by item and decision once resolved (an item reported again is decided again).
      const clave = { tipo: denuncias.tipo, id_recurso: denuncias.id_recurso, fecha: denuncias.fecha_resolucion };
      const where = eq(denuncias.estado, f.estado);
      const grupos = db.selectDistinct(clave).from(denuncias).where(where).as('grupos');
      const [total] = await db.select({ n: count() }).from(grupos);
      const orden: SQL[] =
        f.estado === 'abierta'
          ? [desc(count()), asc(min(denuncias.fecha_creacion)), asc(min(denuncias.id))]
          : [desc(denuncias.fecha_resolucion), desc(min(denuncias.id))];
      const pagina = await db
        .select(clave)
        .from(denuncias)
        .where(where)
        .groupBy(denuncias.tipo, denuncias.id_recurso, denuncias.fecha_resolucion)
        .orderBy(...orden)
        .limit(TAMANO_PAGINA)
        .offset((f.pagina - 1) * TAMANO_PAGINA);
      const num_results = total?.n ?? 0;
      return {
        items: await entradas(f.estado, pagina),
        num_pages: numPaginas(num_results, TAMANO_PAGINA),
        num_results,
      };
    },
  };
}
