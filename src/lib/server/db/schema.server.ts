/**
 * The data model: one PostgreSQL schema (pg-core) for every entity of docs/SPEC.md section 3.
 * Property names are the contract's snake_case field names, so no layer renames them.
 * The same schema runs on PGlite (embedded default) and on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { TIPOS_GUARDABLES } from '../../validation/colecciones.ts';
import { ACCIONES_MODERACION, MOTIVOS_DENUNCIA, TIPOS_DENUNCIA } from '../../validation/denuncias.ts';
import { CODIGOS_LICENCIA, LICENCIA_INICIAL, VISIBILIDADES } from '../../validation/licencias.ts';
import { TIPOS_SEGUIMIENTO } from '../../validation/seguimientos.ts';
import { DESTINOS_SUBIDA } from '../../validation/subidas.ts';

const creado = () => timestamp('fecha_creacion', { withTimezone: true }).notNull().defaultNow();
const ref = (name: string) => integer(name).notNull();

// ── Curriculum lookups ──────────────────────────────────────────────────────────────────────────

export const niveles = pgTable('niveles', {
  codigo: text('codigo').primaryKey(),
  nombre: text('nombre').notNull(),
  ciclo: text('ciclo').notNull(),
  orden: smallint('orden').notNull(),
});

export const areas = pgTable('areas', {
  id: serial('id').primaryKey(),
  codigo: text('codigo').notNull().unique(),
  nombre: text('nombre').notNull(),
});

/** Which levels each asignatura is taught in (drives the area/level filters). */
export const areasNiveles = pgTable(
  'areas_niveles',
  {
    id_area: ref('id_area').references(() => areas.id, { onDelete: 'cascade' }),
    codigo_nivel: text('codigo_nivel')
      .notNull()
      .references(() => niveles.codigo, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.id_area, t.codigo_nivel] })],
);

export const unidades = pgTable(
  'unidades',
  {
    id: serial('id').primaryKey(),
    codigo: text('codigo').notNull().unique(),
    nombre: text('nombre').notNull(),
    id_area: ref('id_area').references(() => areas.id),
    codigo_nivel: text('codigo_nivel')
      .notNull()
      .references(() => niveles.codigo),
    /** Position among its pair's units, from 1 (issue 30); 0 for units seeded before it existed, ordered by code. */
    orden: smallint('orden').notNull().default(0),
    /** False once retired: out of the forms and filters, still on the materials that use it. Never deleted while used. */
    vigente: boolean('vigente').notNull().default(true),
  },
  (t) => [index('unidades_area_nivel_idx').on(t.id_area, t.codigo_nivel)],
);

/**
 * The other levels a unit is also taught in (decision 0084): a module of "3° o 4° medio" (Bases
 * 2019, `FG-EFS1-3y4-OAC-01`) or a núcleo of Educación Parvularia's transition tramo (NT1 and NT2).
 * The unit keeps its first level in `unidades.codigo_nivel`; a row here offers it, with its OAs,
 * in one more level's forms, filters and map. Most units have none.
 */
export const unidadesNiveles = pgTable(
  'unidades_niveles',
  {
    id_unidad: ref('id_unidad').references(() => unidades.id, { onDelete: 'cascade' }),
    codigo_nivel: text('codigo_nivel')
      .notNull()
      .references(() => niveles.codigo),
  },
  (t) => [primaryKey({ columns: [t.id_unidad, t.codigo_nivel] }), index('unidades_niveles_nivel_idx').on(t.codigo_nivel)],
);

export const oas = pgTable('oas', {
  id: serial('id').primaryKey(),
  codigo: text('codigo').notNull().unique(),
  descripcion: text('descripcion').notNull(),
  unidad: ref('id_unidad').references(() => unidades.id),
  /** Position among its unit's OAs, from 1 (issue 30); 0 before, ordered by code. */
  orden: smallint('orden').notNull().default(0),
  /** False once retired (issue 30): OAs are never deleted, materials keep them. */
  vigente: boolean('vigente').notNull().default(true),
  /** Where the statement was checked (a URL or a reference); null when not recorded. */
  fuente: text('fuente'),
});

export const metodologias = pgTable('metodologias', {
  id: serial('id').primaryKey(),
  nombre: text('nombre').notNull().unique(),
});

export const tiposMaterial = pgTable('tipos_material', {
  id: serial('id').primaryKey(),
  nombre: text('nombre').notNull().unique(),
});

export const colegios = pgTable('colegios', {
  id: serial('id').primaryKey(),
  nombre: text('nombre').notNull().unique(),
});

// ── Accounts ────────────────────────────────────────────────────────────────────────────────────

