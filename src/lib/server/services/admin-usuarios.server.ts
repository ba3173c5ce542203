/**
 * The accounts of the admin console (issue 16, /admin/usuarios): the searchable list, the changes
 * an admin makes to an account (deactivate, reactivate, grant or remove 'admin', change the
 * school) and the roster import with its preview. Every change is written to the audit log in its
 * own transaction (registro.server.ts).
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, not, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { esAdmin } from '../../permisos.ts';
import type { CambioUsuario, FiltrosUsuarios } from '../../validation/admin.ts';
import { IMPORTACION_MAX_LINEAS, TAMANO_PAGINA_ADMIN } from '../../validation/admin.ts';
import { cuentaEliminada } from '../../validation/baja.ts';
import { invitacionSchema } from '../../validation/invitacion.ts';
import { numPaginas } from '../../validation/listas.ts';
import { parseCsv } from '../cli/csv.server.ts';
import type { Db } from '../db/client.server.ts';
import { perfilColegios, perfilesDocentes, tokensCuenta, usuarios } from '../db/schema.server.ts';
import { contienePalabras } from '../db/search.server.ts';
import { ErrorDeDominio, fieldErrors } from '../errores.server.ts';
import type { ServiceContext } from './context.server.ts';
import type { CuentasService } from './cuentas.server.ts';
import { CUENTA_ELIMINADA, colegioPorNombre, type createInvitacionesService, EMAIL_EXISTENTE } from './invitaciones.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

export type UsuarioAdmin = Esquema<'UsuarioAdmin'>;
type LineaImportacion = Esquema<'ImportacionUsuarios'>['lineas'][number];

export const ULTIMO_ADMIN = 'No se puede quitar el permiso de administrador al último administrador';
export const ULTIMO_ADMIN_DESACTIVAR = 'No se puede desactivar al último administrador';
export const DESACTIVARSE = 'No puedes desactivar tu propia cuenta';

const esAdminSql = sql`'admin' = any(${usuarios.groups})`;

/*
 * Correlated subqueries spelt with qualified names: Drizzle writes a single table's columns
 * unqualified in a select list, where "id" would mean the subquery's own table.
 */
/** The schools of a teacher's profile, by name, as one text ('' when none). */
const colegioSql = sql<string>`coalesce((select string_agg(c.nombre, ', ' order by c.nombre) from perfil_colegios pc inner join colegios c on c.id = pc.id_colegio where pc.id_usuario = "usuarios"."id"), '')`;
const ultimoIngresoSql = sql<
  string | null
>`(select to_char(max(i.fecha) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from ingresos i where i.id_usuario = "usuarios"."id")`;
const nombresSql = sql<string>`trim(${usuarios.primer_nombre} || ' ' || ${usuarios.segundo_nombre})`;
const apellidosSql = sql<string>`trim(${usuarios.apellido_paterno} || ' ' || ${usuarios.apellido_materno})`;

const columnas = {
  id: usuarios.id,
  email: usuarios.email,
  nombres: nombresSql,
  apellidos: apellidosSql,
  colegio: colegioSql,
  groups: usuarios.groups,
  activo: usuarios.activo,
  desactivada_en: usuarios.desactivada_en,
  eliminada_en: usuarios.eliminada_en,
  fecha_creacion: usuarios.fecha_creacion,
  ultimo_ingreso: ultimoIngresoSql,
};

type Fila = { activo: boolean; desactivada_en: Date | null; eliminada_en: Date | null; fecha_creacion: Date } & Omit<
  UsuarioAdmin,
  'estado' | 'fecha_creacion'
>;

/** An erased account shows by its number ('Cuenta n.º 12'), as the audit log names it, not by its anonymised address. */
function aUsuarioAdmin({ activo, desactivada_en, eliminada_en, fecha_creacion, ...f }: Fila): UsuarioAdmin {
  const estado = eliminada_en ? 'eliminada' : desactivada_en ? 'desactivada' : activo ? 'activa' : 'pendiente';
  return { ...f, ...(eliminada_en ? { email: cuentaEliminada(f.id) } : {}), estado, fecha_creacion: fecha_creacion.toISOString() };
}

