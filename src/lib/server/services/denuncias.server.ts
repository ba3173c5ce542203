/**
 * Reports of abuse and the moderation queue (issue 17). A signed-in person reports an item they
 * can see, once ever; `DENUNCIAS_PARA_OCULTAR` open reports from different people hide it until an
 * admin decides. The admin's decision closes every open report of the item at once, acts on it
 * (ocultar, restaurar, eliminar through each section's own deletion, descartar), tells its author
 * and the people who reported it, and goes to the audit log.
 */
import { and, asc, count, countDistinct, desc, eq, inArray, isNotNull, min, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import {
  type AccionModeracion,
  type denunciaSchema,
  ETIQUETAS_MOTIVO,
  type MotivoDenuncia,
  type resolucionSchema,
  type TipoDenuncia,
} from '../../validation/denuncias.ts';
import { numPaginas } from '../../validation/listas.ts';
import { ApiError } from '../api/errors.server.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import {
  capsulas,
  comentarios,
  denuncias,
  foroCategorias,
  foroComentarios,
  foroConversaciones,
  manuales,
  materiales,
  notificaciones,
  perfilesDocentes,
  usuarios,
} from '../db/schema.server.ts';
import { type Actor, esAdmin } from './actor.server.ts';
import type { AdminUsuariosService } from './admin-usuarios.server.ts';
import type { BibliotecaService } from './biblioteca.server.ts';
import type { CapsulasService } from './capsulas.server.ts';
import { USUARIO_NO_ENCONTRADO } from './comunidad.server.ts';
import type { ServiceContext } from './context.server.ts';
import { CONVERSACION_NO_ENCONTRADA, codigoError } from './foro/comun.server.ts';
import type { ForoService } from './foro.server.ts';
import type { ManualesService } from './manuales.server.ts';
import { notificarModeracion } from './notificaciones.server.ts';
import { autorColumns, COMENTARIO_NO_ENCONTRADO, createRecursosService, type TipoRecurso, toAutor } from './recursos.server.ts';
import { type ActorAdmin, CLAVE_LOCAL, registrarAccion } from './registro.server.ts';

type DenunciaNueva = z.output<typeof denunciaSchema>;
type Resolucion = z.output<typeof resolucionSchema>;
export type ItemDenunciado = Esquema<'ItemDenunciado'>;
type EstadoDenuncia = 'abierta' | 'resuelta';

export const YA_DENUNCIADO = 'Ya denunciaste este contenido.';
export const PROPIO = 'No puedes denunciar tu propio contenido.';
export const YA_RESUELTA = 'Esta denuncia ya fue resuelta.';
export const DENUNCIA_NO_ENCONTRADA = 'No se encontró la denuncia';
/** What the author is told when the reports hide their item. */
export const OCULTO_POR_DENUNCIAS = 'Varias personas lo denunciaron; un administrador lo revisará.';
/** The threshold's default, as config.server.ts gives it. */
const UMBRAL_POR_DEFECTO = 3;
const TAMANO_PAGINA = 20;
const LARGO_TEXTO = 300;
/** The title kept for a deleted item whose name nothing remembers. */
const SIN_TITULO = 'Contenido eliminado';

const NO_ENCONTRADO: Record<TipoDenuncia, string> = {
  capsula: 'No se encontró capsula',
  material: 'No se encontró material',
  manual: 'No se encontró manual',
  comentario_capsula: COMENTARIO_NO_ENCONTRADO,
  comentario_material: COMENTARIO_NO_ENCONTRADO,
  comentario_manual: COMENTARIO_NO_ENCONTRADO,
  conversacion: CONVERSACION_NO_ENCONTRADA,
  comentario_foro: COMENTARIO_NO_ENCONTRADO,
  usuario: USUARIO_NO_ENCONTRADO,
};

/** How the audit log names each kind ('… sobre la cápsula «…»'). */
const NOMBRE_TIPO: Record<TipoDenuncia, string> = {
  capsula: 'la cápsula',
  material: 'el material',
  manual: 'el manual',
  comentario_capsula: 'un comentario en',
  comentario_material: 'un comentario en',
  comentario_manual: 'un comentario en',
  conversacion: 'la conversación',
  comentario_foro: 'un comentario en',
  usuario: 'el perfil de',
};