export const usuarios = pgTable(
  'usuarios',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    /** Null until the account is activated (the teacher sets the first password). */
    password_hash: text('password_hash'),
    activo: boolean('activo').notNull().default(false),
    primer_nombre: text('primer_nombre').notNull(),
    segundo_nombre: text('segundo_nombre').notNull().default(''),
    apellido_paterno: text('apellido_paterno').notNull(),
    apellido_materno: text('apellido_materno').notNull().default(''),
    rut: text('rut').notNull().default(''),
    // '' until the person fills in the profile form, which allows only the three others.
    genero: text('genero', { enum: ['', 'Masculino', 'Femenino', 'Otro'] })
      .notNull()
      .default(''),
    nacionalidad: text('nacionalidad').notNull().default(''),
    telefono: text('telefono').notNull().default(''),
    fecha_nacimiento: date('fecha_nacimiento'),
    /** Storage key of the resized photo; '' means no photo. */
    foto_perfil: text('foto_perfil').notNull().default(''),
    rol: text('rol', { enum: ['Profesor', 'Administrador'] })
      .notNull()
      .default('Profesor'),
    /** Permission groups; 'admin' is the meaningful one (docs/SPEC.md section 6). */
    groups: text('groups').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Set when an admin deactivates the account (issue 16): it cannot sign in, activate or reset
     * its password, and `activo` is false meanwhile. Its content stays, credited to its name.
     * Null for an account that is active or waiting for activation.
     */
    desactivada_en: timestamp('desactivada_en', { withTimezone: true }),
    /** How notifications reach the person by email (issue 17): each one, a daily digest, or never. */
    preferencia_correo: text('preferencia_correo', { enum: ['cada_vez', 'diario', 'nunca'] })
      .notNull()
      .default('diario'),
    /** When the person's last daily digest was queued (issue 17): never two in one local day. */
    resumen_enviado: timestamp('resumen_enviado', { withTimezone: true }),
    /** The profile hidden by moderation (issue 17): out of the directory, its page seen only by the person and admins. */
    oculto: boolean('oculto').notNull().default(false),
    /**
     * 'Ahorro de datos' (issue 20): no autoplay, video at or below 360p, a short buffer, the
     * smallest thumbnails. Off by default; the browser's Save-Data or a slow link also turns it on.
     */
    ahorro_datos: boolean('ahorro_datos').notNull().default(false),
    /**
     * Opposition (issue 31, Ley 21.719): the person chose to stay out of the community directory
     * and its contact form. Unlike `oculto` (moderation), the person sets it in their preferences.
     */
    oculto_directorio: boolean('oculto_directorio').notNull().default(false),
    /** The privacy notice's version the person last accepted, and when (issue 31); null before. */
    privacidad_version: text('privacidad_version'),
    privacidad_aceptada_en: timestamp('privacidad_aceptada_en', { withTimezone: true }),
    /**
     * A scheduled deletion (issue 31): the account is erased by the 'baja-cuenta' job once
     * `baja_programada` passes, unless the person signs in (which cancels) or it is cancelled.
     * `baja_conservar_aportes` keeps their contributions under 'Docente retirado/a'.
     */
    baja_programada: timestamp('baja_programada', { withTimezone: true }),
    baja_conservar_aportes: boolean('baja_conservar_aportes').notNull().default(true),
    /** When the personal data was erased (issue 31): the row stays only as an anonymous author. */
    eliminada_en: timestamp('eliminada_en', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [uniqueIndex('usuarios_email_idx').on(t.email)],
);

/**
 * The home's 'Desde tu última visita' (issue 21): when the person opened Inicio in their current
 * visit (`visita_ultima`) and in the one before (`visita_anterior`). Openings less than an hour
 * apart are one visit, so a reload does not zero the counts. A table of its own, not columns of
 * `usuarios` (issue 36, migration 0024): a write to `usuarios` makes every read cache built on it
 * (the signed-in person of every page, the capsule pages) read again for everyone, and each
 * teacher's first opening of the day is such a write.
 */
export const visitasInicio = pgTable('visitas_inicio', {
  id_usuario: integer('id_usuario')
    .primaryKey()
    .references(() => usuarios.id, { onDelete: 'cascade' }),
  visita_ultima: timestamp('visita_ultima', { withTimezone: true }).notNull(),
  visita_anterior: timestamp('visita_anterior', { withTimezone: true }),
});

/** The teacher profile (usuario_asociado): one per teacher. */
export const perfilesDocentes = pgTable('perfiles_docentes', {
  id_usuario: integer('id_usuario')
    .primaryKey()
    .references(() => usuarios.id, { onDelete: 'cascade' }),
  titulo_profesional: text('titulo_profesional').notNull().default(''),
});

export const perfilColegios = pgTable(
  'perfil_colegios',
  {
    id_usuario: ref('id_usuario').references(() => perfilesDocentes.id_usuario, { onDelete: 'cascade' }),
    id_colegio: ref('id_colegio').references(() => colegios.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.id_usuario, t.id_colegio] })],
);

export const especialidades = pgTable('especialidades', {
  id: serial('id').primaryKey(),
  nombre: text('nombre').notNull().unique(),
});

export const perfilEspecialidades = pgTable(
  'perfil_especialidades',
  {
    id_usuario: ref('id_usuario').references(() => perfilesDocentes.id_usuario, { onDelete: 'cascade' }),
    id_especialidad: ref('id_especialidad').references(() => especialidades.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.id_usuario, t.id_especialidad] })],
);

export const perfilAreas = pgTable(
  'perfil_areas',
  {
    id_usuario: ref('id_usuario').references(() => perfilesDocentes.id_usuario, { onDelete: 'cascade' }),
    id_area: ref('id_area').references(() => areas.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.id_usuario, t.id_area] })],
);

/** The levels a teacher teaches (issue 21): with the areas, what the home's 'Novedades para ti' shows first. */
export const perfilNiveles = pgTable(
  'perfil_niveles',
  {
    id_usuario: ref('id_usuario').references(() => perfilesDocentes.id_usuario, { onDelete: 'cascade' }),
    codigo_nivel: text('codigo_nivel')
      .notNull()
      .references(() => niveles.codigo, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.id_usuario, t.codigo_nivel] })],
);

/** Activation and password-reset tokens: random, stored hashed, single use, expiring. */
export const tokensCuenta = pgTable(
  'tokens_cuenta',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: ['activacion', 'recuperacion', 'desafio_segundo_factor', 'equipo_recordado'] }).notNull(),
    token_hash: text('token_hash').notNull().unique(),
    expira: timestamp('expira', { withTimezone: true }).notNull(),
    usado: timestamp('usado', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [index('tokens_cuenta_usuario_idx').on(t.id_usuario, t.tipo)],
);

/**
 * Refresh tokens. Each sign-in starts a family; every renewal rotates the token within it.
 * A token presented after it was rotated (a replay) revokes the whole family.
 */
