/**
 * A person's second factor (issue 32, decision 0065): enrolment (a new secret, its QR code drawn
 * on the server, confirmed by a first code, which hands out ten recovery codes once), removal
 * with a code, and an admin's reset. Only the person enrols or removes their own factor. Every
 * change and every failed code is written to the audit log (registro_admin) with the person as
 * actor; a reset, with the admin. Removing or resetting also forgets the remembered devices and
 * open challenges.
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import QRCode from 'qrcode';
import { createAttemptStore, fixedWait, type Limit } from '../../auth/rate-limit.server.ts';
import type { Db } from '../../db/client.server.ts';
import { codigosRecuperacion, segundosFactores, tokensCuenta, usuarios } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import type { ServiceContext } from '../context.server.ts';
import { demasiadosIntentos } from '../cuentas.server.ts';
import { type ActorAdmin, registrarAccion } from '../registro.server.ts';
import {
  aceptarTotp,
  codigosRestantes,
  esCodigoTotp,
  nuevoSecreto,
  nuevosCodigosRecuperacion,
  urlOtpauth,
  verificarCodigo,
} from './codigos.server.ts';

/** Code attempts, like passwords' (decision 0023): a flat limit per account and a wide one per address. */
const CODIGOS_POR_CUENTA: Limit = { max: 10, windowSeconds: 15 * 60 };
const CODIGOS_POR_DIRECCION: Limit = { max: 200, windowSeconds: 15 * 60 };

const SOLO_LA_PERSONA = 'Solo la persona puede configurar su verificación en dos pasos.';
const SIN_FACTOR = 'No tienes la verificación en dos pasos activa.';
const CODIGO_INCORRECTO = 'El código no es válido o ya fue usado.';

/** One line in the audit log about a person's second factor; `actor` is the person unless an admin acted. */
export function auditar(
  db: Pick<Db, 'select' | 'insert'>,
  idUsuario: number,
  accion: string,
  detalle: string,
  actor: ActorAdmin = { id: idUsuario },
) {
  return registrarAccion(db, actor, { accion, tipo: 'usuario', id_registro: idUsuario, detalle });
}

/** The throttle of second-factor codes: per account, and per address. */
export function limiteCodigos(ctx: Pick<ServiceContext, 'db' | 'now'>) {
  const intentos = createAttemptStore(ctx.db, ctx.now);
  const claves = (idUsuario: number, direccion: string) => [`2fa:cuenta:${idUsuario}`, `2fa:ip:${direccion}`] as const;
  return {
    /** Refuses with a 429 while either limit is reached. */
    async comprobar(idUsuario: number, direccion: string) {
      const [cuenta, ip] = claves(idUsuario, direccion);
      const filas = await intentos.read([cuenta, ip]);
      const at = ctx.now();
      const espera = Math.max(fixedWait(filas.get(cuenta), CODIGOS_POR_CUENTA, at), fixedWait(filas.get(ip), CODIGOS_POR_DIRECCION, at));
      if (espera > 0) throw demasiadosIntentos(espera);
    },
    async fallo(idUsuario: number, direccion: string) {
      const [cuenta, ip] = claves(idUsuario, direccion);
      await intentos.hit(cuenta, CODIGOS_POR_CUENTA);
      await intentos.hit(ip, CODIGOS_POR_DIRECCION);
    },
  };
}

/** Deletes a person's factor, recovery codes, remembered devices and open challenges. */
async function borrarTodo(tx: Db, idUsuario: number) {
  await tx.delete(segundosFactores).where(eq(segundosFactores.id_usuario, idUsuario));
  await tx.delete(codigosRecuperacion).where(eq(codigosRecuperacion.id_usuario, idUsuario));
  await tx
    .delete(tokensCuenta)
    .where(and(eq(tokensCuenta.id_usuario, idUsuario), inArray(tokensCuenta.tipo, ['equipo_recordado', 'desafio_segundo_factor'])));
}

export interface Inscripcion {
  secreto: string;
  otpauth_url: string;
  qr_svg: string;
}

/** What an authenticator app needs: the secret, its otpauth:// URL and that URL's QR code as SVG. */
async function paraLaApp(secreto: string, email: string): Promise<Inscripcion> {
  const otpauth_url = urlOtpauth(secreto, email);
  const qr_svg = await QRCode.toString(otpauth_url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secreto, otpauth_url, qr_svg };
}

