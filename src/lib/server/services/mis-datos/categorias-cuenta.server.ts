/**
 * What is held about a person's account (issue 31, decision 0058): profile, schools, specialties,
 * areas, levels, consents, sessions, sign-ins, the second factor and the linked school accounts (issue 32).
 */
import { and, count, desc, eq, min } from 'drizzle-orm';
import {
  areas,
  colegios,
  consentimientos,
  especialidades,
  identidades,
  ingresos,
  niveles,
  perfilAreas,
  perfilColegios,
  perfilEspecialidades,
  perfilNiveles,
  segundosFactores,
  tokensCuenta,
  tokensRefresh,
} from '../../db/schema.server.ts';
import { codigosRestantes } from '../segundo-factor/codigos.server.ts';
import { sesionesDe } from '../sesiones.server.ts';
import { corto, cuando, type Definicion, delPerfil, perfil, texto } from './definicion.server.ts';

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
    cargar: async (db, id) =>
      (await sesionesDe(db, id).orderBy(desc(min(tokensRefresh.fecha_creacion)))).map((f) => ({
        iniciada: f.iniciada,
        ultima_renovacion: f.ultimo_uso,
        expira: f.expira,
        cerrada: f.cerrada,
        ip: f.ip,
        navegador: f.agente,
      })),
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
    clave: 'segundo_factor',
    nombre: 'Verificación en dos pasos',
    // That it exists, when it was turned on, the recovery codes left and the remembered devices:
    // never the secret nor the codes, which are secrets.
    cargar: async (db, id) => {
      const [factor] = await db
        .select({ activada: segundosFactores.confirmado })
        .from(segundosFactores)
        .where(eq(segundosFactores.id_usuario, id));
      if (!factor?.activada) return [];
      const [equipos] = await db
        .select({ n: count() })
        .from(tokensCuenta)
        .where(and(eq(tokensCuenta.id_usuario, id), eq(tokensCuenta.tipo, 'equipo_recordado')));
      return [{ activada: factor.activada, codigos_restantes: await codigosRestantes(db, id), equipos_recordados: equipos?.n ?? 0 }];
    },
    linea: (f) =>
      `Activada el ${cuando(f.activada)}; ${f.codigos_restantes} códigos de recuperación sin usar; ${f.equipos_recordados} equipos recordados`,
  },
  {
    clave: 'cuentas_vinculadas',
    nombre: 'Cuentas vinculadas (Google, Microsoft u otras)',
    cargar: (db, id) =>
      db
        .select({ proveedor: identidades.proveedor, email: identidades.email, desde: identidades.fecha_creacion })
        .from(identidades)
        .where(eq(identidades.id_usuario, id))
        .orderBy(identidades.fecha_creacion),
    linea: (f) => `${texto(f.proveedor)}: ${texto(f.email)}, vinculada el ${cuando(f.desde)}`,
  },
];
