/** What is held about a person's account (issue 31, decision 0058): profile, schools, specialties, areas, levels, consents, sessions… */
import { desc, eq, max, min } from 'drizzle-orm';
import { formatearTamano } from '../../../format/index.ts';
import {
  areas,
  capsulas,
  colegios,
  comentarios,
  consentimientos,
  especialidades,
  ingresos,
  manuales,
  materiales,
  niveles,
  perfilAreas,
  perfilColegios,
  perfilEspecialidades,
  perfilNiveles,
  subtitulos,
  tokensRefresh,
} from '../../db/schema.server.ts';
import { claves } from '../capsulas/video.server.ts';
import { corto, cuando, type Definicion, delPerfil, guardado, perfil, texto } from './definicion.server.ts';

export const CATEGORIAS_CUENTA: Definicion[] = [
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
];
