/** What a person uploaded, wrote and asked for (issue 31, decision 0058): capsules, materials, manuals, comments, likes, the forum, reports, notifications, messages, views, requests and copies. */
import { desc, eq } from 'drizzle-orm';
import { formatearTamano } from '../../../format/index.ts';
import {
  capsulas,
  comentarios,
  copiasDatos,
  denuncias,
  foroComentarios,
  foroConversaciones,
  foroReaccionesComentario,
  foroReaccionesConversacion,
  likesCapsulas,
  likesManuales,
  likesMateriales,
  manuales,
  materiales,
  mensajesAyuda,
  mensajesContacto,
  notificaciones,
  solicitudesDatos,
  subtitulos,
  visitas,
} from '../../db/schema.server.ts';
import { claves } from '../capsulas/video.server.ts';
import { textoNotificacion } from '../notificaciones/textos.server.ts';
import { corto, cuando, type Definicion, type Fila, guardado, REACCIONES, texto } from './definicion.server.ts';

/** An upload: '«Fracciones», 28 nov 2026, 10:15 (2,1 MB)'. */
const lineaSubida = (f: Fila) => `«${texto(f.titulo)}», ${cuando(f.fecha_creacion)} (${formatearTamano(Number(f.tamano))})`;
/** A comment, or that it was deleted. */
const lineaComentario = (f: Fila) => `${cuando(f.fecha_creacion)}: ${f.eliminado ? '(eliminado)' : `«${corto(f.contenido)}»`}`;
/** A message sent through the platform, by its subject. */
const lineaMensaje = (f: Fila) => `${cuando(f.fecha_creacion)}: «${corto(f.asunto, 60)}»`;

export const CATEGORIAS_APORTES: Definicion[] = [
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
    linea: lineaSubida,
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
    linea: lineaSubida,
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
    linea: lineaSubida,
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
    linea: lineaComentario,
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
    linea: lineaComentario,
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
    linea: lineaMensaje,
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
    linea: lineaMensaje,
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
