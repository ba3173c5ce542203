/**
 * Profiles (docs/SPEC.md sections 2 to 9,): the profile view, personal information, photo,
 * specialties, areas and levels (issue 21), and 'Mis publicaciones'. A person edits only their
 * own profile; the specialty, area and level editors are for teachers (rol Profesor with a
 * profile) only.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { FOTO_INVALIDA } from '../../validation/archivos.ts';
import {
  AREA_REQUERIDA,
  claveNombre,
  type DatosPersonales,
  ESPECIALIDAD_REQUERIDA,
  MAX_ESPECIALIDADES,
  NIVEL_PERFIL_REQUERIDO,
} from '../../validation/perfil.ts';
import type { UploadedFile } from '../archivo-recibido.server.ts';
import type { Db } from '../db/client.server.ts';
import {
  capsulas,
  especialidades,
  manuales,
  materiales,
  perfilAreas,
  perfilEspecialidades,
  perfilesDocentes,
  perfilNiveles,
  usuarios,
} from '../db/schema.server.ts';
import { mismoNombre } from '../db/search.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { ImagenInvalida, procesarFotoPerfil } from '../media/imagenes.server.ts';
import { sniffFile } from '../media/sniff.server.ts';
import { type Actor, exigirMismo, veOculto } from './actor.server.ts';
import type { BibliotecaService } from './biblioteca.server.ts';
import type { CapsulasService } from './capsulas.server.ts';
import { areaPorNombre, nivelPorNombre } from './catalogos.server.ts';
import { USUARIO_NO_ENCONTRADO } from './comunidad.server.ts';
import type { ServiceContext } from './context.server.ts';
import { EMAIL_EXISTENTE } from './invitaciones.server.ts';
import type { ManualesService } from './manuales.server.ts';
import { visibleA } from './recursos.server.ts';
import { cargarPerfiles, fotoUrl, leerUsuario, type PerfilDocente, type Usuario, type UsuarioRow } from './usuarios.server.ts';

const FOTO_REQUERIDA = 'Debe subir una imagen';
const SOLO_DOCENTES = 'Solo los docentes con perfil pueden editar especialidades, áreas y niveles';

/**
 * Offered in the specialty picker besides the names teachers already wrote, so a fresh install
 * has a list to choose from (docs/SPEC.md section 5: 'choose from the list or write one').
 */
const ESPECIALIDADES_SUGERIDAS = [
  'Convivencia escolar',
  'Didáctica de la matemática',
  'Dificultades del aprendizaje',
  'Educación ambiental',
  'Educación diferencial',
  'Educación intercultural',
  'Evaluación para el aprendizaje',
  'Inclusión educativa',
  'Lectura y escritura inicial',
  'Liderazgo pedagógico',
  'Orientación vocacional',
  'Tecnologías para el aprendizaje',
] as const;

/** Storage keys of a photo: the 200x200 under foto_perfil, the small one beside it. */
const clavesFoto = (grande: string) => ({ grande, min: grande.replace(/\.webp$/, '-min.webp') });

async function perfilDe(db: Db, id: number): Promise<PerfilDocente> {
  const perfil = (await cargarPerfiles(db, [id])).get(id);
  if (!perfil) throw new ErrorDeDominio(403, SOLO_DOCENTES);
  return perfil;
}