const filtroEstado: Record<FiltrosUsuarios['estado'] & string, SQL | undefined> = {
  desactivada: and(isNull(usuarios.eliminada_en), isNotNull(usuarios.desactivada_en)),
  activa: and(isNull(usuarios.eliminada_en), isNull(usuarios.desactivada_en), eq(usuarios.activo, true)),
  pendiente: and(isNull(usuarios.eliminada_en), isNull(usuarios.desactivada_en), eq(usuarios.activo, false)),
  eliminada: isNotNull(usuarios.eliminada_en),
};

const nombreOrden = [usuarios.apellido_paterno, usuarios.apellido_materno, usuarios.primer_nombre];
function orden(o: FiltrosUsuarios['orden']): SQL[] {
  switch (o ?? 'nombre') {
    case 'nombre':
      return [...nombreOrden.map((c) => asc(c)), asc(usuarios.id)];
    case '-nombre':
      return [...nombreOrden.map((c) => desc(c)), desc(usuarios.id)];
    case 'email':
      return [asc(usuarios.email)];
    case '-email':
      return [desc(usuarios.email)];
    case 'fecha':
      return [asc(usuarios.fecha_creacion), asc(usuarios.id)];
    default:
      return [desc(usuarios.fecha_creacion), desc(usuarios.id)];
  }
}

/** The Spanish messages of a failed parse, in order, without repeats. */
const mensajes = (error: Parameters<typeof fieldErrors>[0]) => [...new Set(Object.values(fieldErrors(error)).flat())];

function describir(error: unknown): string {
  if (error instanceof ErrorDeDominio) {
    const campos = Object.values(error.body.errors ?? {}).flat();
    return campos[0] ?? error.body.detail;
  }
  throw error;
}

/** Header names as people write them: 'Email', 'Apellidos ', 'nómbres'. */
const columna = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');