const RECURSO_DE_COMENTARIO = {
  comentario_capsula: 'capsula',
  comentario_material: 'material',
  comentario_manual: 'manual',
} as const satisfies Partial<Record<TipoDenuncia, TipoRecurso>>;
type TipoComentario = keyof typeof RECURSO_DE_COMENTARIO;
const esComentarioRecurso = (tipo: TipoDenuncia): tipo is TipoComentario => tipo in RECURSO_DE_COMENTARIO;

const rutas: Record<TipoRecurso, string> = { capsula: '/capsulas', material: '/biblioteca-docente', manual: '/manuales' };
const enlaceConversacion = (idCategoria: number, id: number) => `/foro/categorias/${idCategoria}/conversacion/${id}`;
/** Comments have no anchor of their own: their section's heading is the nearest one. */
const SECCION_COMENTARIOS = '#titulo-comentarios';

/** A hidden (or not yet ready) part of what a person would see: its author's only. */
interface Guarda {
  oculto: boolean;
  autor: number;
}

/** A reported item as moderation sees it, whatever its kind. */
interface Item {
  tipo: TipoDenuncia;
  id: number;
  idAutor: number;
  oculto: boolean;
  titulo: string;
  /** The raw text (HTML or Markdown for descriptions and conversations). */
  texto: string;
  enlace: string;
  /** The item and what holds it (a comment's capsule): each hidden one is its author's only. */
  guardas: Guarda[];
  /** Only admins see it whatever else holds (an inactive forum category, a deactivated account). */
  soloAdmins: boolean;
}

/** An admin or someone every guard lets through. */
function puedeVer(item: Item, actor: Actor): boolean {
  if (esAdmin(actor)) return true;
  return !item.soloAdmins && item.guardas.every((g) => !g.oculto || g.autor === actor.id);
}

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

/** What the author is told of a decision; restored or dismissed while visible, nothing changed for them. */
function avisoAlAutor(accion: AccionModeracion, estabaOculto: boolean): 'oculto' | 'restaurado' | 'eliminado' | null {
  if (accion === 'ocultar') return 'oculto';
  if (accion === 'eliminar') return 'eliminado';
  return estabaOculto ? 'restaurado' : null;
}

/** The reports' reasons in words, the most given first ('Spam o publicidad, Ofensivo'). */
export function motivosEnPalabras(motivos: MotivoDenuncia[]): string {
  const veces = new Map<MotivoDenuncia, number>();
  for (const m of motivos) veces.set(m, (veces.get(m) ?? 0) + 1);
  return [...veces]
    .sort((a, b) => b[1] - a[1])
    .map(([m]) => ETIQUETAS_MOTIVO[m])
    .join(', ');
}

const nombreDe = (u: { primer_nombre: string; apellido_paterno: string }) => `${u.primer_nombre} ${u.apellido_paterno}`.trim();

