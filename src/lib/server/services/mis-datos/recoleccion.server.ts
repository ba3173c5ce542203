/**
 * Everything the platform holds about one person (issue 31, Ley 21.719's access and portability,
 * docs/decisions/0058), by category: the rows as JSON for the copy, a readable line per row for
 * the page, and the stored files each row names. One list of categories serves the summary
 * (GET /api/usuarios/{id}/mis-datos/, /perfil/mis-datos) and the copy's ZIP, so neither can miss
 * what the other shows. Secrets are never part of it: password and token hashes stay out.
 */
import { and, desc, eq, isNull, max, min, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { formatearFecha, formatearFechaHora, formatearTamano } from '../../../format/index.ts';
import type { Db } from '../../db/client.server.ts';
import {
  areas,
  capsulas,
  colegios,
  comentarios,
  consentimientos,
  copiasDatos,
  denuncias,
  especialidades,
  foroComentarios,
  foroConversaciones,
  foroReaccionesComentario,
  foroReaccionesConversacion,
  ingresos,
  likesCapsulas,
  likesManuales,
  likesMateriales,
  manuales,
  materiales,
  mensajesAyuda,
  mensajesContacto,
  niveles,
  notificaciones,
  perfilAreas,
  perfilColegios,
  perfilEspecialidades,
  perfilNiveles,
  solicitudesDatos,
  subtitulos,
  tokensRefresh,
  usuarios,
  visitas,
} from '../../db/schema.server.ts';
import { claves } from '../capsulas/video.server.ts';
import { textoNotificacion } from '../notificaciones/textos.server.ts';

type Fila = Record<string, unknown>;

/** A file the copy carries: a stored one (`clave`) or one made from a row (`contenido`), at `ruta` inside the ZIP. */
export interface ArchivoCopia {
  ruta: string;
  clave?: string;
  contenido?: string;
  /** What it is, for the index: 'Original de la cápsula «Fracciones»'. */
  descripcion: string;
  /** Carried instead when the stored file is gone (a capsule's light MP4 for its original). */
  alternativa?: { ruta: string; clave: string; descripcion: string };
}

export interface Categoria {
  clave: string;
  nombre: string;
  cantidad: number;
  filas: Fila[];
  /** One readable line per row (the profile: one per field with a value). */
  lineas: string[];
  archivos: ArchivoCopia[];
}

interface Definicion {
  clave: string;
  nombre: string;
  cargar(db: Db, id: number): Promise<Fila[]>;
  linea(fila: Fila): string;
  archivos?(fila: Fila): ArchivoCopia[];
}

const cuando = (v: unknown) => (v instanceof Date || typeof v === 'string' ? formatearFechaHora(v) : '');
const texto = (v: unknown) =>
  String(v ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const corto = (v: unknown, n = 80) => {
  const t = texto(v);
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
/** A stored file, kept in the ZIP under its storage key. */
const guardado = (clave: unknown, descripcion: string): ArchivoCopia[] =>
  typeof clave === 'string' && clave !== '' ? [{ ruta: `archivos/${clave}`, clave, descripcion }] : [];

const REACCIONES: Record<number, string> = { 1: 'Me gusta', 2: 'Gran idea', 3: 'Me interesa', 4: 'Lo utilizaré', 5: 'Me asombra' };

/** The profile's fields as the person sees them named; `foto_perfil` is the photo's storage key. */
const CAMPOS_PERFIL: Record<string, string> = {
  primer_nombre: 'Primer nombre',
  segundo_nombre: 'Segundo nombre',
  apellido_paterno: 'Apellido paterno',
  apellido_materno: 'Apellido materno',
  email: 'Correo',
  rut: 'RUT',
  genero: 'Género',
  nacionalidad: 'Nacionalidad',
  telefono: 'Teléfono',
  fecha_nacimiento: 'Fecha de nacimiento',
  foto_perfil: 'Foto de perfil',
  titulo_profesional: 'Título profesional',
  rol: 'Rol',
  preferencia_correo: 'Correos de notificaciones',
  ahorro_datos: 'Ahorro de datos',
  oculto_directorio: 'Oculto del directorio',
  privacidad_version: 'Versión del aviso de privacidad aceptada',
  privacidad_aceptada_en: 'Aviso de privacidad aceptado el',
  fecha_creacion: 'Cuenta creada el',
};

const conValor = (v: unknown) => v !== null && v !== undefined && v !== '' && v !== false;

function lineaCampo(campo: string, valor: unknown): string {
  const nombre = CAMPOS_PERFIL[campo] ?? campo;
  if (valor === true) return `${nombre}: sí`;
  if (valor instanceof Date) return `${nombre}: ${formatearFechaHora(valor)}`;
  if (campo === 'fecha_nacimiento') return `${nombre}: ${formatearFecha(`${String(valor)}T12:00:00Z`)}`;
  if (campo === 'foto_perfil') return `${nombre}: sí (incluida en la copia)`;
  return `${nombre}: ${String(valor)}`;
}

const perfil: Definicion = {
  clave: 'perfil',
  nombre: 'Datos de tu perfil',
  async cargar(db, id) {
    const filas = await db.execute(sql`
      select u.primer_nombre, u.segundo_nombre, u.apellido_paterno, u.apellido_materno, u.email, u.rut, u.genero,
             u.nacionalidad, u.telefono, u.fecha_nacimiento::text as fecha_nacimiento, u.foto_perfil,
             coalesce(p.titulo_profesional, '') as titulo_profesional, u.rol, u.groups, u.activo,
             u.preferencia_correo, u.ahorro_datos, u.oculto_directorio, u.privacidad_version,
             u.privacidad_aceptada_en, u.baja_programada, u.fecha_creacion
      from usuarios u left join perfiles_docentes p on p.id_usuario = u.id where u.id = ${id}`);
    return (filas as unknown as { rows: Fila[] }).rows.map((f) => ({
      ...f,
      privacidad_aceptada_en: f.privacidad_aceptada_en ? new Date(String(f.privacidad_aceptada_en)) : null,
      baja_programada: f.baja_programada ? new Date(String(f.baja_programada)) : null,
      fecha_creacion: new Date(String(f.fecha_creacion)),
    }));
  },
  linea: () => '',
  archivos: (f) => guardado(f.foto_perfil, 'Tu foto de perfil'),
};

/**
 * A list the teacher profile links to a catalogue (schools, specialties, areas, levels): each
 * entry's id and name, in the catalogue's order.
 */
function delPerfil(
  clave: string,
  nombre: string,
  enlace: { tabla: PgTable; usuario: PgColumn; ref: PgColumn },
  catalogo: { tabla: PgTable; id: PgColumn; nombre: PgColumn; orden: PgColumn },
): Definicion {
  return {
    clave,
    nombre,
    cargar: (db, id) =>
      db
        .select({ id: catalogo.id, nombre: catalogo.nombre })
        .from(enlace.tabla)
        .innerJoin(catalogo.tabla, eq(catalogo.id, enlace.ref))
        .where(eq(enlace.usuario, id))
        .orderBy(catalogo.orden),
    linea: (f) => String(f.nombre),
  };
}

const CATEGORIAS: Definicion[] = [
  perfil,
  delPerfil(
    'colegios',
    'Colegios',
    { tabla: perfilColegios, usuario: perfilColegios.id_usuario, ref: perfilColegios.id_colegio },
    { tabla: colegios, id: colegios.id, nombre: colegios.nombre, orden: colegios.nombre },
  ),
  delPerfil(
    'especialidades',
    'Especialidades',
    { tabla: perfilEspecialidades, usuario: perfilEspecialidades.id_usuario, ref: perfilEspecialidades.id_especialidad },
    { tabla: especialidades, id: especialidades.id, nombre: especialidades.nombre, orden: especialidades.nombre },
  ),
  delPerfil(
    'areas',
    'Áreas',
    { tabla: perfilAreas, usuario: perfilAreas.id_usuario, ref: perfilAreas.id_area },
    { tabla: areas, id: areas.id, nombre: areas.nombre, orden: areas.nombre },
  ),
  delPerfil(
    'niveles',
    'Niveles',
    { tabla: perfilNiveles, usuario: perfilNiveles.id_usuario, ref: perfilNiveles.codigo_nivel },
    { tabla: niveles, id: niveles.codigo, nombre: niveles.nombre, orden: niveles.orden },
  ),
  {
    clave: 'consentimientos',
    nombre: 'Aceptaciones del aviso de privacidad',
    cargar: (db, id) =>
      db
        .select({ version: consentimientos.version, ip: consentimientos.ip, fecha: consentimientos.fecha })
        .from(consentimientos)
        .where(eq(consentimientos.id_usuario, id))
        .orderBy(desc(consentimientos.fecha)),
    linea: (f) => `Versión ${texto(f.version)}, aceptada el ${cuando(f.fecha)}${f.ip ? ` desde ${texto(f.ip)}` : ''}`,
  },
  {
    clave: 'sesiones',
    nombre: 'Sesiones',
    // One per sign-in (a family of refresh tokens); the tokens themselves are secrets and stay out.
    cargar: (db, id) =>
      db
        .select({
          iniciada: min(tokensRefresh.fecha_creacion),
          ultima_renovacion: max(tokensRefresh.fecha_creacion),
          expira: max(tokensRefresh.expira),
          cerrada: max(tokensRefresh.revocado),
          ip: max(tokensRefresh.ip),
          navegador: max(tokensRefresh.agente),
        })
        .from(tokensRefresh)
        .where(eq(tokensRefresh.id_usuario, id))
        .groupBy(tokensRefresh.familia)
        .orderBy(desc(min(tokensRefresh.fecha_creacion))),
    linea: (f) =>
      `Iniciada el ${cuando(f.iniciada)}${f.ip ? ` desde ${texto(f.ip)}` : ''}${f.navegador ? ` (${corto(f.navegador, 60)})` : ''}${f.cerrada ? ', cerrada' : ''}`,
  },
  {
    clave: 'ingresos',
    nombre: 'Ingresos a la plataforma',
    cargar: (db, id) =>
      db
        .select({ fecha: ingresos.fecha, ip: ingresos.ip, navegador: ingresos.agente })
        .from(ingresos)
        .where(eq(ingresos.id_usuario, id))
        .orderBy(desc(ingresos.fecha)),
    linea: (f) => `${cuando(f.fecha)}${f.ip ? ` desde ${texto(f.ip)}` : ''}${f.navegador ? ` (${corto(f.navegador, 60)})` : ''}`,
  },
  {
    clave: 'capsulas',
    nombre: 'Cápsulas que subiste',
    cargar: (db, id) =>
      db
        .select({
          id: capsulas.id,
          titulo: capsulas.titulo,
          descripcion: capsulas.descripcion,
          extension: capsulas.extension,
          archivo: capsulas.archivo,
          tamano: capsulas.tamano,
          estado: capsulas.estado,
          duracion: capsulas.duracion,
          id_area: capsulas.id_area,
          codigo_nivel: capsulas.codigo_nivel,
          id_metodologia: capsulas.id_metodologia,
          n_visitas: capsulas.n_visitas,
          oculto: capsulas.oculto,
          fecha_creacion: capsulas.fecha_creacion,
        })
        .from(capsulas)
        .where(eq(capsulas.id_usuario, id))
        .orderBy(desc(capsulas.fecha_creacion)),
    linea: (f) => `«${texto(f.titulo)}», ${cuando(f.fecha_creacion)} (${formatearTamano(Number(f.tamano))})`,
    // The original as uploaded; the streaming renditions are made from it and are not the person's file.
    archivos: (f) =>
      guardado(f.archivo, `Video original de la cápsula «${texto(f.titulo)}»`).map((a) => {
        const liviana = claves(Number(f.id)).liviana;
        return {
          ...a,
          alternativa: { ruta: `archivos/${liviana}`, clave: liviana, descripcion: `Versión liviana de la cápsula «${texto(f.titulo)}»` },
        };
      }),
  },
  {
    clave: 'materiales',
    nombre: 'Materiales que subiste',
    cargar: (db, id) =>
      db
        .select({
          id: materiales.id,
          titulo: materiales.titulo,
          descripcion: materiales.descripcion,
          extension: materiales.extension,
          archivo: materiales.archivo,
          tamano: materiales.tamano,
          paginas: materiales.paginas,
          id_area: materiales.id_area,
          codigo_nivel: materiales.codigo_nivel,
          id_unidad: materiales.id_unidad,
          id_tipo_material: materiales.id_tipo_material,
          n_visitas: materiales.n_visitas,
          oculto: materiales.oculto,
          fecha_creacion: materiales.fecha_creacion,
        })
        .from(materiales)
        .where(eq(materiales.id_usuario, id))
        .orderBy(desc(materiales.fecha_creacion)),
    linea: (f) => `«${texto(f.titulo)}», ${cuando(f.fecha_creacion)} (${formatearTamano(Number(f.tamano))})`,
    archivos: (f) => guardado(f.archivo, `Archivo del material «${texto(f.titulo)}»`),
  },
  {
    clave: 'manuales',
    nombre: 'Manuales que subiste',
    cargar: (db, id) =>
      db
        .select({
          id: manuales.id,
          titulo: manuales.titulo,
          autor: manuales.autor,
          descripcion: manuales.descripcion,
          extension: manuales.extension,
          archivo: manuales.archivo,
          tamano: manuales.tamano,
          paginas: manuales.paginas,
          id_area: manuales.id_area,
          n_visitas: manuales.n_visitas,
          oculto: manuales.oculto,
          fecha_creacion: manuales.fecha_creacion,
        })
        .from(manuales)
        .where(eq(manuales.id_usuario, id))
        .orderBy(desc(manuales.fecha_creacion)),
    linea: (f) => `«${texto(f.titulo)}», ${cuando(f.fecha_creacion)} (${formatearTamano(Number(f.tamano))})`,
    archivos: (f) => guardado(f.archivo, `Archivo del manual «${texto(f.titulo)}»`),
  },
  {
    clave: 'subtitulos',
    nombre: 'Subtítulos de tus cápsulas',
    cargar: (db, id) =>
      db
        .select({
          id_capsula: subtitulos.id_capsula,
          capsula: capsulas.titulo,
          idioma: subtitulos.idioma,
          vtt: subtitulos.vtt,
          fecha_creacion: subtitulos.fecha_creacion,
        })
        .from(subtitulos)
        .innerJoin(capsulas, eq(capsulas.id, subtitulos.id_capsula))
        .where(eq(capsulas.id_usuario, id))
        .orderBy(subtitulos.id_capsula, subtitulos.idioma),
    linea: (f) => `«${texto(f.capsula)}», idioma ${texto(f.idioma)}`,
    archivos: (f) => [
      {
        ruta: `archivos/subtitulos/${String(f.id_capsula)}.${texto(f.idioma)}.vtt`,
        contenido: String(f.vtt),
        descripcion: `Subtítulos (${texto(f.idioma)}) de la cápsula «${texto(f.capsula)}»`,
      },
    ],
  },
  {
    clave: 'comentarios',
    nombre: 'Comentarios en cápsulas, materiales y manuales',
    cargar: (db, id) =>
      db
        .select({
          id: comentarios.id,
          contenido: comentarios.contenido,
          id_capsula: comentarios.id_capsula,
          id_material: comentarios.id_material,
          id_manual: comentarios.id_manual,
          id_respuesta_comentario: comentarios.id_respuesta_comentario,
          editado: comentarios.editado,
          eliminado: comentarios.eliminado,
          oculto: comentarios.oculto,
          fecha_creacion: comentarios.fecha_creacion,
        })
        .from(comentarios)
        .where(eq(comentarios.id_usuario, id))
        .orderBy(desc(comentarios.fecha_creacion)),
    linea: (f) => `${cuando(f.fecha_creacion)}: ${f.eliminado ? '(eliminado)' : `«${corto(f.contenido)}»`}`,
  },
  {
    clave: 'me_gusta',
    nombre: '«Me gusta» en cápsulas, materiales y manuales',
    cargar: async (db, id) => {
      const de = async (tipo: string, tabla: typeof likesCapsulas | typeof likesMateriales | typeof likesManuales) =>
        (await db.select({ id_recurso: tabla.id_recurso, fecha: tabla.fecha_creacion }).from(tabla).where(eq(tabla.id_usuario, id))).map(
          (f) => ({ tipo, ...f }),
        );
      return [...(await de('capsula', likesCapsulas)), ...(await de('material', likesMateriales)), ...(await de('manual', likesManuales))];
    },
    linea: (f) => `${texto(f.tipo)} n.º ${String(f.id_recurso)}, ${cuando(f.fecha)}`,
  },
  {
    clave: 'conversaciones_foro',
    nombre: 'Conversaciones del foro',
    cargar: (db, id) =>
      db
        .select({
          id: foroConversaciones.id,
          id_categoria: foroConversaciones.id_categoria,
          titulo: foroConversaciones.titulo,
          contenido: foroConversaciones.contenido,
          editado: foroConversaciones.editado,
          oculto: foroConversaciones.oculto,
          fecha_creacion: foroConversaciones.fecha_creacion,
        })
        .from(foroConversaciones)
        .where(eq(foroConversaciones.id_usuario_creador, id))
        .orderBy(desc(foroConversaciones.fecha_creacion)),
    linea: (f) => `«${texto(f.titulo)}», ${cuando(f.fecha_creacion)}`,
  },
  {
    clave: 'comentarios_foro',
    nombre: 'Comentarios en el foro',
    cargar: (db, id) =>
      db
        .select({
          id: foroComentarios.id,
          id_conversacion: foroComentarios.id_conversacion,
          comentario_padre: foroComentarios.comentario_padre,
          contenido: foroComentarios.contenido,
          editado: foroComentarios.editado,
          eliminado: foroComentarios.eliminado,
          oculto: foroComentarios.oculto,
          fecha_creacion: foroComentarios.fecha_creacion,
        })
        .from(foroComentarios)
        .where(eq(foroComentarios.id_usuario, id))
        .orderBy(desc(foroComentarios.fecha_creacion)),
    linea: (f) => `${cuando(f.fecha_creacion)}: ${f.eliminado ? '(eliminado)' : `«${corto(f.contenido)}»`}`,
  },
  {
    clave: 'reacciones_foro',
    nombre: 'Reacciones en el foro',
    cargar: async (db, id) => [
      ...(
        await db
          .select({ id_recurso: foroReaccionesConversacion.id_conversacion, reaccion: foroReaccionesConversacion.id_like })
          .from(foroReaccionesConversacion)
          .where(eq(foroReaccionesConversacion.id_usuario, id))
      ).map((f) => ({ tipo: 'conversacion', ...f })),
      ...(
        await db
          .select({ id_recurso: foroReaccionesComentario.id_comentario, reaccion: foroReaccionesComentario.id_like })
          .from(foroReaccionesComentario)
          .where(eq(foroReaccionesComentario.id_usuario, id))
      ).map((f) => ({ tipo: 'comentario_foro', ...f })),
    ],
    linea: (f) =>
      `«${REACCIONES[Number(f.reaccion)] ?? String(f.reaccion)}» en ${f.tipo === 'conversacion' ? 'la conversación' : 'el comentario'} n.º ${String(f.id_recurso)}`,
  },
  {
    clave: 'denuncias',
    nombre: 'Denuncias que hiciste',
    cargar: (db, id) =>
      db
        .select({
          id: denuncias.id,
          tipo: denuncias.tipo,
          id_recurso: denuncias.id_recurso,
          motivo: denuncias.motivo,
          detalle: denuncias.detalle,
          estado: denuncias.estado,
          fecha_resolucion: denuncias.fecha_resolucion,
          fecha_creacion: denuncias.fecha_creacion,
        })
        .from(denuncias)
        .where(eq(denuncias.id_usuario, id))
        .orderBy(desc(denuncias.fecha_creacion)),
    linea: (f) => `${cuando(f.fecha_creacion)}: ${texto(f.tipo).replace(/_/g, ' ')} n.º ${String(f.id_recurso)} (${texto(f.estado)})`,
  },
  {
    clave: 'notificaciones',
    nombre: 'Notificaciones',
    cargar: (db, id) =>
      db
        .select({
          id: notificaciones.id,
          tipo: notificaciones.tipo,
          recurso_tipo: notificaciones.recurso_tipo,
          id_recurso: notificaciones.id_recurso,
          titulo: notificaciones.titulo,
          enlace: notificaciones.enlace,
          detalle: notificaciones.detalle,
          leida_en: notificaciones.leida_en,
          fecha: notificaciones.fecha,
        })
        .from(notificaciones)
        .where(eq(notificaciones.id_usuario, id))
        .orderBy(desc(notificaciones.fecha)),
    // As the bell says it, without who acted (their names are theirs).
    linea: (f) =>
      `${cuando(f.fecha)}: ${textoNotificacion({ tipo: String(f.tipo), recurso_tipo: String(f.recurso_tipo), titulo: texto(f.titulo), detalle: texto(f.detalle) }, [])}`,
  },
  {
    clave: 'mensajes_contacto',
    nombre: 'Mensajes que enviaste a otros docentes',
    cargar: (db, id) =>
      db
        .select({
          id: mensajesContacto.id,
          id_destinatario: mensajesContacto.id_usuario_receiver,
          asunto: mensajesContacto.asunto,
          mensaje: mensajesContacto.mensaje,
          fecha_creacion: mensajesContacto.fecha_creacion,
        })
        .from(mensajesContacto)
        .where(eq(mensajesContacto.id_usuario_sender, id))
        .orderBy(desc(mensajesContacto.fecha_creacion)),
    linea: (f) => `${cuando(f.fecha_creacion)}: «${corto(f.asunto, 60)}»`,
  },
  {
    clave: 'mensajes_ayuda',
    nombre: 'Mensajes al centro de ayuda',
    cargar: (db, id) =>
      db
        .select({
          id: mensajesAyuda.id,
          asunto: mensajesAyuda.asunto,
          mensaje: mensajesAyuda.mensaje,
          fecha_creacion: mensajesAyuda.fecha_creacion,
        })
        .from(mensajesAyuda)
        .where(eq(mensajesAyuda.id_usuario_sender, id))
        .orderBy(desc(mensajesAyuda.fecha_creacion)),
    linea: (f) => `${cuando(f.fecha_creacion)}: «${corto(f.asunto, 60)}»`,
  },
  {
    clave: 'visitas',
    nombre: 'Contenidos que abriste',
    cargar: (db, id) =>
      db
        .select({ tipo: visitas.tipo, id_recurso: visitas.id_recurso, ultima: visitas.ultima })
        .from(visitas)
        .where(eq(visitas.id_usuario, id))
        .orderBy(desc(visitas.ultima)),
    linea: (f) => `${texto(f.tipo)} n.º ${String(f.id_recurso)}, última vez el ${cuando(f.ultima)}`,
  },
  {
    clave: 'solicitudes',
    nombre: 'Solicitudes sobre tus datos',
    cargar: (db, id) =>
      db
        .select({
          tipo: solicitudesDatos.tipo,
          origen: solicitudesDatos.origen,
          estado: solicitudesDatos.estado,
          motivo: solicitudesDatos.motivo,
          fecha_creacion: solicitudesDatos.fecha_creacion,
          fecha_resolucion: solicitudesDatos.fecha_resolucion,
        })
        .from(solicitudesDatos)
        .where(eq(solicitudesDatos.id_usuario, id))
        .orderBy(desc(solicitudesDatos.fecha_creacion)),
    linea: (f) => `${texto(f.tipo)}, ${cuando(f.fecha_creacion)} (${texto(f.estado)})`,
  },
  {
    clave: 'copias',
    nombre: 'Copias de tus datos',
    cargar: (db, id) =>
      db
        .select({
          id: copiasDatos.id,
          estado: copiasDatos.estado,
          bytes: copiasDatos.bytes,
          lista_en: copiasDatos.lista_en,
          expira: copiasDatos.expira,
          fecha_creacion: copiasDatos.fecha_creacion,
        })
        .from(copiasDatos)
        .where(eq(copiasDatos.id_usuario, id))
        .orderBy(desc(copiasDatos.fecha_creacion)),
    linea: (f) => `Pedida el ${cuando(f.fecha_creacion)} (${texto(f.estado)})`,
  },
];

/** The categories' keys and names, in the order the page and the copy show them. */
export const NOMBRES_CATEGORIAS: { clave: string; nombre: string }[] = CATEGORIAS.map(({ clave, nombre }) => ({ clave, nombre }));

async function recolectarUna(db: Db, def: Definicion, id: number): Promise<Categoria> {
  const filas = await def.cargar(db, id);
  const archivos = filas.flatMap((f) => def.archivos?.(f) ?? []);
  if (def.clave !== 'perfil')
    return { clave: def.clave, nombre: def.nombre, cantidad: filas.length, filas, lineas: filas.map(def.linea), archivos };
  // The profile is one row: what counts is each field with a value.
  const [fila = {}] = filas;
  const campos = Object.entries(fila).filter(([campo, valor]) => campo in CAMPOS_PERFIL && conValor(valor));
  return {
    clave: def.clave,
    nombre: def.nombre,
    cantidad: campos.length,
    filas: [fila],
    lineas: campos.map(([campo, valor]) => lineaCampo(campo, valor)),
    archivos,
  };
}

/** Every category of what is held about `id`, in order. */
export async function recolectar(db: Db, id: number): Promise<Categoria[]> {
  const categorias: Categoria[] = [];
  for (const def of CATEGORIAS) categorias.push(await recolectarUna(db, def, id));
  return categorias;
}

/** Whether an account `id` exists and is not erased (whose data there is to show). */
export async function existe(db: Db, id: number): Promise<boolean> {
  const [fila] = await db
    .select({ id: usuarios.id })
    .from(usuarios)
    .where(and(eq(usuarios.id, id), isNull(usuarios.eliminada_en)));
  return fila !== undefined;
}
