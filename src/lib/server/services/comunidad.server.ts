/**
 * The community directory and contact (docs/SPEC.md sections 2, 3, 7): search of active
 * teachers by name, school and area, and messages to a colleague by email through the platform.
 * The receiver's address never reaches the sender, and the directory cannot be used to send mail
 * in bulk (CONTACTOS_POR_HORA per sender).
 */
import { and, asc, count, eq, exists, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { ContactoInput } from '../../validation/cuentas.ts';
import { numPaginas } from '../../validation/listas.ts';
import { createRateLimiter, type Limit } from '../auth/rate-limit.server.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import { totalEnDosPartes } from '../db/conteos.server.ts';
import { limitesIntentos, mensajesContacto, perfilAreas, perfilColegios, perfilesDocentes, usuarios } from '../db/schema.server.ts';
import { terminos } from '../db/search.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { encolarCorreo } from '../mail/outbox.server.ts';
import * as plantillas from '../mail/templates.server.ts';
import type { Actor } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';
import { partesVisibles, visibleA } from './recursos.server.ts';
import { cargarPerfiles, fotoUrl, nombreCorto } from './usuarios.server.ts';

export const USUARIO_NO_ENCONTRADO = 'Usuario no encontrado';
/** A teacher who opposed being contacted (issue 31: `oculto_directorio`). */
export const NO_RECIBE_MENSAJES = 'Esta persona eligió no recibir mensajes a través de la plataforma.';

/** Enough for real conversations, too few to mail the whole network. */
const CONTACTOS_POR_HORA: Limit = { max: 10, windowSeconds: 60 * 60 };

export type UsuarioPublico = Esquema<'UsuarioPublico'>;
export type ProfesorResultado = Esquema<'ProfesorResultado'>;

export interface FiltrosProfesores {
  profesor?: string | undefined;
  colegio?: number | undefined;
  area?: number | undefined;
  pagina: number;
  tamano_pagina: number;
  /** A user left out of the results (the person searching). */
  usuario?: number | undefined;
}

/**
 * Each word must start a word of the full name, accents and case aside ('jose' finds 'José'):
 * `nombre_busqueda` is the names as searched, stored by the database (drizzle/0030), outside the
 * Drizzle schema.
 */
function coincideNombre(q: string | undefined): SQL | undefined {
  const palabras = terminos(q ?? '');
  if (palabras.length === 0) return undefined;
  return and(...palabras.map((p) => sql`${usuarios}.nombre_busqueda like ${`% ${p}%`}`));
}

/**
 * Takes one of `limit.max` slots of the key's current window in a single statement (the row is
 * locked by the upsert, so concurrent requests count one after another); false when none is left.
 */
async function tomarCupo(db: Db, clave: string, limit: Limit, at: Date): Promise<boolean> {
  const windowStart = new Date(at.getTime() - limit.windowSeconds * 1000).toISOString();
  const nueva = sql`${limitesIntentos.ventana_inicio} < ${windowStart}`;
  const rows = await db
    .insert(limitesIntentos)
    .values({ clave, ventana_inicio: at, intentos: 1 })
    .onConflictDoUpdate({
      target: limitesIntentos.clave,
      set: {
        intentos: sql`case when ${nueva} then 1 else ${limitesIntentos.intentos} + 1 end`,
        ventana_inicio: sql`case when ${nueva} then ${at.toISOString()}::timestamptz else ${limitesIntentos.ventana_inicio} end`,
      },
      setWhere: or(nueva, lt(limitesIntentos.intentos, limit.max)),
    })
    .returning({ intentos: limitesIntentos.intentos });
  return rows.length > 0;
}

function demasiadosMensajes(segundos: number): ErrorDeDominio {
  const minutos = Math.max(1, Math.ceil(segundos / 60));
  return new ErrorDeDominio(
    429,
    `Enviaste demasiados mensajes en la última hora. Espera ${minutos} ${minutos === 1 ? 'minuto' : 'minutos'} antes de enviar otro.`,
    {},
    { 'Retry-After': String(segundos) },
  );
}

/** The public fields of an account: a directory card's person and the contact form's addressee. */
const usuarioPublico = (u: typeof usuarios.$inferSelect): UsuarioPublico => ({
  id: u.id,
  primer_nombre: u.primer_nombre,
  segundo_nombre: u.segundo_nombre,
  apellido_paterno: u.apellido_paterno,
  apellido_materno: u.apellido_materno,
  foto_perfil: fotoUrl(u),
});

export function createComunidadService(ctx: ServiceContext) {
  const { db } = ctx;
  const limiter = createRateLimiter(db, ctx.now);
  /**
   * The directory's totals of what every reader sees, per search (issue 36: counting the 1,291
   * 'gonzalez' at 100x took 8 ms on every request): read again after a write to the accounts or
   * profiles in this process, within 2 s of another server's (decision 0046's bound).
   */
  const totales = cacheDeLecturas<number>(db, {
    tablas: [usuarios, perfilesDocentes, perfilColegios, perfilAreas],
    segundos: 2,
    max: 2_000,
    now: ctx.now,
  });

  /** Whether moderation hid this person: only then does their own hidden profile count in their directory totals. */
  const oculto = db
    .select({ oculto: usuarios.oculto })
    .from(usuarios)
    .where(eq(usuarios.id, sql.placeholder('id')))
    .prepare('usuario_oculto');

  /** An active account whose profile this person sees (a hidden profile is its owner's and admins' only). */
  async function usuarioActivo(id: number, actor: Actor) {
    const [row] = await db
      .select()
      .from(usuarios)
      .where(and(eq(usuarios.id, id), visibleA(actor, usuarios)));
    if (!row?.activo) throw new ErrorDeDominio(404, USUARIO_NO_ENCONTRADO);
    return row;
  }

  return {
    /** Active teachers (users with a teacher profile), by surname then first name; hidden profiles only for admins and themselves. */
    async buscar(f: FiltrosProfesores, actor: Actor): Promise<Esquema<'ProfesorLista'>> {
      const filtro = and(
        eq(usuarios.activo, true),
        // Opposition (issue 31): out of the directory and its search, for everyone.
        eq(usuarios.oculto_directorio, false),
        coincideNombre(f.profesor),
        f.colegio
          ? exists(
              db
                .select()
                .from(perfilColegios)
                .where(and(eq(perfilColegios.id_usuario, usuarios.id), eq(perfilColegios.id_colegio, f.colegio))),
            )
          : undefined,
        f.area
          ? exists(
              db
                .select()
                .from(perfilAreas)
                .where(and(eq(perfilAreas.id_usuario, usuarios.id), eq(perfilAreas.id_area, f.area))),
            )
          : undefined,
        f.usuario ? ne(usuarios.id, f.usuario) : undefined,
      );
      const docentes = eq(perfilesDocentes.id_usuario, usuarios.id);
      const partes = partesVisibles(actor, usuarios);
      const propio = partes && (await oculto.execute({ id: actor.id }))[0]?.oculto ? and(partes.propio, filtro) : undefined;
      const [num_results, filas] = await Promise.all([
        totalEnDosPartes(
          (where) => db.select({ n: count() }).from(usuarios).innerJoin(perfilesDocentes, docentes).where(where),
          { comun: and(partes?.comun, filtro), propio },
          (clave, contar) => totales.leer(clave, contar),
        ),
        db
          .select({ u: usuarios })
          .from(usuarios)
          .innerJoin(perfilesDocentes, docentes)
          .where(and(visibleA(actor, usuarios), filtro))
          .orderBy(
            sql`lower(public.f_unaccent(${usuarios.apellido_paterno}))`,
            sql`lower(public.f_unaccent(${usuarios.primer_nombre}))`,
            asc(usuarios.id),
          )
          .limit(f.tamano_pagina)
          .offset((f.pagina - 1) * f.tamano_pagina),
      ]);
      const perfiles = await cargarPerfiles(
        db,
        filas.map((r) => r.u.id),
      );
      return {
        profesor: filas.map(({ u }) => {
          // Field by field: a directory card (ProfesorResultado) has no levels.
          const perfil = perfiles.get(u.id);
          return {
            usuario: usuarioPublico(u),
            colegio: perfil?.colegio ?? [],
            titulo_profesional: perfil?.titulo_profesional ?? '',
            especialidad: perfil?.especialidad ?? [],
            area: perfil?.area ?? [],
          };
        }),
        num_pages: numPaginas(num_results, f.tamano_pagina),
        num_results,
      };
    },

    /**
     * Who the contact form writes to (the page's heading): an active user, public fields only, and
     * whether they accept messages (not when they opposed being contacted, issue 31).
     */
    async destinatario(id: number, actor: Actor): Promise<UsuarioPublico & { recibe_mensajes: boolean }> {
      const row = await usuarioActivo(id, actor);
      return { ...usuarioPublico(row), recibe_mensajes: !row.oculto_directorio };
    },

    /**
     * Mails a colleague through the platform: to the receiver's address, with the sender's as
     * Reply-To, and keeps the message. At most CONTACTOS_POR_HORA messages per sender.
     */
    async contactar(idSender: number, idReceiver: number, input: ContactoInput): Promise<void> {
      if (idSender === idReceiver) throw new ErrorDeDominio(400, 'No puedes enviarte un mensaje a ti mismo');
      const [sender] = await db.select().from(usuarios).where(eq(usuarios.id, idSender));
      if (!sender) throw new ErrorDeDominio(401, 'Debe iniciar sesión para continuar');
      const receiver = await usuarioActivo(idReceiver, sender);
      if (receiver.oculto_directorio) throw new ErrorDeDominio(403, NO_RECIBE_MENSAJES);
      const rendered = plantillas.contacto(
        { nombre: nombreCorto(sender), email: sender.email },
        receiver.primer_nombre,
        input.asunto,
        input.mensaje,
      );
      // The slot, the stored message and the queued mail are one transaction: a refused or
      // failed request spends no slot, and two requests at once cannot both take the last one.
      const clave = `contacto:usuario:${sender.id}`;
      const aceptado = await db.transaction(async (tx) => {
        if (!(await tomarCupo(tx, clave, CONTACTOS_POR_HORA, ctx.now()))) return false;
        await tx.insert(mensajesContacto).values({
          id_usuario_sender: sender.id,
          id_usuario_receiver: receiver.id,
          asunto: input.asunto,
          mensaje: input.mensaje,
        });
        await encolarCorreo(tx, { to: receiver.email, replyTo: sender.email, ...rendered });
        return true;
      });
      if (!aceptado) throw demasiadosMensajes(Math.max(1, await limiter.blockedFor(clave, CONTACTOS_POR_HORA)));
      ctx.log.info('contact message sent', { senderId: sender.id, receiverId: receiver.id });
    },
  };
}

export type ComunidadService = ReturnType<typeof createComunidadService>;