export function createDenunciasService(
  ctx: ServiceContext & { config: { DENUNCIAS_PARA_OCULTAR?: number } },
  deps: {
    capsulas: CapsulasService;
    biblioteca: BibliotecaService;
    manuales: ManualesService;
    foro: ForoService;
    adminUsuarios: AdminUsuariosService;
  },
) {
  const { db } = ctx;
  const umbral = ctx.config.DENUNCIAS_PARA_OCULTAR ?? UMBRAL_POR_DEFECTO;
  const recursos = createRecursosService(db, ctx.now);
  /** Every admin page asks for the number of items awaiting a decision: kept until a report changes. */
  const porRevisar = cacheDeLecturas<number>(db, { tablas: [denuncias], segundos: 2, max: 1, now: ctx.now });

  // ── Reading an item of any kind ──────────────────────────────────────────────────────────────

  async function contenido(en: Db, tipo: TipoRecurso, id: number): Promise<Item | null> {
    const filas =
      tipo === 'capsula'
        ? await en
            .select({
              t: capsulas.titulo,
              d: capsulas.descripcion,
              u: capsulas.id_usuario,
              o: capsulas.oculto,
              listo: sql<boolean>`${capsulas.estado} = 'listo'`,
            })
            .from(capsulas)
            .where(eq(capsulas.id, id))
        : tipo === 'material'
          ? await en
              .select({
                t: materiales.titulo,
                d: materiales.descripcion,
                u: materiales.id_usuario,
                o: materiales.oculto,
                listo: sql<boolean>`true`,
              })
              .from(materiales)
              .where(eq(materiales.id, id))
          : await en
              .select({
                t: manuales.titulo,
                d: manuales.descripcion,
                u: manuales.id_usuario,
                o: manuales.oculto,
                listo: sql<boolean>`true`,
              })
              .from(manuales)
              .where(eq(manuales.id, id));
    const f = filas[0];
    if (!f) return null;
    return {
      tipo,
      id,
      idAutor: f.u,
      oculto: f.o,
      titulo: f.t,
      texto: f.d,
      enlace: `${rutas[tipo]}/${id}`,
      // A capsule still processing is its author's only, like a hidden one.
      guardas: [{ oculto: f.o || !f.listo, autor: f.u }],
      soloAdmins: false,
    };
  }

  async function comentarioRecurso(en: Db, tipo: TipoComentario, id: number): Promise<Item | null> {
    const recurso = RECURSO_DE_COMENTARIO[tipo];
    const columna = { capsula: comentarios.id_capsula, material: comentarios.id_material, manual: comentarios.id_manual }[recurso];
    const [c] = await en
      .select({ c: comentarios, idRecurso: columna })
      .from(comentarios)
      .where(and(eq(comentarios.id, id), isNotNull(columna), eq(comentarios.eliminado, false)));
    if (!c || c.idRecurso === null) return null;
    const padre = await contenido(en, recurso, c.idRecurso);
    if (!padre) return null;
    return {
      tipo,
      id,
      idAutor: c.c.id_usuario,
      oculto: c.c.oculto,
      titulo: padre.titulo,
      texto: c.c.contenido,
      enlace: `${padre.enlace}${SECCION_COMENTARIOS}`,
      guardas: [{ oculto: c.c.oculto, autor: c.c.id_usuario }, ...padre.guardas],
      soloAdmins: false,
    };
  }

  async function conversacion(en: Db, id: number): Promise<Item | null> {
    const [c] = await en
      .select({ c: foroConversaciones, activa: foroCategorias.activa })
      .from(foroConversaciones)
      .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
      .where(eq(foroConversaciones.id, id));
    if (!c) return null;
    return {
      tipo: 'conversacion',
      id,
      idAutor: c.c.id_usuario_creador,
      oculto: c.c.oculto,
      titulo: c.c.titulo,
      texto: c.c.contenido,
      enlace: enlaceConversacion(c.c.id_categoria, id),
      guardas: [{ oculto: c.c.oculto, autor: c.c.id_usuario_creador }],
      soloAdmins: !c.activa,
    };
  }

  async function comentarioForo(en: Db, id: number): Promise<Item | null> {
    const [c] = await en
      .select({ c: foroComentarios })
      .from(foroComentarios)
      .where(and(eq(foroComentarios.id, id), eq(foroComentarios.eliminado, false)));
    if (!c) return null;
    const conv = await conversacion(en, c.c.id_conversacion);
    if (!conv) return null;
    return {
      tipo: 'comentario_foro',
      id,
      idAutor: c.c.id_usuario,
      oculto: c.c.oculto,
      titulo: conv.titulo,
      texto: c.c.contenido,
      enlace: `${conv.enlace}${SECCION_COMENTARIOS}`,
      guardas: [{ oculto: c.c.oculto, autor: c.c.id_usuario }, ...conv.guardas],
      soloAdmins: conv.soloAdmins,
    };
  }

  async function perfil(en: Db, id: number): Promise<Item | null> {
    const [u] = await en
      .select({
        u: {
          primer_nombre: usuarios.primer_nombre,
          apellido_paterno: usuarios.apellido_paterno,
          oculto: usuarios.oculto,
          activo: usuarios.activo,
          desactivada_en: usuarios.desactivada_en,
        },
        titulo: perfilesDocentes.titulo_profesional,
      })
      .from(usuarios)
      .leftJoin(perfilesDocentes, eq(perfilesDocentes.id_usuario, usuarios.id))
      .where(eq(usuarios.id, id));
    if (!u) return null;
    return {
      tipo: 'usuario',
      id,
      idAutor: id,
      oculto: u.u.oculto,
      titulo: nombreDe(u.u),
      texto: u.titulo ?? '',
      enlace: `/perfil/${id}`,
      guardas: [{ oculto: u.u.oculto, autor: id }],
      // A deactivated (or never activated) account's page is for admins only.
      soloAdmins: !u.u.activo || u.u.desactivada_en !== null,
    };
  }

  /** The item, or null when it does not exist (a comment left as 'Comentario eliminado' counts as deleted). */
  function leerItem(tipo: TipoDenuncia, id: number, en: Db = db): Promise<Item | null> {
    if (esComentarioRecurso(tipo)) return comentarioRecurso(en, tipo, id);
    switch (tipo) {
      case 'capsula':
      case 'material':
      case 'manual':
        return contenido(en, tipo, id);
      case 'conversacion':
        return conversacion(en, id);
      case 'comentario_foro':
        return comentarioForo(en, id);
      default:
        return perfil(en, id);
    }
  }

  /** Sets the item's `oculto`; true when it changed (a concurrent change is not counted twice). */
  async function marcarOculto(tx: Db, tipo: TipoDenuncia, id: number, oculto: boolean): Promise<boolean> {
    const set = { oculto };
    const filas = await (() => {
      if (esComentarioRecurso(tipo))
        return tx
          .update(comentarios)
          .set(set)
          .where(and(eq(comentarios.id, id), eq(comentarios.oculto, !oculto)))
          .returning({ id: comentarios.id });
      switch (tipo) {
        case 'capsula':
          return tx
            .update(capsulas)
            .set(set)
            .where(and(eq(capsulas.id, id), eq(capsulas.oculto, !oculto)))
            .returning({ id: capsulas.id });
        case 'material':
          return tx
            .update(materiales)
            .set(set)
            .where(and(eq(materiales.id, id), eq(materiales.oculto, !oculto)))
            .returning({ id: materiales.id });
        case 'manual':
          return tx
            .update(manuales)
            .set(set)
            .where(and(eq(manuales.id, id), eq(manuales.oculto, !oculto)))
            .returning({ id: manuales.id });
        case 'conversacion':
          return tx
            .update(foroConversaciones)
            .set(set)
            .where(and(eq(foroConversaciones.id, id), eq(foroConversaciones.oculto, !oculto)))
            .returning({ id: foroConversaciones.id });
        case 'comentario_foro':
          return tx
            .update(foroComentarios)
            .set(set)
            .where(and(eq(foroComentarios.id, id), eq(foroComentarios.oculto, !oculto)))
            .returning({ id: foroComentarios.id });
        default:
          return tx
            .update(usuarios)
            .set(set)
            .where(and(eq(usuarios.id, id), eq(usuarios.oculto, !oculto)))
            .returning({ id: usuarios.id });
      }
    })();
    return filas.length > 0;
  }

  /**
   * Deletes the item through its section's own deletion (files, replies kept as 'Comentario
   * eliminado', forgotten notifications), acting as its author with an admin's sight: the
   * section's rules run as for the author's own delete, and the audit log gets one row, the
   * moderation's. A profile is not deleted: its account is deactivated, as /admin/usuarios does.
   */
  async function eliminarItem(admin: ActorAdmin, item: Item): Promise<void> {
    const comoAutor: Actor = { id: item.idAutor, groups: ['admin'] };
    try {
      if (esComentarioRecurso(item.tipo)) {
        await recursos.eliminarComentario(RECURSO_DE_COMENTARIO[item.tipo], item.id, comoAutor);
        return;
      }
      switch (item.tipo) {
        case 'capsula':
          await deps.capsulas.eliminar(comoAutor, item.id);
          return;
        case 'material':
          await deps.biblioteca.eliminar(comoAutor, item.id);
          return;
        case 'manual':
          await deps.manuales.eliminar(comoAutor, item.id);
          return;
        case 'conversacion':
          await deps.foro.conversaciones.eliminar(comoAutor, item.id);
          return;
        case 'comentario_foro':
          await deps.foro.comentarios.eliminar(comoAutor, item.id);
          return;
        default:
          await deps.adminUsuarios.actualizar(admin, item.id, { activo: false });
      }
    } catch (error) {
      // Gone meanwhile (its author deleted it): the reports are closed all the same.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }

  // ── The queue's entries ──────────────────────────────────────────────────────────────────────

  /** What the queue shows of an item, deleted or not. */
  async function vistaPrevia(tipo: TipoDenuncia, id: number) {
    const item = await leerItem(tipo, id);
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
        : (await db.select({ id: usuarios.id, email: usuarios.email }).from(usuarios).where(inArray(usuarios.id, idsAdmin))).map(
            (a) => [a.id, a.email] as const,
          ),
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
                // The local key, or an admin whose account was deleted since.
                admin: (primera.id_admin !== null && admins.get(primera.id_admin)) || CLAVE_LOCAL,
              }
            : null,
      });
    }
    return resultado;
  }

  /**
   * Everyone told of a decision: the author (by the action) and each person who reported it. An
   * author whose item is hidden or deleted without the admin's own words is told the reports'
   * reasons as the why.
   */
  async function avisar(
    tx: Db,
    item: Item | null,
    r: { accion: AccionModeracion; motivo: string; estabaOculto: boolean },
    e: {
      tipo: TipoDenuncia;
      id: number;
      denunciantes: number[];
      motivos: MotivoDenuncia[];
    },
  ) {
    const borrado = !item || r.accion === 'eliminar';
    const titulo = item?.titulo ?? SIN_TITULO;
    const base = { recurso_tipo: e.tipo, id_recurso: e.id, titulo, detalle: r.motivo };
    if (item) {
      const aviso = avisoAlAutor(r.accion, r.estabaOculto);
      const porque = !r.motivo && aviso !== 'restaurado' ? motivosEnPalabras(e.motivos) : r.motivo;
      if (aviso)
        await notificarModeracion(tx, {
          ...base,
          detalle: porque,
          tipo: aviso,
          para: [item.idAutor],
          enlace: borrado ? '/notificaciones' : item.enlace,
        });
    }
    const sigueVisible = !borrado && r.accion !== 'ocultar';
    await notificarModeracion(tx, {
      ...base,
      tipo: 'denuncia_resuelta',
      para: e.denunciantes,
      enlace: sigueVisible && item ? item.enlace : '/notificaciones',
    });
  }

  return {
    /** Reports an item the actor can see (not their own), once; enough reports hide it. */
    async denunciar(actor: Actor, entrada: DenunciaNueva): Promise<Esquema<'Denuncia'>> {
      const { tipo, id } = entrada;
      const item = await leerItem(tipo, id);
      if (!item || !puedeVer(item, actor)) throw new ApiError(404, NO_ENCONTRADO[tipo]);
      if (item.idAutor === actor.id) throw new ApiError(400, PROPIO);
      const clave = and(eq(denuncias.tipo, tipo), eq(denuncias.id_recurso, id));
      return db.transaction(async (tx) => {
        // One report of an item at a time: two at once would each count the other's as missing
        // and neither would reach the threshold. Released at the commit.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`denuncia:${tipo}`}), ${id})`);
        const [ya] = await tx
          .select({ id: denuncias.id })
          .from(denuncias)
          .where(and(clave, eq(denuncias.id_usuario, actor.id)));
        if (ya) throw new ApiError(409, YA_DENUNCIADO);
        let fila: typeof denuncias.$inferSelect | undefined;
        try {
          [fila] = await tx
            .insert(denuncias)
            .values({
              tipo,
              id_recurso: id,
              id_usuario: actor.id,
              motivo: entrada.motivo,
              detalle: entrada.detalle,
              fecha_creacion: ctx.now(),
            })
            .returning();
        } catch (error) {
          // Two requests at once: the unique index lets one through.
          if (codigoError(error) === '23505') throw new ApiError(409, YA_DENUNCIADO);
          throw error;
        }
        if (!fila) throw new Error('report not stored');
        const [abiertas] = await tx
          .select({ n: countDistinct(denuncias.id_usuario) })
          .from(denuncias)
          .where(and(clave, eq(denuncias.estado, 'abierta')));
        let oculto = item.oculto;
        if ((abiertas?.n ?? 0) >= umbral && !oculto && (await marcarOculto(tx, tipo, id, true))) {
          oculto = true;
          await notificarModeracion(tx, {
            tipo: 'oculto',
            para: [item.idAutor],
            recurso_tipo: tipo,
            id_recurso: id,
            titulo: item.titulo,
            enlace: item.enlace,
            detalle: OCULTO_POR_DENUNCIAS,
          });
          ctx.log.info('item hidden by reports', { tipo, id, reports: abiertas?.n });
        }
        return {
          id: fila.id,
          tipo,
          id_recurso: id,
          motivo: fila.motivo,
          detalle: fila.detalle,
          fecha_creacion: fila.fecha_creacion.toISOString(),
          oculto,
        };
      });
    },

    /**
     * Whether a hidden item awaits an admin's decision (open reports hid it) rather than being
     * hidden by one (its reports resolved with 'ocultar'): the item pages' notice says which.
     */
    async enRevision(tipo: TipoDenuncia, id: number): Promise<boolean> {
      const [abierta] = await db
        .select({ id: denuncias.id })
        .from(denuncias)
        .where(and(eq(denuncias.tipo, tipo), eq(denuncias.id_recurso, id), eq(denuncias.estado, 'abierta')))
        .limit(1);
      return abierta !== undefined;
    },

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

    /** An admin decides: every open report of the item closed, the action applied, everyone concerned told. */
    async resolver(admin: ActorAdmin, idDenuncia: number, r: Resolucion): Promise<ItemDenunciado> {
      const [d] = await db.select().from(denuncias).where(eq(denuncias.id, idDenuncia));
      if (!d) throw new ApiError(404, DENUNCIA_NO_ENCONTRADA);
      if (d.estado === 'resuelta') throw new ApiError(409, YA_RESUELTA);
      const item = await leerItem(d.tipo, d.id_recurso);
      // Deletions run in their sections' own transactions (and remove files): first, so the
      // reports close only once the item is gone.
      if (r.accion === 'eliminar' && item) await eliminarItem(admin, item);
      const fecha = ctx.now();
      await db.transaction(async (tx) => {
        const cerradas = await tx
          .update(denuncias)
          .set({ estado: 'resuelta', accion: r.accion, motivo_resolucion: r.motivo, id_admin: admin.id, fecha_resolucion: fecha })
          .where(and(eq(denuncias.tipo, d.tipo), eq(denuncias.id_recurso, d.id_recurso), eq(denuncias.estado, 'abierta')))
          .returning({ id: denuncias.id, denunciante: denuncias.id_usuario, motivo: denuncias.motivo });
        // Another admin decided meanwhile.
        if (!cerradas.some((c) => c.id === idDenuncia)) throw new ApiError(409, YA_RESUELTA);
        const estabaOculto = item?.oculto ?? false;
        if (item && r.accion !== 'eliminar') {
          const ocultar = r.accion === 'ocultar';
          if (ocultar || estabaOculto) await marcarOculto(tx, d.tipo, d.id_recurso, ocultar);
        }
        await avisar(
          tx,
          item,
          { accion: r.accion, motivo: r.motivo, estabaOculto },
          { tipo: d.tipo, id: d.id_recurso, denunciantes: cerradas.map((c) => c.denunciante), motivos: cerradas.map((c) => c.motivo) },
        );
        const que = `${NOMBRE_TIPO[d.tipo]} «${item?.titulo ?? SIN_TITULO}»`;
        await registrarAccion(tx, admin, {
          accion: `moderar_${r.accion}`,
          tipo: d.tipo,
          id_registro: d.id_recurso,
          detalle: `Resolvió ${cerradas.length === 1 ? '1 denuncia' : `${cerradas.length} denuncias`} sobre ${que} (${r.accion})${r.motivo ? `. Motivo: ${r.motivo}` : ''}`,
        });
      });
      ctx.log.info('reports resolved', { tipo: d.tipo, id: d.id_recurso, accion: r.accion, adminId: admin.id });
      const [hecho] = await entradas('resuelta', [{ tipo: d.tipo, id_recurso: d.id_recurso, fecha }]);
      if (!hecho) throw new Error('resolved reports vanished');
      return hecho;
    },
  };
}

export type DenunciasService = ReturnType<typeof createDenunciasService>;