export function createPerfilesService(ctx: ServiceContext, deps: Secciones) {
  const { db, storage } = ctx;

  async function fila(id: number): Promise<UsuarioRow> {
    const [row] = await db.select().from(usuarios).where(eq(usuarios.id, id));
    if (!row) throw new ErrorDeDominio(404, USUARIO_NO_ENCONTRADO);
    return row;
  }

  /**
   * 404 unless this person may see the account, the same as a missing one: an inactive account, or
   * one hidden by moderation, only its owner and admins see.
   */
  function exigirVisible(actor: Actor, row: UsuarioRow): void {
    if ((!row.activo || row.oculto) && !veOculto(actor, row.id)) throw new ErrorDeDominio(404, USUARIO_NO_ENCONTRADO);
  }

  /** A profile this person may see (exigirVisible). */
  async function visible(actor: Actor, id: number): Promise<UsuarioRow> {
    const row = await fila(id);
    exigirVisible(actor, row);
    return row;
  }

  /** The signed-in teacher editing their own profile (rol Profesor with a profile), else 403. */
  async function docentePropio(actor: Actor, id: number): Promise<void> {
    exigirMismo(actor, id);
    const row = await fila(id);
    const [perfil] = await db.select().from(perfilesDocentes).where(eq(perfilesDocentes.id_usuario, id));
    if (row.rol !== 'Profesor' || !perfil) throw new ErrorDeDominio(403, SOLO_DOCENTES);
  }

  return {
    /**
     * A profile, if this person may see it (exigirVisible), read with its lists in one prepared
     * statement (leerUsuario). Its owner and admins see every field; others see the private ones
     * empty (openapi.yaml getUsuario).
     */
    async obtener(actor: Actor, id: number): Promise<Usuario> {
      const leido = await leerUsuario(db, id);
      if (!leido) throw new ErrorDeDominio(404, USUARIO_NO_ENCONTRADO);
      exigirVisible(actor, leido.row);
      const { usuario } = leido;
      if (veOculto(actor, id)) return usuario;
      return { ...usuario, rut: '', email: '', genero: '', nacionalidad: '', telefono: '', fecha_nacimiento: null };
    },

    /** Personal information: only email, gender and phone change (the rest is read-only). */
    async actualizar(actor: Actor, id: number, datos: DatosPersonales): Promise<Usuario> {
      exigirMismo(actor, id);
      await fila(id);
      const enUso = () => new ErrorDeDominio(409, EMAIL_EXISTENTE, { errors: { email: [EMAIL_EXISTENTE] } });
      const [otro] = await db
        .select({ id: usuarios.id })
        .from(usuarios)
        .where(and(eq(usuarios.email, datos.email), ne(usuarios.id, id)));
      if (otro) throw enUso();
      try {
        await db.update(usuarios).set({ email: datos.email, genero: datos.genero, telefono: datos.telefono }).where(eq(usuarios.id, id));
      } catch (error) {
        // Two people claiming the same address at the same moment: the unique index decides.
        if (/usuarios_email_idx|unique/i.test(String((error as { cause?: unknown }).cause ?? error))) throw enUso();
        throw error;
      }
      ctx.log.info('personal information updated', { userId: id });
      return this.obtener(actor, id);
    },

    limiteFotoBytes: () => ctx.config.MAX_IMAGEN_MB * 1024 * 1024,

    /**
     * Replaces the person's photo: the bytes must be a JPEG, PNG or WebP that sharp can decode;
     * two WebP sizes are stored and the old ones removed. Answers the new photo URL.
     */
    async subirFoto(actor: Actor, id: number, archivo: UploadedFile | undefined): Promise<string> {
      exigirMismo(actor, id);
      const anterior = await fila(id);
      if (!archivo || archivo.size === 0) throw new ErrorDeDominio(400, FOTO_REQUERIDA, { errors: { foto: [FOTO_REQUERIDA] } });
      const invalida = () => new ErrorDeDominio(400, FOTO_INVALIDA, { errors: { foto: [FOTO_INVALIDA] } });
      const tipo = await sniffFile(archivo.tmpPath);
      if (tipo !== 'jpeg' && tipo !== 'png' && tipo !== 'webp') throw invalida();
      let foto: Awaited<ReturnType<typeof procesarFotoPerfil>>;
      try {
        foto = await procesarFotoPerfil(archivo.tmpPath);
      } catch (error) {
        if (error instanceof ImagenInvalida) throw invalida();
        throw error;
      }
      const nuevas = clavesFoto(`usuarios/${id}/foto-${randomBytes(6).toString('hex')}.webp`);
      try {
        await storage.write(nuevas.grande, bufferStream(foto.grande));
        await storage.write(nuevas.min, bufferStream(foto.min));
        await db.update(usuarios).set({ foto_perfil: nuevas.grande }).where(eq(usuarios.id, id));
      } catch (error) {
        await Promise.all([storage.remove(nuevas.grande), storage.remove(nuevas.min)]);
        throw error;
      }
      if (anterior.foto_perfil) {
        const viejas = clavesFoto(anterior.foto_perfil);
        await Promise.all([storage.remove(viejas.grande), storage.remove(viejas.min)]);
      }
      ctx.log.info('profile photo updated', { userId: id, bytes: archivo.size });
      return fotoUrl({ id, foto_perfil: nuevas.grande });
    },

    /** The stored photo of a user ('grande' 200x200 or 'min'), or null when there is none. */
    async foto(id: number, tamano: 'grande' | 'min'): Promise<{ key: string; version: string } | null> {
      const row = await fila(id);
      if (!row.foto_perfil) return null;
      const version = new URL(fotoUrl(row), 'http://x').searchParams.get('v') ?? '';
      return { key: clavesFoto(row.foto_perfil)[tamano], version };
    },

    /** 'Mis publicaciones': capsules (only ready ones for others), manuals and materials. */
    async contenidosSubidos(actor: Actor, id: number): Promise<Esquema<'ContenidosSubidos'>> {
      const row = await visible(actor, id);
      return componerContenidos(db, row, actor, deps);
    },

    /** Names for the specialty picker: those teachers use plus the suggested ones, A to Z. */
    async especialidades(): Promise<string[]> {
      const rows = await db.select({ nombre: especialidades.nombre }).from(especialidades);
      const porClave = new Map<string, string>();
      for (const nombre of [...rows.map((r) => r.nombre), ...ESPECIALIDADES_SUGERIDAS]) {
        if (!porClave.has(claveNombre(nombre))) porClave.set(claveNombre(nombre), nombre);
      }
      return [...porClave.values()].sort((a, b) => a.localeCompare(b, 'es'));
    },

    /** Adds an existing or a new specialty; at most MAX_ESPECIALIDADES, never twice. */
    async agregarEspecialidad(actor: Actor, id: number, nombre: string): Promise<PerfilDocente> {
      await docentePropio(actor, id);
      await db.transaction(async (tx) => {
        // Holds the profile while counting, so two quick clicks cannot make six.
        await tx.select().from(perfilesDocentes).where(eq(perfilesDocentes.id_usuario, id)).for('update');
        const propias = await tx
          .select({ nombre: especialidades.nombre })
          .from(perfilEspecialidades)
          .innerJoin(especialidades, eq(especialidades.id, perfilEspecialidades.id_especialidad))
          .where(eq(perfilEspecialidades.id_usuario, id));
        if (propias.some((p) => claveNombre(p.nombre) === claveNombre(nombre))) {
          const mensaje = `La especialidad ${nombre} ya está en tu perfil`;
          throw new ErrorDeDominio(400, mensaje, { errors: { especialidad: [mensaje] } });
        }
        if (propias.length >= MAX_ESPECIALIDADES) {
          const mensaje = `Puede tener hasta ${MAX_ESPECIALIDADES} especialidades`;
          throw new ErrorDeDominio(400, mensaje, { errors: { especialidad: [mensaje] } });
        }
        const idEspecialidad = await especialidadPorNombre(tx, nombre);
        await tx.insert(perfilEspecialidades).values({ id_usuario: id, id_especialidad: idEspecialidad }).onConflictDoNothing();
      });
      return perfilDe(db, id);
    },

    async quitarEspecialidad(actor: Actor, id: number, nombre: string): Promise<PerfilDocente> {
      await docentePropio(actor, id);
      const propias = await db
        .select({ id: especialidades.id, nombre: especialidades.nombre })
        .from(perfilEspecialidades)
        .innerJoin(especialidades, eq(especialidades.id, perfilEspecialidades.id_especialidad))
        .where(eq(perfilEspecialidades.id_usuario, id));
      const esta = propias.find((p) => claveNombre(p.nombre) === claveNombre(nombre));
      if (!esta) throw new ErrorDeDominio(404, `La especialidad ${nombre} no está en tu perfil`);
      await db
        .delete(perfilEspecialidades)
        .where(and(eq(perfilEspecialidades.id_usuario, id), eq(perfilEspecialidades.id_especialidad, esta.id)));
      return perfilDe(db, id);
    },

    /** Adds a curriculum area by its name; an unknown or owned one answers 400. */
    async agregarArea(actor: Actor, id: number, nombre: string): Promise<PerfilDocente> {
      await docentePropio(actor, id);
      const idArea = await areaPorNombre(db, nombre);
      if (idArea === undefined) throw new ErrorDeDominio(400, AREA_REQUERIDA, { errors: { area: [AREA_REQUERIDA] } });
      const [agregada] = await db.insert(perfilAreas).values({ id_usuario: id, id_area: idArea }).onConflictDoNothing().returning();
      if (!agregada) {
        const mensaje = `El area ${nombre} ya está en tu perfil`;
        throw new ErrorDeDominio(400, mensaje, { errors: { area: [mensaje] } });
      }
      return perfilDe(db, id);
    },

    async quitarArea(actor: Actor, id: number, nombre: string): Promise<PerfilDocente> {
      await docentePropio(actor, id);
      const idArea = await areaPorNombre(db, nombre);
      const quitadas =
        idArea === undefined
          ? []
          : await db
              .delete(perfilAreas)
              .where(and(eq(perfilAreas.id_usuario, id), eq(perfilAreas.id_area, idArea)))
              .returning();
      if (quitadas.length === 0) throw new ErrorDeDominio(404, `El area ${nombre} no está en tu perfil`);
      return perfilDe(db, id);
    },

    /** Adds a curriculum level by its name (issue 21), as areas are added. */
    async agregarNivel(actor: Actor, id: number, nombre: string): Promise<PerfilDocente> {
      await docentePropio(actor, id);
      const codigo = await nivelPorNombre(db, nombre);
      if (codigo === undefined) throw new ErrorDeDominio(400, NIVEL_PERFIL_REQUERIDO, { errors: { nivel: [NIVEL_PERFIL_REQUERIDO] } });
      const [agregado] = await db.insert(perfilNiveles).values({ id_usuario: id, codigo_nivel: codigo }).onConflictDoNothing().returning();
      if (!agregado) {
        const mensaje = `El nivel ${nombre} ya está en tu perfil`;
        throw new ErrorDeDominio(400, mensaje, { errors: { nivel: [mensaje] } });
      }
      return perfilDe(db, id);
    },

    async quitarNivel(actor: Actor, id: number, nombre: string): Promise<PerfilDocente> {
      await docentePropio(actor, id);
      const codigo = await nivelPorNombre(db, nombre);
      const quitados =
        codigo === undefined
          ? []
          : await db
              .delete(perfilNiveles)
              .where(and(eq(perfilNiveles.id_usuario, id), eq(perfilNiveles.codigo_nivel, codigo)))
              .returning();
      if (quitados.length === 0) throw new ErrorDeDominio(404, `El nivel ${nombre} no está en tu perfil`);
      return perfilDe(db, id);
    },
  };
}