export function createInscripcion(ctx: Pick<ServiceContext, 'db' | 'now'>) {
  const { db, now } = ctx;
  const limite = limiteCodigos(ctx);

  function soloLaPersona(actor: { id: number }, idUsuario: number) {
    if (actor.id !== idUsuario) throw new ErrorDeDominio(403, SOLO_LA_PERSONA);
  }

  async function factor(idUsuario: number) {
    const [fila] = await db.select().from(segundosFactores).where(eq(segundosFactores.id_usuario, idUsuario));
    return fila;
  }

  /** Counts a wrong code, logs it and refuses. */
  async function codigoIncorrecto(idUsuario: number, direccion: string, cuando: string): Promise<never> {
    await limite.fallo(idUsuario, direccion);
    await auditar(db, idUsuario, 'codigo_segundo_factor_fallido', `Código de verificación en dos pasos incorrecto ${cuando}`);
    throw new ErrorDeDominio(400, CODIGO_INCORRECTO, { errors: { codigo: [CODIGO_INCORRECTO] } });
  }

  return {
    /** Whether the person has a confirmed factor, and how many recovery codes are left, for their page. */
    async estado(actor: { id: number }, idUsuario: number): Promise<{ activo: boolean; codigos_restantes: number }> {
      soloLaPersona(actor, idUsuario);
      const fila = await factor(idUsuario);
      if (!fila?.confirmado) return { activo: false, codigos_restantes: 0 };
      return { activo: true, codigos_restantes: await codigosRestantes(db, idUsuario) };
    },

    /** Which of these accounts have a confirmed second factor (the console's users page). */
    async conSegundoFactor(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const filas = await db
        .select({ id: segundosFactores.id_usuario })
        .from(segundosFactores)
        .where(and(inArray(segundosFactores.id_usuario, ids), isNotNull(segundosFactores.confirmado)));
      return new Set(filas.map((f) => f.id));
    },

    /** An enrolment started and not confirmed yet, for the person's page to show again; null otherwise. */
    async pendiente(actor: { id: number }, idUsuario: number): Promise<Inscripcion | null> {
      soloLaPersona(actor, idUsuario);
      const [fila] = await db
        .select({ secreto: segundosFactores.secreto, confirmado: segundosFactores.confirmado, email: usuarios.email })
        .from(segundosFactores)
        .innerJoin(usuarios, eq(usuarios.id, segundosFactores.id_usuario))
        .where(eq(segundosFactores.id_usuario, idUsuario));
      return fila && !fila.confirmado ? paraLaApp(fila.secreto, fila.email) : null;
    },

    /** Starts (or restarts) enrolment: a new secret, not in force until confirmed. */
    async iniciar(actor: { id: number }, idUsuario: number): Promise<Inscripcion> {
      soloLaPersona(actor, idUsuario);
      const [usuario] = await db.select({ email: usuarios.email }).from(usuarios).where(eq(usuarios.id, idUsuario));
      if (!usuario) throw new ErrorDeDominio(404, 'No encontrado.');
      if ((await factor(idUsuario))?.confirmado) {
        throw new ErrorDeDominio(409, 'Ya tienes la verificación en dos pasos activa. Quítala antes de inscribir otro teléfono.');
      }
      const secreto = nuevoSecreto();
      await db
        .insert(segundosFactores)
        .values({ id_usuario: idUsuario, secreto })
        .onConflictDoUpdate({ target: segundosFactores.id_usuario, set: { secreto, ultimo_paso: null, fecha_creacion: now() } });
      return paraLaApp(secreto, usuario.email);
    },

    /** Confirms enrolment with a first code from the app; answers the ten recovery codes, shown this once. */
    async confirmar(
      actor: { id: number },
      idUsuario: number,
      codigo: string,
      direccion: string,
    ): Promise<{ codigos_recuperacion: string[] }> {
      soloLaPersona(actor, idUsuario);
      const fila = await factor(idUsuario);
      if (!fila || fila.confirmado) throw new ErrorDeDominio(404, 'Primero inicia la inscripción.');
      await limite.comprobar(idUsuario, direccion);
      if (!esCodigoTotp(codigo) || !(await aceptarTotp(db, idUsuario, codigo, now(), true))) {
        return codigoIncorrecto(idUsuario, direccion, 'al inscribirla');
      }
      const { codigos, hashes } = nuevosCodigosRecuperacion();
      await db.transaction(async (tx) => {
        await tx.delete(codigosRecuperacion).where(eq(codigosRecuperacion.id_usuario, idUsuario));
        await tx.insert(codigosRecuperacion).values(hashes.map((codigo_hash) => ({ id_usuario: idUsuario, codigo_hash })));
        await auditar(tx, idUsuario, 'activar_segundo_factor', 'Activó la verificación en dos pasos');
      });
      return { codigos_recuperacion: codigos };
    },

    /** Removes the person's factor with a TOTP or recovery code. */
    async quitar(actor: { id: number }, idUsuario: number, codigo: string, direccion: string): Promise<void> {
      soloLaPersona(actor, idUsuario);
      if (!(await factor(idUsuario))?.confirmado) throw new ErrorDeDominio(404, SIN_FACTOR);
      await limite.comprobar(idUsuario, direccion);
      if (!(await verificarCodigo(db, idUsuario, codigo, now()))) return codigoIncorrecto(idUsuario, direccion, 'al quitarla');
      await db.transaction(async (tx) => {
        await borrarTodo(tx, idUsuario);
        await auditar(tx, idUsuario, 'quitar_segundo_factor', 'Quitó la verificación en dos pasos');
      });
    },

    /** An admin's reset of another person's factor (a lost phone): the person enrols again. */
    async reiniciar(admin: ActorAdmin, idUsuario: number): Promise<void> {
      const fila = await factor(idUsuario);
      if (!fila) throw new ErrorDeDominio(404, 'Esta persona no tiene verificación en dos pasos.');
      await db.transaction(async (tx) => {
        await borrarTodo(tx, idUsuario);
        await auditar(tx, idUsuario, 'reiniciar_segundo_factor', 'Reinició la verificación en dos pasos', admin);
      });
    },
  };
}