export const tokensRefresh = pgTable(
  'tokens_refresh',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    familia: text('familia').notNull(),
    token_hash: text('token_hash').notNull().unique(),
    /**
     * The address and browser that started the session (issues 31 and 32), copied along the
     * family's rotations; the 'retencion-direcciones' job blanks addresses older than
     * `RETENCION_DIRECCIONES_DIAS`.
     */
    ip: text('ip'),
    agente: text('agente'),
    /** Absolute expiry of the family: rotation never extends it. */
    expira: timestamp('expira', { withTimezone: true }).notNull(),
    rotado: timestamp('rotado', { withTimezone: true }),
    revocado: timestamp('revocado', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [index('tokens_refresh_familia_idx').on(t.familia), index('tokens_refresh_usuario_idx').on(t.id_usuario)],
);

/** Failed-attempt counters for rate limits (per account, per address), in fixed windows. */
export const limitesIntentos = pgTable('limites_intentos', {
  clave: text('clave').primaryKey(),
  ventana_inicio: timestamp('ventana_inicio', { withTimezone: true }).notNull(),
  intentos: integer('intentos').notNull(),
});

// ── Licences and public pages (issue 34, decision 0067) ─────────────────────────────────────────

/**
 * The columns capsules, materials and manuals share for issue 34: the licence the author chose
 * (src/lib/validation/licencias.ts; rows from before it are 'reservados'), who may see the item
 * ('publico' = anyone, on /explorar/, only with an open licence), and when it last changed (the
 * sitemap's lastmod; null until its first edit, then the creation date stands in).
 */
const publicacion = () => ({
  licencia: text('licencia', { enum: CODIGOS_LICENCIA }).notNull().default(LICENCIA_INICIAL),
  visibilidad: text('visibilidad', { enum: VISIBILIDADES }).notNull().default('red'),
  fecha_actualizacion: timestamp('fecha_actualizacion', { withTimezone: true }),
});

// ── Content: capsules, teacher materials, manuals ───────────────────────────────────────────────

export const capsulas = pgTable(
  'capsulas',
  {
    id: serial('id').primaryKey(),
    titulo: text('titulo').notNull(),
    descripcion: text('descripcion').notNull(),
    extension: text('extension').notNull(),
    /** Storage key of the uploaded original. */
    archivo: text('archivo').notNull(),
    /** Bytes of the original, shown on the download button. */
    tamano: bigint('tamano', { mode: 'number' }).notNull().default(0),
    estado: text('estado', { enum: ['procesando', 'listo', 'error'] })
      .notNull()
      .default('procesando'),
    /** Why processing failed, in Spanish, for the author's 'Capsulas procesando' panel. */
    mensaje_error: text('mensaje_error'),
    /** Seconds of video, read by ffprobe at upload. */
    duracion: real('duracion'),
    n_visitas: integer('n_visitas').notNull().default(0),
    /** Its comments as the lists show them (neither deleted placeholders nor hidden), kept by a trigger (drizzle/0020). */
    n_comentarios: integer('n_comentarios').notNull().default(0),
    id_area: ref('id_area').references(() => areas.id),
    codigo_nivel: text('codigo_nivel')
      .notNull()
      .references(() => niveles.codigo),
    id_metodologia: ref('id_metodologia').references(() => metodologias.id),
    id_usuario: ref('id_usuario').references(() => usuarios.id),
    /** Hidden by moderation (issue 17): seen only by its author, with a notice, and admins. */
    oculto: boolean('oculto').notNull().default(false),
    /**
     * Bytes of the light version (issue 20): a 234p MP4 the video job makes beside the rendition,
     * offered as 'Versión liviana' for watching offline; null until made.
     */
    tamano_liviana: bigint('tamano_liviana', { mode: 'number' }),
    ...publicacion(),
    fecha_creacion: creado(),
  },
  // Issue 36: the lists' two orders, each with its id tie-break, read straight from an index; the
  // home's newest of a profile's areas and levels.
  (t) => [
    index('capsulas_fecha_idx').on(t.fecha_creacion, t.id),
    index('capsulas_visitas_idx').on(t.n_visitas, t.id),
    index('capsulas_usuario_idx').on(t.id_usuario),
    index('capsulas_area_nivel_idx').on(t.id_area, t.codigo_nivel, t.fecha_creacion, t.id),
  ],
);

/** One cue of a caption file: from `inicio` to `fin` (seconds), its text without markup. */
export interface LineaSubtitulo {
  inicio: number;
  fin: number;
  texto: string;
}

/**
 * A capsule's captions in one language (issue 20): the WebVTT as served (an SRT is converted on
 * upload), its cues for the transcript, and their text for the search. Small (at most 1 MB), so
 * kept in the database: every server has it, and no storage key outlives its capsule.
 */
export const subtitulos = pgTable(
  'subtitulos',
  {
    id_capsula: integer('id_capsula')
      .notNull()
      .references(() => capsulas.id, { onDelete: 'cascade' }),
    /** A language of IDIOMAS_SUBTITULOS (src/lib/validation/subtitulos.ts): 'es', 'arn'... */
    idioma: text('idioma').notNull(),
    vtt: text('vtt').notNull(),
    lineas: jsonb('lineas').$type<LineaSubtitulo[]>().notNull(),
    /** Every cue's text, one line each, for the capsule search (its index: drizzle/0011, by hand). */
    texto: text('texto').notNull(),
    fecha_creacion: creado(),
  },
  (t) => [primaryKey({ columns: [t.id_capsula, t.idioma] })],
);

export const materiales = pgTable(
  'materiales',
  {
    id: serial('id').primaryKey(),
    titulo: text('titulo').notNull(),
    descripcion: text('descripcion').notNull(),
    extension: text('extension').notNull(),
    archivo: text('archivo').notNull(),
    tamano: bigint('tamano', { mode: 'number' }).notNull().default(0),
    /** Pages of a PDF material; null for other files. */
    paginas: integer('paginas'),
    id_area: ref('id_area').references(() => areas.id),
    codigo_nivel: text('codigo_nivel')
      .notNull()
      .references(() => niveles.codigo),
    id_unidad: ref('id_unidad').references(() => unidades.id),
    id_tipo_material: ref('id_tipo_material').references(() => tiposMaterial.id),
    id_usuario: ref('id_usuario').references(() => usuarios.id),
    n_visitas: integer('n_visitas').notNull().default(0),
    /** Its comments as the lists show them (neither deleted placeholders nor hidden), kept by a trigger (drizzle/0020). */
    n_comentarios: integer('n_comentarios').notNull().default(0),
    /** Hidden by moderation (issue 17): seen only by its author, with a notice, and admins. */
    oculto: boolean('oculto').notNull().default(false),
    ...publicacion(),
    fecha_creacion: creado(),
  },
  // Issue 36: the lists' two orders with their id tie-break, and the unit filter in date order.
  (t) => [
    index('materiales_fecha_idx').on(t.fecha_creacion, t.id),
    index('materiales_visitas_idx').on(t.n_visitas, t.id),
    index('materiales_unidad_idx').on(t.id_unidad, t.fecha_creacion, t.id),
    index('materiales_usuario_idx').on(t.id_usuario),
    // The home's newest of a profile's areas and levels.
    index('materiales_area_nivel_idx').on(t.id_area, t.codigo_nivel, t.fecha_creacion, t.id),
    // The hidden ones, few: the curriculum map counts all of an area less these.
    index('materiales_ocultos_idx').on(t.id).where(sql`${t.oculto}`),
  ],
);

export const materialesOas = pgTable(
  'materiales_oas',
  {
    id_material: ref('id_material').references(() => materiales.id, { onDelete: 'cascade' }),
    id_oa: ref('id_oa').references(() => oas.id),
  },
  (t) => [primaryKey({ columns: [t.id_material, t.id_oa] }), index('materiales_oas_oa_idx').on(t.id_oa)],
);

export const manuales = pgTable(
  'manuales',
  {
    id: serial('id').primaryKey(),
    titulo: text('titulo').notNull(),
    autor: text('autor').notNull(),
    descripcion: text('descripcion').notNull(),
    extension: text('extension').notNull(),
    archivo: text('archivo').notNull(),
    tamano: bigint('tamano', { mode: 'number' }).notNull().default(0),
    paginas: integer('paginas'),
    id_area: ref('id_area').references(() => areas.id),
    id_usuario: ref('id_usuario').references(() => usuarios.id),
    n_visitas: integer('n_visitas').notNull().default(0),
    /** Its comments as the lists show them (neither deleted placeholders nor hidden), kept by a trigger (drizzle/0020). */
    n_comentarios: integer('n_comentarios').notNull().default(0),
    /** Hidden by moderation (issue 17): seen only by its author, with a notice, and admins. */
    oculto: boolean('oculto').notNull().default(false),
    ...publicacion(),
    fecha_creacion: creado(),
  },
  // Issue 36: the lists' two orders with their id tie-break; the home's newest of a profile's areas;
  // the hidden ones, which the list's kept total subtracts (decision 0081, drizzle/0029).
  (t) => [
    index('manuales_fecha_idx').on(t.fecha_creacion, t.id),
    index('manuales_visitas_idx').on(t.n_visitas, t.id),
    index('manuales_area_idx').on(t.id_area, t.fecha_creacion, t.id),
    index('manuales_ocultos_idx').on(t.id).where(sql`${t.oculto}`),
  ],
);

const likeTable = (name: string, resource: string, target: typeof capsulas | typeof materiales | typeof manuales) =>
  pgTable(
    name,
    {
      id_recurso: ref(resource).references(() => target.id, { onDelete: 'cascade' }),
      id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
      fecha_creacion: creado(),
    },
    (t) => [primaryKey({ columns: [t.id_recurso, t.id_usuario] })],
  );

export const likesCapsulas = likeTable('likes_capsulas', 'id_capsula', capsulas);
export const likesMateriales = likeTable('likes_materiales', 'id_material', materiales);
export const likesManuales = likeTable('likes_manuales', 'id_manual', manuales);

/**
 * Comments on capsules, teacher materials and manuals, with one level of replies
 * (id_respuesta_comentario). Exactly one resource column is set.
 */
export const comentarios = pgTable(
  'comentarios',
  {
    id: serial('id').primaryKey(),
    contenido: text('contenido').notNull(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    id_respuesta_comentario: integer('id_respuesta_comentario').references((): AnyPgColumn => comentarios.id, {
      onDelete: 'cascade',
    }),
    id_capsula: integer('id_capsula').references(() => capsulas.id, { onDelete: 'cascade' }),
    id_material: integer('id_material').references(() => materiales.id, { onDelete: 'cascade' }),
    id_manual: integer('id_manual').references(() => manuales.id, { onDelete: 'cascade' }),
    /** Changed by its author (or an admin) after it was published: shows '(editado)'. */
    editado: boolean('editado').notNull().default(false),
    /**
     * Deleted while it had replies: kept as 'Comentario eliminado' (its text emptied) so the
     * thread keeps its shape. A comment without replies is deleted for real.
     */
    eliminado: boolean('eliminado').notNull().default(false),
    /** Hidden by moderation (issue 17): seen only by its author, with a notice, and admins. */
    oculto: boolean('oculto').notNull().default(false),
    fecha_creacion: creado(),
  },
  (t) => [
    check('comentarios_un_recurso', sql`num_nonnulls(${t.id_capsula}, ${t.id_material}, ${t.id_manual}) = 1`),
    // Issue 36: a thread's pages newest first, and a page's replies by their parent.
    index('comentarios_capsula_idx').on(t.id_capsula, t.fecha_creacion, t.id),
    index('comentarios_material_idx').on(t.id_material, t.fecha_creacion, t.id),
    index('comentarios_manual_idx').on(t.id_manual, t.fecha_creacion, t.id),
    index('comentarios_respuesta_idx').on(t.id_respuesta_comentario),
  ],
);

/**
 * The last time each person viewed each item: a view counts once per person per visit (a visit
 * ends after 30 minutes away), so reloading a page does not inflate n_visitas.
 */
export const visitas = pgTable(
  'visitas',
  {
    tipo: text('tipo', { enum: ['capsula', 'material', 'manual', 'conversacion', 'categoria'] }).notNull(),
    id_recurso: integer('id_recurso').notNull(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    ultima: timestamp('ultima', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tipo, t.id_recurso, t.id_usuario] })],
);

// ── Forum ───────────────────────────────────────────────────────────────────────────────────────

export const foroCategorias = pgTable('foro_categorias', {
  id: serial('id').primaryKey(),
  nombre: text('nombre').notNull().unique(),
  descripcion: text('descripcion').notNull(),
  activa: boolean('activa').notNull().default(false),
  /** Storage key of the category image. */
  archivo: text('archivo').notNull(),
  n_visitas: integer('n_visitas').notNull().default(0),
  fecha_creacion: creado(),
});

export const foroConversaciones = pgTable(
  'foro_conversaciones',
  {
    id: serial('id').primaryKey(),
    id_categoria: ref('id_categoria').references(() => foroCategorias.id, { onDelete: 'cascade' }),
    id_usuario_creador: ref('id_usuario_creador').references(() => usuarios.id),
    titulo: text('titulo').notNull(),
    /** Sanitized HTML rendered from the author's Markdown. */
    contenido: text('contenido').notNull(),
    n_visitas: integer('n_visitas').notNull().default(0),
    /** Its comments as the lists show them (neither deleted placeholders nor hidden), kept by a trigger (drizzle/0020). */
    n_comentarios: integer('n_comentarios').notNull().default(0),
    /** Changed by its author (or an admin) after it was published: shows '(editado)'. */
    editado: boolean('editado').notNull().default(false),
    /** Hidden by moderation (issue 17): seen only by its author, with a notice, and admins. */
    oculto: boolean('oculto').notNull().default(false),
    fecha_creacion: creado(),
  },
  // By date alone too: the home's 'Desde tu última visita' and 'Conversaciones con actividad' (issue 21).
  (t) => [
    index('foro_conversaciones_categoria_idx').on(t.id_categoria, t.fecha_creacion),
    index('foro_conversaciones_fecha_idx').on(t.fecha_creacion),
    // Who has hidden conversations (few): the home shares its block among everyone else (issue 36).
    index('foro_conversaciones_ocultas_idx').on(t.id_usuario_creador).where(sql`${t.oculto}`),
  ],
);

export const foroComentarios = pgTable(
  'foro_comentarios',
  {
    id: serial('id').primaryKey(),
    id_conversacion: ref('id_conversacion').references(() => foroConversaciones.id, { onDelete: 'cascade' }),
    id_usuario: ref('id_usuario').references(() => usuarios.id),
    comentario_padre: integer('comentario_padre').references((): AnyPgColumn => foroComentarios.id, {
      onDelete: 'cascade',
    }),
    contenido: text('contenido').notNull(),
    /** As comentarios.editado. */
    editado: boolean('editado').notNull().default(false),
    /** As comentarios.eliminado. */
    eliminado: boolean('eliminado').notNull().default(false),
    /** Hidden by moderation (issue 17): seen only by its author, with a notice, and admins. */
    oculto: boolean('oculto').notNull().default(false),
    fecha_creacion: creado(),
  },
  // Issue 36: replies by their parent too (a deleted comment's cascade, a thread's replies).
  (t) => [
    index('foro_comentarios_conversacion_idx').on(t.id_conversacion),
    index('foro_comentarios_fecha_idx').on(t.fecha_creacion),
    index('foro_comentarios_padre_idx').on(t.comentario_padre),
    // A conversation's latest counted comment (the home's activity), one index entry away.
    index('foro_comentarios_actividad_idx').on(t.id_conversacion, t.fecha_creacion).where(sql`not ${t.eliminado} and not ${t.oculto}`),
  ],
);

/** Reaction ids: 1 Me gusta, 2 Gran idea, 3 Me interesa, 4 Lo utilizaré, 5 Me asombra. */
export const foroReaccionesConversacion = pgTable(
  'foro_reacciones_conversacion',
  {
    id_conversacion: ref('id_conversacion').references(() => foroConversaciones.id, { onDelete: 'cascade' }),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    id_like: smallint('id_like').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id_conversacion, t.id_usuario, t.id_like] }),
    check('foro_reaccion_conversacion_tipo', sql`${t.id_like} between 1 and 5`),
  ],
);

