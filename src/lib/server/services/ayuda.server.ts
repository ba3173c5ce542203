/** Messages to the help centre: stored, then delivered to HELP_EMAIL with the sender as reply-to. */
import { eq } from 'drizzle-orm';
import type { AyudaInput } from '../../validation/cuentas.ts';
import { ApiError } from '../api/errors.server.ts';
import { mensajesAyuda, usuarios } from '../db/schema.server.ts';
import * as plantillas from '../mail/templates.server.ts';
import type { ServiceContext } from './context.server.ts';
import { nombreCorto } from './usuarios.server.ts';

export function createAyudaService(ctx: ServiceContext) {
  return {
    async enviar(idUsuario: number, input: AyudaInput): Promise<void> {
      const [sender] = await ctx.db.select().from(usuarios).where(eq(usuarios.id, idUsuario));
      if (!sender) throw new ApiError(404, 'Usuario no encontrado');
      await ctx.db.insert(mensajesAyuda).values({ id_usuario_sender: sender.id, asunto: input.asunto, mensaje: input.mensaje });
      const rendered = plantillas.ayuda({ nombre: nombreCorto(sender), email: sender.email }, input.asunto, input.mensaje);
      await ctx.mailer.send({ to: ctx.config.HELP_EMAIL, replyTo: sender.email, ...rendered });
    },
  };
}
