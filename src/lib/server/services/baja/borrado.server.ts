/**
 * The erasure of an account (issue 31, decision 0059): the contributions through each section's
 * own delete (unless kept), then every row that names the person and the personal fields in one
 * transaction, then the photo, the copies and the mochilas in storage. baja.server.ts schedules and calls it.
 */
import { and, desc, eq, like, ne, or, type SQL, sql } from 'drizzle-orm';
import { nombreCompleto, nombreCorto } from '../../../format/index.ts';
import { cuentaEliminada, DOCENTE_RETIRADO } from '../../../validation/baja.ts';
import {
  capsulas,
  codigosRecuperacion,
  colecciones,
  comentarios,
  consentimientos,
  copiasDatos,
  correos,
  denuncias,
  flujosOidc,
  foroComentarios,
  foroConversaciones,
  foroReaccionesComentario,
  foroReaccionesConversacion,
  guardados,
  identidades,
  ingresos,
  likesCapsulas,
  likesManuales,
  likesMateriales,
  limitesIntentos,
  manuales,
  materiales,
  mensajesAyuda,
  mensajesContacto,
  mochilas,
  notificaciones,
  perfilesDocentes,
  registroAdmin,
  seguimientos,
  segundosFactores,
  solicitudesDatos,
  subidas,
  tokensCuenta,
  tokensRefresh,
  usuarios,
  visitas,
  visitasInicio,
} from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import type { Actor } from '../actor.server.ts';
import type { BajaDeps } from '../baja.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { createRecursosService, type TipoRecurso } from '../recursos.server.ts';
import { olvidarSeguimientos } from '../seguimientos.server.ts';

/** The erased account's address: unique, non-identifying, in a domain that cannot receive mail. */
const correoAnonimo = (id: number) => `cuenta-${id}@eliminada.invalid`;
const TITULO_CONVERSACION_ELIMINADA = 'Conversación eliminada';

/** `replace(col, a, b)` for every pair: a person's name and address out of a text that must stay. */
function sinDatos(columna: SQL | typeof registroAdmin.detalle, pares: [string, string][]): SQL {
  return pares.reduce<SQL>((acc, [a, b]) => sql`replace(${acc}, ${a}, ${b})`, sql`${columna}`);
}

export function createBorrado(ctx: ServiceContext, deps: BajaDeps) {
  const { db, now, storage } = ctx;
  const { sesiones } = deps.cuentas;
  const recursos = createRecursosService(db, now);

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

    // What stays of the person in the register and the audit log: not their name, not their email.
    const titular = cuentaEliminada(id);
    const nombre = nombreCompleto(u);
    const corto = nombreCorto(u);
    const pares: [string, string][] = [
      [u.email, titular],
      ...(nombre.length >= 3 ? ([[nombre, DOCENTE_RETIRADO]] as [string, string][]) : []),
      ...(corto.length >= 3 && corto !== nombre ? ([[corto, DOCENTE_RETIRADO]] as [string, string][]) : []),
      ...(u.rut ? ([[u.rut, '']] as [string, string][]) : []),
    ];
    const restos = await db.transaction(async (tx) => {
      await tx.delete(likesCapsulas).where(eq(likesCapsulas.id_usuario, id));
      await tx.delete(likesMateriales).where(eq(likesMateriales.id_usuario, id));
      await tx.delete(likesManuales).where(eq(likesManuales.id_usuario, id));
      await tx.delete(foroReaccionesConversacion).where(eq(foroReaccionesConversacion.id_usuario, id));
      await tx.delete(foroReaccionesComentario).where(eq(foroReaccionesComentario.id_usuario, id));
      await tx.delete(notificaciones).where(or(eq(notificaciones.id_usuario, id), eq(notificaciones.id_actor, id)));
      // What the person followed, and others' follows of the person, with their notifications (issue 35).
      await olvidarSeguimientos(tx, or(eq(seguimientos.id_usuario, id), eq(seguimientos.id_seguido, id)));
      await tx.delete(denuncias).where(or(eq(denuncias.id_usuario, id), and(eq(denuncias.tipo, 'usuario'), eq(denuncias.id_recurso, id))));
      await tx.delete(consentimientos).where(eq(consentimientos.id_usuario, id));
      await tx.delete(mensajesContacto).where(or(eq(mensajesContacto.id_usuario_sender, id), eq(mensajesContacto.id_usuario_receiver, id)));
      await tx.delete(mensajesAyuda).where(eq(mensajesAyuda.id_usuario_sender, id));
      // The profile's schools, specialties, areas and levels go with it (cascade).
      await tx.delete(perfilesDocentes).where(eq(perfilesDocentes.id_usuario, id));
      await tx.delete(tokensCuenta).where(eq(tokensCuenta.id_usuario, id));
      await tx.delete(tokensRefresh).where(eq(tokensRefresh.id_usuario, id));
      await tx.delete(ingresos).where(eq(ingresos.id_usuario, id));
      // When the person last opened Inicio (the row is kept, as a retired teacher's authorship).
      await tx.delete(visitasInicio).where(eq(visitasInicio.id_usuario, id));
      // The school accounts linked to it, and any linking under way (issue 32).
      await tx.delete(identidades).where(eq(identidades.id_usuario, id));
      await tx.delete(flujosOidc).where(eq(flujosOidc.id_usuario, id));
      // The second factor's secret and recovery codes, and what the person saved for themself.
      await tx.delete(segundosFactores).where(eq(segundosFactores.id_usuario, id));
      await tx.delete(codigosRecuperacion).where(eq(codigosRecuperacion.id_usuario, id));
      await tx.delete(guardados).where(eq(guardados.id_usuario, id));
      // Collections (their items cascade): a shared one is a contribution, kept when asked; a private one was only theirs.
      await tx
        .delete(colecciones)
        .where(and(eq(colecciones.id_usuario, id), u.baja_conservar_aportes ? eq(colecciones.compartida, false) : undefined));
      await tx.delete(visitas).where(eq(visitas.id_usuario, id));
      const filasSubidas = await tx.delete(subidas).where(eq(subidas.id_usuario, id)).returning({ id: subidas.id });
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
      // Built mochilas carry the person's collection names and notes.
      const filasMochilas = await tx.delete(mochilas).where(eq(mochilas.id_usuario, id)).returning({ clave: mochilas.clave });
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
          oculto_directorio: true,
          privacidad_version: null,
          privacidad_aceptada_en: null,
          baja_programada: null,
          eliminada_en: now(),
        })
        .where(eq(usuarios.id, id));
      return { archivos: [...filasCopias, ...filasMochilas], subidas: filasSubidas };
    });
    sesiones.olvidarUsuario(id);
    await storage.remove(`usuarios/${id}`);
    for (const { clave } of restos.archivos) if (clave) await storage.remove(clave);
    // Unfinished uploads' bytes: the hourly sweep would remove them as orphans; not an hour later.
    for (const s of restos.subidas) await deps.subidas.almacen.eliminar(s.id);
    ctx.log.info('account erased', { userId: id, conservar: u.baja_conservar_aportes });
  }

  return { borrar };
}