/** Comments take only 1 (Me gusta) and 3 (Me interesa). */
export const foroReaccionesComentario = pgTable(
  'foro_reacciones_comentario',
  {
    id_comentario: ref('id_comentario').references(() => foroComentarios.id, { onDelete: 'cascade' }),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    id_like: smallint('id_like').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id_comentario, t.id_usuario, t.id_like] }),
    check('foro_reaccion_comentario_tipo', sql`${t.id_like} in (1, 3)`),
  ],
);

// ── Messages ────────────────────────────────────────────────────────────────────────────────────

export const mensajesContacto = pgTable('mensajes_contacto', {
  id: serial('id').primaryKey(),
  id_usuario_sender: ref('id_usuario_sender').references(() => usuarios.id, { onDelete: 'cascade' }),
  id_usuario_receiver: ref('id_usuario_receiver').references(() => usuarios.id, { onDelete: 'cascade' }),
  asunto: text('asunto').notNull(),
  mensaje: text('mensaje').notNull(),
  fecha_creacion: creado(),
});

export const mensajesAyuda = pgTable('mensajes_ayuda', {
  id: serial('id').primaryKey(),
  id_usuario_sender: ref('id_usuario_sender').references(() => usuarios.id, { onDelete: 'cascade' }),
  asunto: text('asunto').notNull(),
  mensaje: text('mensaje').notNull(),
  fecha_creacion: creado(),
});

