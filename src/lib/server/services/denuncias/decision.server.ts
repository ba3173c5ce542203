/**
 * What an admin's decision does besides closing the reports (issue 17): deleting the item through
 * its own section, and telling its author and the people who reported it.
 */
import { type AccionModeracion, ETIQUETAS_MOTIVO, type MotivoDenuncia, type TipoDenuncia } from '../../../validation/denuncias.ts';
import type { Db } from '../../db/client.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import type { Actor } from '../actor.server.ts';
import type { AdminUsuariosService } from '../admin-usuarios.server.ts';
import type { BibliotecaService } from '../biblioteca.server.ts';
import type { CapsulasService } from '../capsulas.server.ts';
import type { ForoService } from '../foro.server.ts';
import type { ManualesService } from '../manuales.server.ts';
import { notificarModeracion } from '../notificaciones.server.ts';
import type { RecursosService } from '../recursos.server.ts';
import type { ActorAdmin } from '../registro.server.ts';
import { esComentarioRecurso, type Item, RECURSO_DE_COMENTARIO, SIN_TITULO } from './items.server.ts';

/** The sections whose own deletion removes a reported item. */
export interface SeccionesDenunciables {
  capsulas: CapsulasService;
  biblioteca: BibliotecaService;
  manuales: ManualesService;
  foro: ForoService;
  adminUsuarios: AdminUsuariosService;
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

/**
 * Deletes the item through its section's own deletion (files, replies kept as 'Comentario
 * eliminado', forgotten notifications), acting as its author with an admin's sight: the
 * section's rules run as for the author's own delete, and the audit log gets one row, the
 * moderation's. A profile is not deleted: its account is deactivated, as /admin/usuarios does.
 */
export async function eliminarItem(
  deps: SeccionesDenunciables & { recursos: RecursosService },
  admin: ActorAdmin,
  item: Item,
): Promise<void> {
  const comoAutor: Actor = { id: item.idAutor, groups: ['admin'] };
  try {
    if (esComentarioRecurso(item.tipo)) {
      await deps.recursos.eliminarComentario(RECURSO_DE_COMENTARIO[item.tipo], item.id, comoAutor);
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
    if (!(error instanceof ErrorDeDominio && error.status === 404)) throw error;
  }
}

/**
 * Everyone told of a decision: the author (by the action) and each person who reported it. An
 * author whose item is hidden or deleted without the admin's own words is told the reports'
 * reasons as the why.
 */
export async function avisar(
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