export function createAdminUsuariosService(
  ctx: ServiceContext,
  deps: { cuentas: CuentasService; invitaciones: ReturnType<typeof createInvitacionesService> },
) {
  const { db, now } = ctx;
  const { sesiones } = deps.cuentas;

  async function obtener(en: Db, id: number): Promise<UsuarioAdmin | undefined> {
    const [fila] = await en.select(columnas).from(usuarios).where(eq(usuarios.id, id));
    return fila && aUsuarioAdmin(fila);
  }

  /** Whether some active admin other than `id` remains (their rows locked until the commit). */
  async function quedaOtroAdmin(tx: Db, id: number): Promise<boolean> {
    const admins = await tx
      .select({ id: usuarios.id, activo: usuarios.activo, desactivada_en: usuarios.desactivada_en })
      .from(usuarios)
      .where(esAdminSql)
      .for('update');
    return admins.some((a) => a.id !== id && a.activo && !a.desactivada_en);
  }

  async function asegurarPerfil(tx: Db, id: number) {
    await tx.insert(perfilesDocentes).values({ id_usuario: id }).onConflictDoNothing();
  }

  return {
    async listar(filtros: Partial<FiltrosUsuarios> = {}): Promise<Esquema<'UsuariosAdmin'>> {
      const pagina = filtros.pagina ?? 1;
      const tamano = filtros.tamano_pagina ?? TAMANO_PAGINA_ADMIN;
      const where = and(
        contienePalabras([nombresSql, apellidosSql, usuarios.email, colegioSql], filtros.q),
        filtros.rol === 'admin' ? esAdminSql : filtros.rol === 'docente' ? not(esAdminSql) : undefined,
        filtros.estado ? filtroEstado[filtros.estado] : undefined,
      );
      const [total] = await db.select({ n: count() }).from(usuarios).where(where);
      const filas = await db
        .select(columnas)
        .from(usuarios)
        .where(where)
        .orderBy(...orden(filtros.orden))
        .limit(tamano)
        .offset((pagina - 1) * tamano);
      const num_results = total?.n ?? 0;
      return { usuarios: filas.map(aUsuarioAdmin), num_pages: numPaginas(num_results, tamano), num_results };
    },

    async obtener(id: number): Promise<UsuarioAdmin> {
      const usuario = await obtener(db, id);
      if (!usuario) throw new ErrorDeDominio(404, 'Usuario no encontrado');
      return usuario;
    },

    /**
     * Deactivates or reactivates, grants or removes 'admin', changes the school. A deactivated
     * account's sessions and unused links end in the same transaction; its content stays.
     */
    async actualizar(actor: ActorAdmin, id: number, cambio: CambioUsuario): Promise<UsuarioAdmin> {
      const cerrarSesiones = await db.transaction(async (tx) => {
        const [u] = await tx.select().from(usuarios).where(eq(usuarios.id, id)).for('update');
        if (!u) throw new ErrorDeDominio(404, 'Usuario no encontrado');
        if (u.eliminada_en) throw new ErrorDeDominio(409, CUENTA_ELIMINADA);
        const eraAdmin = esAdmin(u);
        const adminActivo = eraAdmin && u.activo && !u.desactivada_en;
        const registrar = (accion: string, detalle: string) =>
          registrarAccion(tx, actor, { accion, tipo: 'usuario', id_registro: id, detalle });
        let sesionesCambian = false;

        if (cambio.activo === false && !u.desactivada_en) {
          if (actor.id === id) throw new ErrorDeDominio(409, DESACTIVARSE);
          if (adminActivo && !(await quedaOtroAdmin(tx, id))) throw new ErrorDeDominio(409, ULTIMO_ADMIN_DESACTIVAR);
          await tx.update(usuarios).set({ desactivada_en: now(), activo: false }).where(eq(usuarios.id, id));
          await sesiones.revocarUsuario(id, tx);
          // Unused activation and reset links stop working for good: a reactivated account gets a fresh one.
          await tx
            .update(tokensCuenta)
            .set({ usado: now() })
            .where(and(eq(tokensCuenta.id_usuario, id), isNull(tokensCuenta.usado)));
          await registrar('desactivar', `Desactivó la cuenta de ${u.email}`);
          sesionesCambian = true;
        } else if (cambio.activo === true && u.desactivada_en) {
          // An account never activated goes back to waiting for its activation.
          await tx
            .update(usuarios)
            .set({ desactivada_en: null, activo: u.password_hash !== null })
            .where(eq(usuarios.id, id));
          await registrar('reactivar', `Reactivó la cuenta de ${u.email}`);
        }

        if (cambio.admin === true && !eraAdmin) {
          await tx
            .update(usuarios)
            .set({ groups: [...u.groups, 'admin'], rol: 'Administrador' })
            .where(eq(usuarios.id, id));
          await registrar('dar_admin', `Otorgó el permiso de administrador a ${u.email}`);
          sesionesCambian = true;
        } else if (cambio.admin === false && eraAdmin) {
          if (adminActivo && !(await quedaOtroAdmin(tx, id))) throw new ErrorDeDominio(409, ULTIMO_ADMIN);
          await tx
            .update(usuarios)
            .set({ groups: u.groups.filter((g) => g !== 'admin'), rol: 'Profesor' })
            .where(eq(usuarios.id, id));
          // Every teacher has a profile (invitaciones.server.ts).
          await asegurarPerfil(tx, id);
          await registrar('quitar_admin', `Quitó el permiso de administrador a ${u.email}`);
          sesionesCambian = true;
        }

        if (cambio.colegio !== undefined) {
          const nombre = cambio.colegio.trim();
          await asegurarPerfil(tx, id);
          await tx.delete(perfilColegios).where(eq(perfilColegios.id_usuario, id));
          if (nombre) {
            const colegio = await colegioPorNombre(tx, nombre);
            await tx.insert(perfilColegios).values({ id_usuario: id, id_colegio: colegio.id });
            await registrar('cambiar_colegio', `Cambió el colegio de ${u.email} a «${nombre}»`);
          } else {
            await registrar('cambiar_colegio', `Quitó el colegio de ${u.email}`);
          }
        }
        return sesionesCambian;
      });
      // A check that ran during the transaction may have cached the old answer.
      if (cerrarSesiones) sesiones.olvidarUsuario(id);
      ctx.log.info('account changed by admin', { userId: id, adminId: actor.id, cambio: Object.keys(cambio) });
      return this.obtener(id);
    },

    /**
     * A roster (the CLI's CSV: email, nombres, apellidos and optionally rut, colegio, admin). Without
     * `confirmar`, every line checked and nothing written; with it, each valid line invited (its
     * activation mail queued) and the import written once to the audit log.
     */
    async importar(actor: ActorAdmin, texto: string, confirmar: boolean): Promise<Esquema<'ImportacionUsuarios'>> {
      const filas = parseCsv(texto);
      const [encabezado, ...datos] = filas;
      if (!encabezado || datos.length === 0)
        throw new ErrorDeDominio(400, 'El archivo está vacío: debe tener un encabezado y al menos una fila');
      if (filas.length > IMPORTACION_MAX_LINEAS + 1) {
        throw new ErrorDeDominio(400, `El archivo tiene más de ${IMPORTACION_MAX_LINEAS} filas; divídalo en partes`);
      }
      const columnasCsv = encabezado.values.map(columna);
      const faltan = ['email', 'nombres', 'apellidos'].filter((c) => !columnasCsv.includes(c));
      if (faltan.length > 0) {
        throw new ErrorDeDominio(
          400,
          `Faltan columnas en el encabezado: ${faltan.join(', ')}. Se esperan email, nombres, apellidos y, opcionalmente, rut, colegio y admin.`,
        );
      }

      const vistos = new Map<string, number>();
      const revisadas = datos.map((fila) => {
        const entrada: Record<string, string> = {};
        columnasCsv.forEach((c, i) => {
          if (c) entrada[c] = fila.values[i]?.trim() ?? '';
        });
        const parsed = invitacionSchema.safeParse(entrada);
        const email = parsed.success ? parsed.data.email : (entrada.email ?? '').toLowerCase();
        const linea: LineaImportacion = {
          linea: fila.line,
          email,
          nombres: entrada.nombres ?? '',
          apellidos: entrada.apellidos ?? '',
          estado: parsed.success ? 'valida' : 'error',
          errores: parsed.success ? [] : mensajes(parsed.error),
        };
        const anterior = email ? vistos.get(email) : undefined;
        if (anterior !== undefined) {
          linea.estado = 'error';
          linea.errores.push(`El correo está repetido en el archivo (línea ${anterior})`);
        } else if (email) vistos.set(email, fila.line);
        return { linea, datos: parsed.success ? parsed.data : undefined };
      });

      const validos = revisadas.filter((r) => r.linea.estado === 'valida').map((r) => r.linea.email);
      const existentes = new Set(
        validos.length === 0
          ? []
          : (await db.select({ email: usuarios.email }).from(usuarios).where(inArray(usuarios.email, validos))).map((u) => u.email),
      );
      for (const { linea } of revisadas) {
        if (linea.estado === 'valida' && existentes.has(linea.email)) {
          linea.estado = 'existente';
          linea.errores.push(EMAIL_EXISTENTE);
        }
      }

      if (confirmar) {
        for (const r of revisadas) {
          if (r.linea.estado !== 'valida' || !r.datos) continue;
          try {
            // Logged with its account, in the invitation's own transaction: an import cut short
            // leaves no account missing from the audit log.
            const creado = await deps.invitaciones.invitar(r.datos, actor);
            r.linea.estado = 'creada';
            r.linea.id = creado.usuario.id;
          } catch (error) {
            const mensaje = describir(error);
            r.linea.estado = error instanceof ErrorDeDominio && error.status === 409 ? 'existente' : 'error';
            r.linea.errores.push(mensaje);
          }
        }
      }

      const lineas = revisadas.map((r) => r.linea);
      const creadas = lineas.filter((l) => l.estado === 'creada').length;
      const con_error = lineas.filter((l) => l.estado === 'error').length;
      if (confirmar) {
        const omitidas = lineas.length - creadas - con_error;
        const detalle = `Importó una nómina de ${lineas.length} filas: ${creadas} cuentas invitadas, ${con_error} con errores, ${omitidas} ya existentes`;
        await registrarAccion(db, actor, { accion: 'importar', tipo: 'usuario', id_registro: null, detalle });
        ctx.log.info('roster imported', { adminId: actor.id, lineas: lineas.length, creadas, con_error });
      }
      return { confirmado: confirmar, lineas, creadas, con_error };
    },
  };
}

export type AdminUsuariosService = ReturnType<typeof createAdminUsuariosService>;
