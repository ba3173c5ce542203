/**
 * Messages to the help centre: stored and queued for HELP_EMAIL (with the sender as reply-to) in
 * one transaction, so an accepted request is exactly one stored message and one mail.
 */
import { eq } from 'drizzle-orm';
import type { AyudaInput } from '../../validation/cuentas.ts';
import { mensajesAyuda, usuarios } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { encolarCorreo } from '../mail/outbox.server.ts';
import * as plantillas from '../mail/templates.server.ts';
import type { ServiceContext } from './context.server.ts';
import { nombreCorto } from './usuarios.server.ts';

export function createAyudaService(ctx: ServiceContext) {
  return {
    async enviar(idUsuario: number, input: AyudaInput): Promise<void> {
      const [sender] = await ctx.db.select().from(usuarios).where(eq(usuarios.id, idUsuario));
      if (!sender) throw new ErrorDeDominio(404, 'Usuario no encontrado');
      const rendered = plantillas.ayuda({ nombre: nombreCorto(sender), email: sender.email }, input.asunto, input.mensaje);
      await ctx.db.transaction(async (tx) => {
        await tx.insert(mensajesAyuda).values({ id_usuario_sender: sender.id, asunto: input.asunto, mensaje: input.mensaje });
        await encolarCorreo(tx, { to: ctx.config.HELP_EMAIL, replyTo: sender.email, ...rendered });
      });
    },
  };
}
