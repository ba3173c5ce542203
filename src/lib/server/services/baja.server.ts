/**
 * Leaving the platform (issue 31, Ley 21.719, decision 0059): a person schedules the deletion of
 * their account with their password, or an admin does it from a written request with a reason;
 * 14 days later the 'baja-cuenta' job erases it. Signing in meanwhile cancels. Erasing keeps the
 * `usuarios` row as an anonymous author ('Docente retirado/a'), so kept contributions and others'
 * replies under a deleted comment still have one, and removes or blanks everything else that
 * names the person. Also the console's view of the register of requests (`solicitudes_datos`).
 */
import { and, asc, desc, eq, isNotNull, isNull, like, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import { formatearFecha } from '../../format/index.ts';
import { DIAS_PARA_ELIMINAR, DOCENTE_RETIRADO, type EliminarCuentaAdminInput, type EliminarCuentaInput } from '../../validation/baja.ts';
import { verifyPassword } from '../auth/password.server.ts';
import { type Backoff, backoffWait, createAttemptStore } from '../auth/rate-limit.server.ts';
import type { Db } from '../db/client.server.ts';
import {
  capsulas,
  comentarios,
  consentimientos,
  copiasDatos,
  correos,
  denuncias,
  foroComentarios,
  foroConversaciones,
  foroReaccionesComentario,
  foroReaccionesConversacion,
  ingresos,
  likesCapsulas,
  likesManuales,
  likesMateriales,
  limitesIntentos,
  manuales,
  materiales,
  mensajesAyuda,
  mensajesContacto,
  notificaciones,
  perfilesDocentes,
  registroAdmin,
  solicitudesDatos,
  subidas,
  tokensCuenta,
  tokensRefresh,
  usuarios,
  visitas,
} from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { trabajoPeriodico } from '../jobs/periodico.server.ts';
import type { Actor } from './actor.server.ts';
import type { BibliotecaService } from './biblioteca.server.ts';
import type { CapsulasService } from './capsulas.server.ts';
import type { ServiceContext } from './context.server.ts';
import { type CuentasService, demasiadosIntentos } from './cuentas.server.ts';
import type { ForoService } from './foro.server.ts';
import type { ManualesService } from './manuales.server.ts';
import { createRecursosService, type TipoRecurso } from './recursos.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

/** The periodic job that erases the accounts whose 14 days have passed. */
export const TRABAJO_BAJA = 'baja-cuenta';
const CADENCIA_SEGUNDOS = 60 * 60;

export const CONTRASENA_INCORRECTA = 'La contraseña no es correcta. Tu cuenta no se eliminará.';
export const ELIMINARSE = 'No puedes eliminar tu propia cuenta desde la consola: hazlo desde tu perfil, en «Eliminar mi cuenta»';
export const ULTIMA_ADMINISTRACION =
  'Eres la única persona que administra la red: antes de eliminar tu cuenta, da el rol de administrador a otra persona en «Usuarios»';
export const BAJA_CANCELADA = 'Cancelamos la eliminación de tu cuenta porque volviste a ingresar. Tu cuenta sigue activa.';
const NO_ENCONTRADO = 'Usuario no encontrado';
const SIN_BAJA = 'Esta cuenta no tiene una eliminación programada';
/** A wrong password counts as a failed sign-in would (decision 0023): a growing delay per account. */
const BAJA_POR_CUENTA: Backoff = { free: 5, maxSeconds: 60, windowSeconds: 15 * 60 };

/** What stays of an erased person in the register and the audit log: not their name, not their email. */
export const titularAnonimo = (id: number) => `Cuenta n.º ${id}`;
/** The erased account's address: unique, non-identifying, in a domain that cannot receive mail. */
const correoAnonimo = (id: number) => `cuenta-${id}@eliminada.invalid`;
const TITULO_CONVERSACION_ELIMINADA = 'Conversación eliminada';

type Db_ = Pick<Db, 'select' | 'update' | 'insert'>;

const nombreCompleto = (u: typeof usuarios.$inferSelect) =>
  [u.primer_nombre, u.segundo_nombre, u.apellido_paterno, u.apellido_materno].filter((s) => s.trim() !== '').join(' ');
const titularDe = (u: typeof usuarios.$inferSelect) => `${nombreCompleto(u)} <${u.email}>`;

/**
 * Cancels a scheduled deletion (the person's 'Cancelar', a sign-in, an admin): its request in the
 * register marked 'cancelada'. True when there was one to cancel.
 */
export async function cancelarBaja(db: Db_, idUsuario: number, now: Date, idAdmin: number | null = null): Promise<boolean> {
  const cambiadas = await db
    .update(usuarios)
    .set({ baja_programada: null })
    .where(and(eq(usuarios.id, idUsuario), isNotNull(usuarios.baja_programada), isNull(usuarios.eliminada_en)))
    .returning({ id: usuarios.id });
  await db
    .update(solicitudesDatos)
    .set({ estado: 'cancelada', fecha_resolucion: now, ...(idAdmin !== null ? { id_admin: idAdmin } : {}) })
    .where(
      and(eq(solicitudesDatos.id_usuario, idUsuario), eq(solicitudesDatos.tipo, 'eliminacion'), eq(solicitudesDatos.estado, 'pendiente')),
    );
  return cambiadas.length > 0;
}

/** `replace(col, a, b)` for every pair: a person's name and address out of a text that must stay. */
function sinDatos(columna: SQL | typeof registroAdmin.detalle, pares: [string, string][]): SQL {
  return pares.reduce<SQL>((acc, [a, b]) => sql`replace(${acc}, ${a}, ${b})`, sql`${columna}`);
}

export interface BajaDeps {
  cuentas: CuentasService;
  capsulas: CapsulasService;
  biblioteca: BibliotecaService;
  manuales: ManualesService;
  foro: ForoService;
}

export function createBajaService(ctx: ServiceContext, deps: BajaDeps) {
  const { db, now, storage } = ctx;
  const { sesiones } = deps.cuentas;
  const intentos = createAttemptStore(db, now);
  const recursos = createRecursosService(db, now);

  async function fila(id: number) {
    const [u] = await db.select().from(usuarios).where(eq(usuarios.id, id));
    if (!u || u.eliminada_en) throw new ErrorDeDominio(404, NO_ENCONTRADO);
    return u;
  }

  /** Sets the date and the choice, and records the request (one pending per person: a new one replaces it). */
  async function agendar(
    tx: Db_,
    u: typeof usuarios.$inferSelect,
    conservar: boolean,
    origen: { origen: 'persona' | 'admin'; motivo?: string; id_admin?: number | null },
  ): Promise<Date> {
    const fecha = new Date(now().getTime() + DIAS_PARA_ELIMINAR * 24 * 60 * 60 * 1000);
    await tx.update(usuarios).set({ baja_programada: fecha, baja_conservar_aportes: conservar }).where(eq(usuarios.id, u.id));
    await tx
      .update(solicitudesDatos)
      .set({ estado: 'cancelada', fecha_resolucion: now() })
      .where(
        and(eq(solicitudesDatos.id_usuario, u.id), eq(solicitudesDatos.tipo, 'eliminacion'), eq(solicitudesDatos.estado, 'pendiente')),
      );
    await tx.insert(solicitudesDatos).values({
      id_usuario: u.id,
      titular: titularDe(u),
      tipo: 'eliminacion',
      origen: origen.origen,
      motivo: origen.motivo ?? '',
      id_admin: origen.id_admin ?? null,
      fecha_creacion: now(),
    });
    return fecha;
  }

  /**
   * Whether another active admin would remain, not on their way out: the network is never left
   * without someone to run it (the local key, `npm run usuarios`, can still act in an emergency).
   */
  async function quedaOtraAdministracion(id: number): Promise<boolean> {
    const [otra] = await db
      .select({ id: usuarios.id })
      .from(usuarios)
      .where(
        and(
          ne(usuarios.id, id),
          eq(usuarios.activo, true),
          isNull(usuarios.eliminada_en),
          isNull(usuarios.baja_programada),
          sql`'admin' = any(${usuarios.groups})`,
        ),
      )
      .limit(1);
    return otra !== undefined;
  }

  /** Deletes, through each section's own delete, what the person uploaded and wrote. */
  async function borrarAportes(id: number): Promise<void> {
    const autor: Actor = { id, groups: [] };
    for (const c of await db.select({ id: capsulas.id }).from(capsulas).where(eq(capsulas.id_usuario, id))) {
      await deps.capsulas.eliminar(autor, c.id);
    }
    for (const m of await db.select({ id: materiales.id }).from(materiales).where(eq(materiales.id_usuario, id))) {
      await deps.biblioteca.eliminar(autor, m.id);
    }
    for (const m of await db.select({ id: manuales.id }).from(manuales).where(eq(manuales.id_usuario, id))) {
      await deps.manuales.eliminar(autor, m.id);
    }
    // Replies first, so a comment whose only replies were the person's own goes for real.
    const propios = await db
      .select()
      .from(comentarios)
      .where(eq(comentarios.id_usuario, id))
      .orderBy(sql`${comentarios.id_respuesta_comentario} is null`, desc(comentarios.id));
    for (const c of propios) {
      const tipo: TipoRecurso = c.id_capsula !== null ? 'capsula' : c.id_material !== null ? 'material' : 'manual';
      await recursos.eliminarComentario(tipo, c.id, autor).catch(async (error: unknown) => {
        // A comment on something the person no longer sees (hidden by moderation): blanked here.
        if (!(error instanceof ErrorDeDominio)) throw error;
        await db.update(comentarios).set({ contenido: '', eliminado: true }).where(eq(comentarios.id, c.id));
      });
    }
    // Deepest first (a reply is newer than what it answers).
    const enForo = await db.select().from(foroComentarios).where(eq(foroComentarios.id_usuario, id)).orderBy(desc(foroComentarios.id));
    for (const c of enForo) {
      await deps.foro.comentarios.eliminar(autor, c.id).catch(async (error: unknown) => {
        if (!(error instanceof ErrorDeDominio)) throw error;
        await db.update(foroComentarios).set({ contenido: '', eliminado: true }).where(eq(foroComentarios.id, c.id));
      });
    }
    const conversaciones = await db.select().from(foroConversaciones).where(eq(foroConversaciones.id_usuario_creador, id));
    for (const c of conversaciones) {
      const [otro] = await db
        .select({ id: foroComentarios.id })
        .from(foroComentarios)
        .where(and(eq(foroComentarios.id_conversacion, c.id), ne(foroComentarios.id_usuario, id)))
        .limit(1);
      if (otro) {
        // Others answered: the conversation stays, without the person's words, so their replies still show.
        await db
          .update(foroConversaciones)
          .set({ titulo: TITULO_CONVERSACION_ELIMINADA, contenido: '', editado: false })
          .where(eq(foroConversaciones.id, c.id));
      } else {
        await deps.foro.conversaciones.eliminar(autor, c.id);
      }
    }
  }

  /**
   * Erases the account now: the contributions (unless kept), then in one transaction every row
   * that names the person and the personal fields; then the photo and copies in storage. Runs
   * again safely after a failure halfway (what was deleted is gone; the rest is done now).
   */
  async function borrar(id: number): Promise<void> {
    const [u] = await db.select().from(usuarios).where(eq(usuarios.id, id));
    if (!u || u.eliminada_en) return;
    // No new session, no action while the erasure runs.
    await db.update(usuarios).set({ activo: false }).where(eq(usuarios.id, id));
    await sesiones.revocarUsuario(id);
    if (!u.baja_conservar_aportes) await borrarAportes(id);

    const titular = titularAnonimo(id);
    const nombre = nombreCompleto(u);
    const corto = `${u.primer_nombre} ${u.apellido_paterno}`.trim();
    const pares: [string, string][] = [
      [u.email, titular],
      ...(nombre.length >= 3 ? ([[nombre, DOCENTE_RETIRADO]] as [string, string][]) : []),
      ...(corto.length >= 3 && corto !== nombre ? ([[corto, DOCENTE_RETIRADO]] as [string, string][]) : []),
      ...(u.rut ? ([[u.rut, '']] as [string, string][]) : []),
    ];
    const copias = await db.transaction(async (tx) => {
      await tx.delete(likesCapsulas).where(eq(likesCapsulas.id_usuario, id));
      await tx.delete(likesMateriales).where(eq(likesMateriales.id_usuario, id));
      await tx.delete(likesManuales).where(eq(likesManuales.id_usuario, id));
      await tx.delete(foroReaccionesConversacion).where(eq(foroReaccionesConversacion.id_usuario, id));
      await tx.delete(foroReaccionesComentario).where(eq(foroReaccionesComentario.id_usuario, id));
      await tx.delete(notificaciones).where(or(eq(notificaciones.id_usuario, id), eq(notificaciones.id_actor, id)));
      await tx.delete(denuncias).where(or(eq(denuncias.id_usuario, id), and(eq(denuncias.tipo, 'usuario'), eq(denuncias.id_recurso, id))));
      await tx.delete(consentimientos).where(eq(consentimientos.id_usuario, id));
      await tx.delete(mensajesContacto).where(or(eq(mensajesContacto.id_usuario_sender, id), eq(mensajesContacto.id_usuario_receiver, id)));
      await tx.delete(mensajesAyuda).where(eq(mensajesAyuda.id_usuario_sender, id));
      // The profile's schools, specialties, areas and levels go with it (cascade).
      await tx.delete(perfilesDocentes).where(eq(perfilesDocentes.id_usuario, id));
      await tx.delete(tokensCuenta).where(eq(tokensCuenta.id_usuario, id));
      await tx.delete(tokensRefresh).where(eq(tokensRefresh.id_usuario, id));
      await tx.delete(ingresos).where(eq(ingresos.id_usuario, id));
      await tx.delete(visitas).where(eq(visitas.id_usuario, id));
      await tx.delete(subidas).where(eq(subidas.id_usuario, id));
      // Mail to or from the address goes; mail to others keeps no trace of the person.
      await tx.delete(correos).where(or(eq(correos.para, u.email), eq(correos.responder_a, u.email)));
      await tx
        .update(correos)
        .set({
          asunto: sinDatos(sql`${correos.asunto}`, pares),
          texto: sinDatos(sql`${correos.texto}`, pares),
          html: sinDatos(sql`${correos.html}`, pares),
        })
        .where(or(...pares.map(([a]) => sql`strpos(${correos.texto} || ${correos.html} || ${correos.asunto}, ${a}) > 0`)));
      // Sign-in counters are keyed by the address.
      await tx.delete(limitesIntentos).where(like(limitesIntentos.clave, `%${u.email.replace(/[\\%_]/g, '\\$&')}%`));
      const filasCopias = await tx.delete(copiasDatos).where(eq(copiasDatos.id_usuario, id)).returning({ clave: copiasDatos.clave });
      // The audit log and the register stay, without the person's name or address.
      await tx
        .update(registroAdmin)
        .set({ detalle: sinDatos(sql`${registroAdmin.detalle}`, pares) })
        .where(or(...pares.map(([a]) => sql`strpos(${registroAdmin.detalle}, ${a}) > 0`)));
      await tx
        .update(registroAdmin)
        .set({ admin_email: titular })
        .where(or(eq(registroAdmin.id_admin, id), eq(registroAdmin.admin_email, u.email)));
      await tx
        .update(solicitudesDatos)
        .set({ estado: 'completada', fecha_resolucion: now() })
        .where(
          and(eq(solicitudesDatos.id_usuario, id), eq(solicitudesDatos.tipo, 'eliminacion'), eq(solicitudesDatos.estado, 'pendiente')),
        );
      await tx
        .update(solicitudesDatos)
        .set({ titular, motivo: sinDatos(sql`${solicitudesDatos.motivo}`, pares) })
        .where(eq(solicitudesDatos.id_usuario, id));
      await tx
        .update(usuarios)
        .set({
          email: correoAnonimo(id),
          password_hash: null,
          activo: false,
          primer_nombre: DOCENTE_RETIRADO,
          segundo_nombre: '',
          apellido_paterno: '',
          apellido_materno: '',
          rut: '',
          genero: '',
          nacionalidad: '',
          telefono: '',
          fecha_nacimiento: null,
          foto_perfil: '',
          rol: 'Profesor',
          groups: [],
          preferencia_correo: 'nunca',
          resumen_enviado: null,
          visita_ultima: null,
          visita_anterior: null,
          oculto_directorio: true,
          privacidad_version: null,
          privacidad_aceptada_en: null,
          baja_programada: null,
          eliminada_en: now(),
        })
        .where(eq(usuarios.id, id));
      return filasCopias;
    });
    sesiones.olvidarUsuario(id);
    await storage.remove(`usuarios/${id}`);
    for (const c of copias) if (c.clave) await storage.remove(c.clave);
    ctx.log.info('account erased', { userId: id, conservar: u.baja_conservar_aportes });
  }

  /** Erases every account whose date has passed, one after another. */
  async function borrarVencidas(): Promise<number> {
    const vencidas = await db
      .select({ id: usuarios.id })
      .from(usuarios)
      .where(and(lte(usuarios.baja_programada, now()), isNull(usuarios.eliminada_en)))
      .orderBy(asc(usuarios.baja_programada));
    for (const u of vencidas) await borrar(u.id);
    return vencidas.length;
  }

  const periodico = trabajoPeriodico(ctx, TRABAJO_BAJA, CADENCIA_SEGUNDOS, borrarVencidas);

  return {
    trabajos: { [TRABAJO_BAJA]: periodico.trabajo },

    /** Makes sure the periodic job is queued (at start-up; each run queues the next). */
    programar: periodico.programar,

    /** The person's scheduled deletion, or null: what /perfil/eliminar-cuenta shows. */
    async estado(id: number): Promise<{ baja_programada: string; conservar_aportes: boolean } | null> {
      const u = await fila(id);
      return u.baja_programada ? { baja_programada: u.baja_programada.toISOString(), conservar_aportes: u.baja_conservar_aportes } : null;
    },

    /**
     * The person asks, with their password: the deletion is scheduled in 14 days. A wrong password
     * changes nothing and is counted as a failed sign-in is. The person's other sessions end (the
     * one that asked, `sesionActual`, stays, to see the date and cancel).
     */
    async solicitar(id: number, input: EliminarCuentaInput, sesionActual?: string): Promise<Esquema<'BajaProgramada'>> {
      const clave = `baja:cuenta:${id}`;
      const espera = backoffWait((await intentos.read([clave])).get(clave), BAJA_POR_CUENTA, now());
      if (espera > 0) throw demasiadosIntentos(espera);
      const u = await fila(id);
      if (!u.password_hash || !(await verifyPassword(input.password, u.password_hash))) {
        await intentos.fail(clave, BAJA_POR_CUENTA);
        throw new ErrorDeDominio(400, CONTRASENA_INCORRECTA, { errors: { password: [CONTRASENA_INCORRECTA] } });
      }
      await intentos.reset(clave);
      if (u.groups.includes('admin') && !(await quedaOtraAdministracion(id))) throw new ErrorDeDominio(409, ULTIMA_ADMINISTRACION);
      const fecha = await db.transaction(async (tx) => {
        const f = await agendar(tx, u, input.conservar_aportes, { origen: 'persona' });
        await tx
          .update(tokensRefresh)
          .set({ revocado: now() })
          .where(
            and(
              eq(tokensRefresh.id_usuario, id),
              isNull(tokensRefresh.revocado),
              sesionActual ? ne(tokensRefresh.familia, sesionActual) : undefined,
            ),
          );
        return f;
      });
      sesiones.olvidarUsuario(id);
      ctx.log.info('account deletion scheduled', { userId: id });
      return {
        detail: `Tu cuenta se eliminará el ${formatearFecha(fecha)}. Puedes cancelarlo antes de esa fecha.`,
        baja_programada: fecha.toISOString(),
        conservar_aportes: input.conservar_aportes,
      };
    },

    /** After a sign-in: a scheduled deletion is cancelled, and the notice the person sees says so. */
    async alIngresar(id: number): Promise<string | undefined> {
      return (await db.transaction((tx) => cancelarBaja(tx, id, now()))) ? BAJA_CANCELADA : undefined;
    },

    /** The person cancels. */
    async cancelar(id: number): Promise<void> {
      await fila(id);
      const hubo = await db.transaction((tx) => cancelarBaja(tx, id, now()));
      if (!hubo) throw new ErrorDeDominio(404, SIN_BAJA);
    },

    /**
     * An admin acts on a written request: schedules the deletion (14 days), or with `inmediato`
     * erases now. Written to the audit log; an admin's own account is refused (they use their profile).
     */
    async solicitarAdmin(actor: ActorAdmin, id: number, input: EliminarCuentaAdminInput): Promise<Esquema<'BajaAdmin'>> {
      if (actor.id === id) throw new ErrorDeDominio(409, ELIMINARSE);
      const u = await fila(id);
      const fecha = await db.transaction(async (tx) => {
        const f = await agendar(tx, u, input.conservar_aportes, { origen: 'admin', motivo: input.motivo, id_admin: actor.id });
        const aportes = input.conservar_aportes ? 'conservando sus aportes' : 'eliminando también sus aportes';
        await registrarAccion(tx, actor, {
          accion: input.inmediato ? 'eliminar_cuenta' : 'programar_eliminacion',
          tipo: 'usuario',
          id_registro: id,
          detalle: `${input.inmediato ? 'Eliminó de inmediato' : 'Programó la eliminación de'} la cuenta n.º ${id}, ${aportes}. Motivo: ${input.motivo}`,
        });
        return f;
      });
      if (input.inmediato) {
        await borrar(id);
        return { detail: `La cuenta n.º ${id} fue eliminada`, eliminada: true, baja_programada: null };
      }
      sesiones.olvidarUsuario(id);
      return {
        detail: `La cuenta n.º ${id} se eliminará en ${DIAS_PARA_ELIMINAR} días`,
        eliminada: false,
        baja_programada: fecha.toISOString(),
      };
    },

    /** The account a written request names, by its address (the console's form): its id, or 404. */
    async cuentaPorCorreo(email: string): Promise<number> {
      const [u] = await db
        .select({ id: usuarios.id })
        .from(usuarios)
        .where(and(eq(usuarios.email, email.trim().toLowerCase()), isNull(usuarios.eliminada_en)));
      if (!u) throw new ErrorDeDominio(404, 'No hay una cuenta con ese correo');
      return u.id;
    },

    /** An admin cancels a scheduled deletion. */
    async cancelarAdmin(actor: ActorAdmin, id: number): Promise<void> {
      await fila(id);
      await db.transaction(async (tx) => {
        if (!(await cancelarBaja(tx, id, now(), actor.id))) throw new ErrorDeDominio(404, SIN_BAJA);
        await registrarAccion(tx, actor, {
          accion: 'cancelar_eliminacion',
          tipo: 'usuario',
          id_registro: id,
          detalle: `Canceló la eliminación programada de la cuenta n.º ${id}`,
        });
      });
    },

    borrar,
    borrarVencidas,

    /** The console's requests: deletions waiting for their date, copies of data, and the whole register. */
    async consola(): Promise<Esquema<'SolicitudesAdmin'>> {
      const pendientes = await db
        .select({
          id: usuarios.id,
          primer_nombre: usuarios.primer_nombre,
          apellido_paterno: usuarios.apellido_paterno,
          email: usuarios.email,
          baja_programada: usuarios.baja_programada,
          conservar_aportes: usuarios.baja_conservar_aportes,
        })
        .from(usuarios)
        .where(and(isNotNull(usuarios.baja_programada), isNull(usuarios.eliminada_en)))
        .orderBy(asc(usuarios.baja_programada));
      const copias = await db
        .select({
          id: copiasDatos.id,
          id_usuario: copiasDatos.id_usuario,
          primer_nombre: usuarios.primer_nombre,
          apellido_paterno: usuarios.apellido_paterno,
          email: usuarios.email,
          estado: copiasDatos.estado,
          fecha_creacion: copiasDatos.fecha_creacion,
          expira: copiasDatos.expira,
        })
        .from(copiasDatos)
        .innerJoin(usuarios, eq(usuarios.id, copiasDatos.id_usuario))
        .orderBy(desc(copiasDatos.fecha_creacion))
        .limit(200);
      return {
        eliminaciones: pendientes.map((p) => ({
          id_usuario: p.id,
          nombre: `${p.primer_nombre} ${p.apellido_paterno}`.trim(),
          email: p.email,
          baja_programada: p.baja_programada?.toISOString() ?? '',
          conservar_aportes: p.conservar_aportes,
        })),
        copias: copias.map((c) => ({
          id: c.id,
          id_usuario: c.id_usuario,
          nombre: `${c.primer_nombre} ${c.apellido_paterno}`.trim(),
          email: c.email,
          estado: c.estado,
          fecha_creacion: c.fecha_creacion.toISOString(),
          expira: c.expira?.toISOString() ?? null,
        })),
        registro: await this.registro(),
      };
    },

    /** The register of requests, newest first: erased people only by their label ('Cuenta n.º 12'). */
    async registro(): Promise<Esquema<'SolicitudDatos'>[]> {
      const filas = await db.select().from(solicitudesDatos).orderBy(desc(solicitudesDatos.fecha_creacion), desc(solicitudesDatos.id));
      return filas.map((f) => ({
        id: f.id,
        id_usuario: f.id_usuario,
        titular: f.titular,
        tipo: f.tipo,
        origen: f.origen,
        estado: f.estado,
        motivo: f.motivo,
        fecha_creacion: f.fecha_creacion.toISOString(),
        fecha_resolucion: f.fecha_resolucion?.toISOString() ?? null,
      }));
    },
  };
}

export type BajaService = ReturnType<typeof createBajaService>;