// ── Durable jobs (video transcoding, mail retries) ──────────────────────────────────────────────

export const trabajos = pgTable(
  'trabajos',
  {
    id: serial('id').primaryKey(),
    tipo: text('tipo').notNull(),
    datos: jsonb('datos').notNull(),
    estado: text('estado', { enum: ['pendiente', 'en_curso', 'hecho', 'fallido'] })
      .notNull()
      .default('pendiente'),
    intentos: integer('intentos').notNull().default(0),
    max_intentos: integer('max_intentos').notNull().default(5),
    ejecutar_desde: timestamp('ejecutar_desde', { withTimezone: true }).notNull().defaultNow(),
    /** A claimed job whose lease passed (its worker died) is claimed again. */
    bloqueado_hasta: timestamp('bloqueado_hasta', { withTimezone: true }),
    ultimo_error: text('ultimo_error'),
    /**
     * When the job last changed state (claimed, finished, failed, released or retried by an
     * admin): the admin console's 'finished today'. Null until its first attempt.
     */
    actualizado: timestamp('actualizado', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [index('trabajos_pendientes_idx').on(t.estado, t.ejecutar_desde)],
);

// ── Mail outbox and job runner heartbeats ───────────────────────────────────────────────────────

/**
 * Every email, written in the same transaction as the change that causes it and sent by the job
 * runner with retries. `message_id` is stable across retries, so a resend after a crash between
 * the mail server's acceptance and the 'enviado' mark is deduplicated by receivers.
 */
export const correos = pgTable(
  'correos',
  {
    id: serial('id').primaryKey(),
    message_id: text('message_id').notNull().unique(),
    para: text('para').notNull(),
    asunto: text('asunto').notNull(),
    texto: text('texto').notNull(),
    html: text('html').notNull(),
    responder_a: text('responder_a'),
    /** The action link the message carries, for the log line (never the body). */
    enlace: text('enlace'),
    estado: text('estado', { enum: ['pendiente', 'enviado', 'fallido'] })
      .notNull()
      .default('pendiente'),
    intentos: integer('intentos').notNull().default(0),
    /** When the next attempt is due; pushed forward by a lease while an attempt runs. */
    proximo_intento: timestamp('proximo_intento', { withTimezone: true }).notNull().defaultNow(),
    ultimo_error: text('ultimo_error'),
    fecha_creacion: creado(),
    fecha_envio: timestamp('fecha_envio', { withTimezone: true }),
  },
  (t) => [index('correos_pendientes_idx').on(t.estado, t.proximo_intento)],
);

// ── Admin console (issue 16) ────────────────────────────────────────────────────────────────────

/** Every successful sign-in: the console's 'teachers active per week'. */
export const ingresos = pgTable(
  'ingresos',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
    /** The sign-in's address and browser (issue 31); the address goes after the retention period. */
    ip: text('ip'),
    agente: text('agente'),
  },
  (t) => [index('ingresos_fecha_idx').on(t.fecha)],
);

/**
 * The audit log: every admin action (who, when, what, which record). `id_admin` is null for the
 * local admin key (`npm run usuarios`); `admin_email` keeps the name readable if the account goes.
 * `detalle` is the action in Spanish words for people reading the log.
 */
export const registroAdmin = pgTable(
  'registro_admin',
  {
    id: serial('id').primaryKey(),
    id_admin: integer('id_admin').references(() => usuarios.id, { onDelete: 'set null' }),
    admin_email: text('admin_email').notNull(),
    accion: text('accion').notNull(),
    /** The kind of record acted on: 'usuario', 'trabajo', 'correo'… */
    tipo: text('tipo').notNull(),
    id_registro: integer('id_registro'),
    detalle: text('detalle').notNull().default(''),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('registro_admin_fecha_idx').on(t.fecha)],
);

// ── Notifications (issue 17) ────────────────────────────────────────────────────────────────────

/**
 * One event for one person: a reply to their comment, a comment on their content or conversation,
 * a like or reaction on their content, their content hidden, restored or deleted by moderation, their report resolved,
 * the copy of their data ready (issue 31).
 * Grouped when shown ('Ana y 3 más reaccionaron a tu conversación') by (tipo, recurso_tipo,
 * id_recurso). `enlace` is the page the notification opens.
 */
export const notificaciones = pgTable(
  'notificaciones',
  {
    id: serial('id').primaryKey(),
    /** Who is notified. */
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    tipo: text('tipo', {
      enum: [
        'respuesta',
        'comentario',
        'me_gusta',
        'reaccion',
        'oculto',
        'restaurado',
        'eliminado',
        'denuncia_resuelta',
        'copia_lista',
        'seguimiento',
        'mochila_lista',
      ],
    }).notNull(),
    /** Who caused it; null for the moderation team. */
    id_actor: integer('id_actor').references(() => usuarios.id, { onDelete: 'cascade' }),
    /** What it is about: 'capsula', 'material', 'manual', 'conversacion', 'comentario'… */
    recurso_tipo: text('recurso_tipo').notNull(),
    id_recurso: integer('id_recurso').notNull(),
    /** The title of what it is about, as it was, for the text ('… a tu conversación «…»'). */
    titulo: text('titulo').notNull().default(''),
    enlace: text('enlace').notNull(),
    /**
     * A moderator's reason, for 'oculto', 'restaurado', 'eliminado' and 'denuncia_resuelta'; for
     * 'seguimiento', the kind of what is new ('material'…, 'varios' when mixed).
     */
    detalle: text('detalle').notNull().default(''),
    /**
     * How many new items one 'seguimiento' notification stands for (issue 35, decision 0074): the
     * unread one of a follow counts up instead of another row ('3 materiales nuevos para …').
     */
    cantidad: integer('cantidad').notNull().default(1),
    leida_en: timestamp('leida_en', { withTimezone: true }),
    /** When it went out by email (each one or in a digest); null while not sent. */
    enviada_en: timestamp('enviada_en', { withTimezone: true }),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notificaciones_usuario_idx').on(t.id_usuario, t.fecha)],
);

// ── Reports and moderation (issue 17) ───────────────────────────────────────────────────────────

/**
 * One person's report of one item (at most one per person per item, ever). `DENUNCIAS_PARA_OCULTAR`
 * open reports from different people hide the item until an admin decides. An admin's decision
 * closes every open report of the item at once: `accion`, `motivo_resolucion`, who and when.
 */
export const denuncias = pgTable(
  'denuncias',
  {
    id: serial('id').primaryKey(),
    tipo: text('tipo', { enum: TIPOS_DENUNCIA }).notNull(),
    id_recurso: integer('id_recurso').notNull(),
    /** Who reported. */
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    motivo: text('motivo', { enum: MOTIVOS_DENUNCIA }).notNull(),
    detalle: text('detalle').notNull().default(''),
    estado: text('estado', { enum: ['abierta', 'resuelta'] })
      .notNull()
      .default('abierta'),
    accion: text('accion', { enum: ACCIONES_MODERACION }),
    motivo_resolucion: text('motivo_resolucion').notNull().default(''),
    id_admin: integer('id_admin').references(() => usuarios.id, { onDelete: 'set null' }),
    fecha_resolucion: timestamp('fecha_resolucion', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [
    uniqueIndex('denuncias_una_por_persona_idx').on(t.tipo, t.id_recurso, t.id_usuario),
    index('denuncias_estado_idx').on(t.estado, t.fecha_creacion),
  ],
);

/** One row per running job runner (web server or `npm run worker`), its heartbeat every ~10 s. */
export const ejecutores = pgTable('ejecutores', {
  id: text('id').primaryKey(),
  /** 'web' or 'worker', with host and pid, for people reading the table. */
  servicio: text('servicio').notNull(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  iniciado: timestamp('iniciado', { withTimezone: true }).notNull().defaultNow(),
  latido: timestamp('latido', { withTimezone: true }).notNull().defaultNow(),
});

// ── Resumable uploads (tus, issue 18) ───────────────────────────────────────────────────────────

/**
 * One resumable upload: whose it is, which form it is for and its declared size. The bytes live
 * in the upload store (storage/subidas.server.ts) under the same id. `terminada` is set when the
 * last byte arrives; `usada` while a create call holds it (the row goes once the call succeeds),
 * so an upload is used once. Unfinished rows expire 24 h after creation, finished ones 24 h after
 * finishing (the 'subidas-limpieza' job).
 */
export const subidas = pgTable(
  'subidas',
  {
    id: text('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    destino: text('destino', { enum: DESTINOS_SUBIDA }).notNull(),
    nombre: text('nombre').notNull(),
    tipo: text('tipo').notNull(),
    tamano: bigint('tamano', { mode: 'number' }).notNull(),
    terminada: timestamp('terminada', { withTimezone: true }),
    usada: timestamp('usada', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [index('subidas_usuario_idx').on(t.id_usuario), index('subidas_fecha_idx').on(t.fecha_creacion)],
);

/**
 * Locks on resumable uploads held across web servers (storage/bloqueo-subidas.server.ts): one row
 * per upload being read or written, whose lease (`hasta`, the database's clock) its holder renews
 * while it works, so a dead server's lock frees itself. `liberar` is another server's request that
 * the holder let go, as tus asks of an older request for the same upload.
 */
export const bloqueos = pgTable('bloqueos', {
  clave: text('clave').primaryKey(),
  /** The holding request's random token: only it renews or deletes the row. */
  dueno: text('dueno').notNull(),
  hasta: timestamp('hasta', { withTimezone: true }).notNull(),
  liberar: boolean('liberar').notNull().default(false),
});

// ── Personal data rights (issue 31, Ley 21.719) ─────────────────────────────────────────────────

/** Each acceptance of the privacy notice: which version, when, from where. */
export const consentimientos = pgTable(
  'consentimientos',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    ip: text('ip'),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('consentimientos_usuario_idx').on(t.id_usuario, t.fecha)],
);

/**
 * A copy of a person's data (the right of access and portability): one ZIP built by the
 * 'copia-datos' job into storage under `clave`, downloadable by its owner until `expira`.
 */
export const copiasDatos = pgTable(
  'copias_datos',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    estado: text('estado', { enum: ['pendiente', 'lista', 'fallida', 'expirada'] })
      .notNull()
      .default('pendiente'),
    /** Storage key of the ZIP; '' until it is built and again once it expires. */
    clave: text('clave').notNull().default(''),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    expira: timestamp('expira', { withTimezone: true }),
    lista_en: timestamp('lista_en', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [index('copias_datos_usuario_idx').on(t.id_usuario, t.fecha_creacion)],
);

/**
 * The register of data requests, for the data-protection authority: every copy, deletion,
 * cancellation and opposition, asked by the person or entered by an admin from a written request.
 * It outlives the account: `id_usuario` is set null when the row goes, `titular` keeps a
 * non-identifying label ('Cuenta 123') once the person is erased.
 */
export const solicitudesDatos = pgTable(
  'solicitudes_datos',
  {
    id: serial('id').primaryKey(),
    id_usuario: integer('id_usuario').references(() => usuarios.id, { onDelete: 'set null' }),
    titular: text('titular').notNull().default(''),
    tipo: text('tipo', { enum: ['acceso', 'copia', 'rectificacion', 'eliminacion', 'oposicion', 'bloqueo'] }).notNull(),
    origen: text('origen', { enum: ['persona', 'admin'] })
      .notNull()
      .default('persona'),
    estado: text('estado', { enum: ['pendiente', 'completada', 'cancelada', 'rechazada'] })
      .notNull()
      .default('pendiente'),
    motivo: text('motivo').notNull().default(''),
    id_admin: integer('id_admin').references(() => usuarios.id, { onDelete: 'set null' }),
    fecha_creacion: creado(),
    fecha_resolucion: timestamp('fecha_resolucion', { withTimezone: true }),
  },
  (t) => [index('solicitudes_datos_estado_idx').on(t.estado, t.fecha_creacion)],
);

/**
 * Network settings an admin keeps in the console (issue 31: the privacy notice's responsible
 * party): one JSON value per key, validated by its zod schema on the way in.
 */
export const ajustes = pgTable('ajustes', {
  clave: text('clave').primaryKey(),
  valor: jsonb('valor').notNull(),
  actualizado: timestamp('actualizado', { withTimezone: true }).notNull().defaultNow(),
});

// ── Sign-in with a school account (issue 32, OpenID Connect, decision 0063) ─────────────────────

/**
 * An account's identity at an OpenID Connect provider: the provider's id (OIDC_PROVEEDORES) and
 * its stable subject `sub`, unique, so one school account opens one Entre Docentes account.
 * `email` is the address the provider last gave, for the person's profile page.
 */
export const identidades = pgTable(
  'identidades',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    proveedor: text('proveedor').notNull(),
    sub: text('sub').notNull(),
    email: text('email').notNull().default(''),
    fecha_creacion: creado(),
    ultimo_uso: timestamp('ultimo_uso', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('identidades_proveedor_sub_idx').on(t.proveedor, t.sub),
    uniqueIndex('identidades_usuario_proveedor_idx').on(t.id_usuario, t.proveedor),
  ],
);

/**
 * A sign-in (or linking) started at a provider and not yet back: its state, nonce and PKCE
 * verifier, kept on the server under the hash of the random handle the browser holds in a
 * short-lived httpOnly cookie. `usado` is set by the one callback that may use it: a replay finds it spent.
 */
export const flujosOidc = pgTable(
  'flujos_oidc',
  {
    id_hash: text('id_hash').primaryKey(),
    proveedor: text('proveedor').notNull(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    verificador: text('verificador').notNull(),
    destino: text('destino').notNull().default('/'),
    /** Set when a signed-in person links this provider to their account (the profile page). */
    id_usuario: integer('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    expira: timestamp('expira', { withTimezone: true }).notNull(),
    usado: timestamp('usado', { withTimezone: true }),
  },
  (t) => [index('flujos_oidc_expira_idx').on(t.expira)],
);

// ── Two-factor sign-in (issue 32, decision 0065) ────────────────────────────────────────────────

/**
 * A person's TOTP second factor (RFC 6238). The secret must be readable to check codes, so it is
 * stored as is; `confirmado` is null while enrolment waits for its first code (an unconfirmed row
 * does not protect the account). `ultimo_paso` is the time step of the last accepted code, so a
 * code is never accepted twice.
 */
export const segundosFactores = pgTable('segundos_factores', {
  id_usuario: integer('id_usuario')
    .primaryKey()
    .references(() => usuarios.id, { onDelete: 'cascade' }),
  secreto: text('secreto').notNull(),
  confirmado: timestamp('confirmado', { withTimezone: true }),
  ultimo_paso: bigint('ultimo_paso', { mode: 'number' }),
  fecha_creacion: creado(),
});

/** The ten single-use recovery codes of a confirmed second factor, stored hashed. */
export const codigosRecuperacion = pgTable(
  'codigos_recuperacion',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    codigo_hash: text('codigo_hash').notNull(),
    usado: timestamp('usado', { withTimezone: true }),
  },
  (t) => [index('codigos_recuperacion_usuario_idx').on(t.id_usuario)],
);

// ── Saved items and collections (issue 35) ──────────────────────────────────────────────────────
// An item is named by its kind and id, without a foreign key: a deleted item's row stays, so a
// collection's owner sees it as 'ya no está disponible'; lists join the content and drop it for
// everyone else.

/** What each person saved ('Guardar' on a detail page); one row per person and item. */
export const guardados = pgTable(
  'guardados',
  {
    id_usuario: integer('id_usuario')
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: TIPOS_GUARDABLES }).notNull(),
    id_item: integer('id_item').notNull(),
    fecha_creacion: creado(),
  },
  (t) => [
    primaryKey({ columns: [t.id_usuario, t.tipo, t.id_item] }),
    index('guardados_usuario_fecha_idx').on(t.id_usuario, t.fecha_creacion),
  ],
);

/** A named, ordered list of items; `version` grows with each edit (optimistic concurrency). */
export const colecciones = pgTable(
  'colecciones',
  {
    id: serial('id').primaryKey(),
    id_usuario: integer('id_usuario')
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion').notNull().default(''),
    /** Shared with the network by its link, and shown on the owner's profile. */
    compartida: boolean('compartida').notNull().default(false),
    version: integer('version').notNull().default(0),
    /** The collection this one was copied from, if any (it may be gone). */
    id_origen: integer('id_origen'),
    fecha_creacion: creado(),
    fecha_actualizacion: timestamp('fecha_actualizacion', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('colecciones_usuario_idx').on(t.id_usuario)],
);

export const coleccionItems = pgTable(
  'coleccion_items',
  {
    id: serial('id').primaryKey(),
    id_coleccion: integer('id_coleccion')
      .notNull()
      .references(() => colecciones.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: TIPOS_GUARDABLES }).notNull(),
    id_item: integer('id_item').notNull(),
    nota: text('nota').notNull().default(''),
    posicion: integer('posicion').notNull(),
    fecha_creacion: creado(),
  },
  (t) => [
    uniqueIndex('coleccion_items_item_idx').on(t.id_coleccion, t.tipo, t.id_item),
    index('coleccion_items_posicion_idx').on(t.id_coleccion, t.posicion),
  ],
);

/**
 * A mochila too large to stream on request (decision 0076): built once by the 'mochila-preparar' job into
 * storage under `clave` for one reader (what that reader may see), then served from there until
 * `expira`. `firma` is the hash of what it holds (every file, the index with titles and notes):
 * a changed collection or OA has another `firma`, so another row and another build. Two requests
 * at once insert one row (the unique index) and queue one job. `bytes_hechos` of `bytes_total`
 * is the build's progress.
 */
export const mochilas = pgTable(
  'mochilas',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    /** What it carries: a collection or an OA's materials, and its id. */
    origen: text('origen', { enum: ['coleccion', 'oa'] }).notNull(),
    id_origen: integer('id_origen').notNull(),
    firma: text('firma').notNull(),
    /** Its name as the notification and the download say it. */
    nombre: text('nombre').notNull(),
    estado: text('estado', { enum: ['pendiente', 'lista', 'fallida'] })
      .notNull()
      .default('pendiente'),
    bytes_total: bigint('bytes_total', { mode: 'number' }).notNull().default(0),
    bytes_hechos: bigint('bytes_hechos', { mode: 'number' }).notNull().default(0),
    /** Storage key of the ZIP; '' until it is built. */
    clave: text('clave').notNull().default(''),
    /** The ZIP's size once built. */
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    expira: timestamp('expira', { withTimezone: true }),
    fecha_creacion: creado(),
  },
  (t) => [
    uniqueIndex('mochilas_firma_idx').on(t.id_usuario, t.origen, t.id_origen, t.firma),
    index('mochilas_expira_idx').on(t.estado, t.expira),
  ],
);

/**
 * What a person follows (issue 35, decision 0074): an OA, an area and level, a colleague or a
 * forum category. `clave` names the target in one text ('oa:12', 'area_nivel:3:7B', 'usuario:5',
 * 'categoria:2'): unique per person, and what a new item's followers are found by. The target's
 * own column keeps the reference (and goes with it); an erased account's follows, and others'
 * follows of it, are deleted by the erasure (baja/borrado.server.ts).
 */
export const seguimientos = pgTable(
  'seguimientos',
  {
    id: serial('id').primaryKey(),
    id_usuario: ref('id_usuario').references(() => usuarios.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: TIPOS_SEGUIMIENTO }).notNull(),
    clave: text('clave').notNull(),
    id_oa: integer('id_oa').references(() => oas.id, { onDelete: 'cascade' }),
    id_area: integer('id_area').references(() => areas.id, { onDelete: 'cascade' }),
    codigo_nivel: text('codigo_nivel').references(() => niveles.codigo, { onDelete: 'cascade' }),
    id_seguido: integer('id_seguido').references(() => usuarios.id, { onDelete: 'cascade' }),
    id_categoria: integer('id_categoria').references(() => foroCategorias.id, { onDelete: 'cascade' }),
    fecha_creacion: creado(),
  },
  (t) => [uniqueIndex('seguimientos_usuario_clave_idx').on(t.id_usuario, t.clave), index('seguimientos_clave_idx').on(t.clave)],
);

/**
 * A token per list table that changes (a new random value, drizzle/0021) on every write that could
 * change how many of its rows a filter finds: an insert, a delete, an update of any column but its
 * counters (views, comments), or a change of its OA links. The lists' totals are cached against it
 * (db/conteos.server.ts, decision 0081), exact on one server or several. No row means nothing was
 * written since the table was made. Not backed up: a restore's own writes move it.
 */
export const versionesConteo = pgTable('versiones_conteo', {
  tabla: text('tabla').primaryKey(),
  version: uuid('version').notNull().defaultRandom(),
});