export type PerfilesService = ReturnType<typeof createPerfilesService>;

function bufferStream(data: Buffer) {
  return Readable.from([data]);
}

async function especialidadPorNombre(db: Db, nombre: string): Promise<number> {
  const mismo = mismoNombre(especialidades.nombre, nombre);
  const [existente] = await db.select({ id: especialidades.id }).from(especialidades).where(mismo);
  if (existente) return existente.id;
  const [creada] = await db.insert(especialidades).values({ nombre }).onConflictDoNothing().returning({ id: especialidades.id });
  if (creada) return creada.id;
  const [otra] = await db.select({ id: especialidades.id }).from(especialidades).where(mismo);
  if (!otra) throw new ErrorDeDominio(400, ESPECIALIDAD_REQUERIDA, { errors: { especialidad: [ESPECIALIDAD_REQUERIDA] } });
  return otra.id;
}

// ── 'Mis publicaciones' ────────────────────────────────────────────────────────────────────────
// Each item comes from its section's service, so it is exactly what that section shows.

interface Secciones {
  manuales: Pick<ManualesService, 'porIds'>;
  capsulas: Pick<CapsulasService, 'porIds'>;
  biblioteca: Pick<BibliotecaService, 'porIds'>;
}

async function componerContenidos(db: Db, row: UsuarioRow, actor: Actor, secciones: Secciones): Promise<Esquema<'ContenidosSubidos'>> {
  const propio = actor.id === row.id;
  const masNuevos = <T extends typeof manuales | typeof capsulas | typeof materiales>(tabla: T) => [
    desc(tabla.fecha_creacion),
    desc(tabla.id),
  ];
  const [idsManuales, idsCapsulas, idsMateriales] = await Promise.all([
    db
      .select({ id: manuales.id })
      .from(manuales)
      .where(and(eq(manuales.id_usuario, row.id), visibleA(actor, manuales)))
      .orderBy(...masNuevos(manuales)),
    db
      .select({ id: capsulas.id })
      .from(capsulas)
      .where(and(eq(capsulas.id_usuario, row.id), propio ? undefined : eq(capsulas.estado, 'listo'), visibleA(actor, capsulas)))
      .orderBy(...masNuevos(capsulas)),
    db
      .select({ id: materiales.id })
      .from(materiales)
      .where(and(eq(materiales.id_usuario, row.id), visibleA(actor, materiales)))
      .orderBy(...masNuevos(materiales)),
  ]);
  // One batch per section (the ids above already leave out what others may not see: capsules not
  // ready, items hidden by moderation).
  // Listing one's publications is not a visit: no view is counted.
  const [capsulasSubidas, manualesSubidos, materialesSubidos] = await Promise.all([
    secciones.capsulas.porIds(idsCapsulas.map((c) => c.id)),
    secciones.manuales.porIds(idsManuales.map((m) => m.id)),
    secciones.biblioteca.porIds(idsMateriales.map((m) => m.id)),
  ]);
  return { capsulas: capsulasSubidas, manuales: manualesSubidos, materialesDocentes: materialesSubidos };
}
