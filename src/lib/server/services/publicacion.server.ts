/**
 * The licence and the visibility of capsules, materials and manuals (issue 34, decision 0067):
 * the network's default licence (an admin's setting in `ajustes`), the values an upload or an
 * edit stores, and the one rule between them (only an open licence may be public), checked on
 * what the item ends up with, whatever part of it the request named.
 */
import {
  type CodigoLicencia,
  esAbierta,
  LICENCIA_INICIAL,
  LICENCIA_POR_DEFECTO,
  licencia,
  licenciaDe,
  PUBLICO_SIN_LICENCIA,
  type Visibilidad,
} from '../../validation/licencias.ts';
import type { Db } from '../db/client.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { guardarAjuste, leerAjuste } from './ajustes.server.ts';
import type { ActorAdmin } from './registro.server.ts';

/** What a form or an API body may say about the two fields (both optional). */
export interface PedidoPublicacion {
  licencia?: CodigoLicencia | undefined;
  visibilidad?: Visibilidad | undefined;
}

export interface Publicacion {
  licencia: CodigoLicencia;
  visibilidad: Visibilidad;
}

/** Refuses a public item without an open licence, with the message on the field that made it public. */
function exigirCoherencia(p: Publicacion): Publicacion {
  if (p.visibilidad === 'publico' && !esAbierta(p.licencia))
    throw new ErrorDeDominio(400, PUBLICO_SIN_LICENCIA, { errors: { visibilidad: [PUBLICO_SIN_LICENCIA] } });
  return p;
}

export function createPublicacionService(ctx: { db: Db; now: () => Date }) {
  const { db } = ctx;

  async function licenciaPorDefecto(): Promise<CodigoLicencia> {
    const leido = licencia.safeParse(await leerAjuste(db, LICENCIA_POR_DEFECTO));
    return leido.success ? leido.data : LICENCIA_INICIAL;
  }

  return {
    licenciaPorDefecto,

    /** Sets the network's default licence (validated by the caller), in the audit log. */
    async guardarLicenciaPorDefecto(actor: ActorAdmin, codigo: CodigoLicencia): Promise<void> {
      await guardarAjuste(
        db,
        actor,
        { clave: LICENCIA_POR_DEFECTO, valor: codigo, en: ctx.now() },
        { accion: 'editar_licencia_por_defecto', detalle: `Licencia por defecto: ${licenciaDe(codigo).nombre}` },
      );
    },

    /** An upload's values: what it named, else the network's default and 'red'. */
    async nueva(pedido: PedidoPublicacion): Promise<Publicacion> {
      return exigirCoherencia({
        licencia: pedido.licencia ?? (await licenciaPorDefecto()),
        visibilidad: pedido.visibilidad ?? 'red',
      });
    },

    /** An edit's values: what it named over what the item has, and the time of the change (the sitemap's lastmod). */
    editada(pedido: PedidoPublicacion, actual: Publicacion): Publicacion & { fecha_actualizacion: Date } {
      return {
        ...exigirCoherencia({ licencia: pedido.licencia ?? actual.licencia, visibilidad: pedido.visibilidad ?? actual.visibilidad }),
        fecha_actualizacion: ctx.now(),
      };
    },
  };
}

export type PublicacionService = ReturnType<typeof createPublicacionService>;
