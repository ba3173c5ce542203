/**
 * A person's linked providers (issue 32, decision 0063): the identities of `identidades`, their
 * unlinking (never the last way in), the admin's 'cuentas automáticas' setting per domain (an
 * `ajustes` row), and the audit log lines of every step of a sign-in with a provider.
 */
import { and, count, eq } from 'drizzle-orm';
import type { ProveedorOidc } from '../../auth/oidc-proveedores.server.ts';
import type { Db } from '../../db/client.server.ts';
import { identidades, registroAdmin, usuarios } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { guardarAjuste, leerAjuste } from '../ajustes.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { type ActorAdmin, registrarAccion } from '../registro.server.ts';

/** The `ajustes` key of the domains whose unknown verified addresses get an account at their first sign-in. */
export const CLAVE_CUENTAS_AUTOMATICAS = 'oidc_cuentas_automaticas';

export const ULTIMA_FORMA =
  'No puedes desvincular tu única forma de ingresar. Crea una contraseña (con ¿Olvidaste tu Contraseña? en la pantalla de ingreso) o vincula otra cuenta antes.';

export interface IdentidadVinculada {
  proveedor: string;
  nombre: string;
  email: string;
  vinculada: string;
  ultimo_uso: string | null;
}

/**
 * One line of the audit log for a step of a sign-in with a provider. `quien` is the account when
 * known (it acts on itself), otherwise the address the provider gave (or the provider's id).
 */
export async function auditarOidc(
  db: Pick<Db, 'select' | 'insert'>,
  paso: { accion: string; idUsuario: number | null; email: string; proveedor: string; detalle: string },
): Promise<void> {
  const detalle = `${paso.detalle} (${paso.proveedor})`;
  if (paso.idUsuario !== null) {
    await registrarAccion(db, { id: paso.idUsuario }, { accion: paso.accion, tipo: 'usuario', id_registro: paso.idUsuario, detalle });
    return;
  }
  await db.insert(registroAdmin).values({
    id_admin: null,
    admin_email: paso.email || `proveedor ${paso.proveedor}`,
    accion: paso.accion,
    tipo: 'usuario',
    id_registro: null,
    detalle,
  });
}

export function createIdentidades(ctx: Pick<ServiceContext, 'db' | 'now'>, proveedores: ProveedorOidc[]) {
  const { db, now } = ctx;
  const nombre = (id: string) => proveedores.find((p) => p.id === id)?.nombre ?? id;

  return {
    /** The person's linked providers, oldest first. */
    async vinculadas(idUsuario: number): Promise<IdentidadVinculada[]> {
      const filas = await db.select().from(identidades).where(eq(identidades.id_usuario, idUsuario)).orderBy(identidades.fecha_creacion);
      return filas.map((f) => ({
        proveedor: f.proveedor,
        nombre: nombre(f.proveedor),
        email: f.email,
        vinculada: f.fecha_creacion.toISOString(),
        ultimo_uso: f.ultimo_uso?.toISOString() ?? null,
      }));
    },

    /**
     * Unlinks a provider from the person's account, unless it is their last way in (no password
     * and no other provider): refused with a 409 that says what to do. Audited.
     */
    async desvincular(idUsuario: number, proveedor: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [usuario] = await tx
          .select({ password_hash: usuarios.password_hash })
          .from(usuarios)
          .where(eq(usuarios.id, idUsuario))
          .for('update');
        const [fila] = await tx
          .select({ id: identidades.id, email: identidades.email })
          .from(identidades)
          .where(and(eq(identidades.id_usuario, idUsuario), eq(identidades.proveedor, proveedor)));
        if (!usuario || !fila) throw new ErrorDeDominio(404, 'Esa cuenta no está vinculada a tu perfil.');
        const [otras] = await tx.select({ n: count() }).from(identidades).where(eq(identidades.id_usuario, idUsuario));
        if (!usuario.password_hash && (otras?.n ?? 0) <= 1) throw new ErrorDeDominio(409, ULTIMA_FORMA);
        await tx.delete(identidades).where(eq(identidades.id, fila.id));
        await auditarOidc(tx, {
          accion: 'oidc_desvincular',
          idUsuario,
          email: fila.email,
          proveedor,
          detalle: `Desvinculó su cuenta ${fila.email} de ${nombre(proveedor)}`,
        });
      });
    },

    /** The domains (of the configured providers') where an unknown verified address gets an account. */
    async dominiosAutomaticos(): Promise<string[]> {
      const valor = await leerAjuste(db, CLAVE_CUENTAS_AUTOMATICAS);
      return Array.isArray(valor) ? valor.filter((d): d is string => typeof d === 'string') : [];
    },

    /** Sets those domains (each one of a configured provider's), in the audit log. */
    async guardarDominiosAutomaticos(actor: ActorAdmin, dominios: string[]): Promise<string[]> {
      const permitidos = new Set(proveedores.flatMap((p) => p.dominios));
      const lista = [...new Set(dominios.map((d) => d.trim().toLowerCase()))].filter((d) => permitidos.has(d)).sort();
      await guardarAjuste(
        db,
        actor,
        { clave: CLAVE_CUENTAS_AUTOMATICAS, valor: lista, en: now() },
        {
          accion: 'editar_cuentas_automaticas',
          detalle: lista.length ? `Cuentas automáticas para: ${lista.join(', ')}` : 'Sin cuentas automáticas',
        },
      );
      return lista;
    },
  };
}

export type Identidades = ReturnType<typeof createIdentidades>;
