/**
 * The durable mail outbox (docs/decisions/0024): a service queues a mail in the same
 * transaction as the change that causes it, and the job runner sends it with retries (1 min,
 * 2, 4 ... capped at 1 h, 30 attempts, about a day) before marking it 'fallido' with the reason.
 *
 * An attempt claims the mail by pushing `proximo_intento` forward by a lease (FOR UPDATE SKIP
 * LOCKED, so two runners never send the same mail at once); success marks it 'enviado'. The one
 * window left is a crash (or a lost database) after the mail server accepted the message and
 * before the mark: the mail is sent again once the lease passes, with the same Message-ID, which
 * receivers use to drop the duplicate.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, like, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { correos } from '../db/schema.server.ts';
import type { Logger } from '../log.server.ts';
import type { Mailer, Message } from './mailer.server.ts';
import { cabecerasBaja } from './notificaciones.server.ts';

export const MAX_INTENTOS_CORREO = 30;
/** An attempt holds its mail this long; a sender that died leaves it due again after that. */
export const LEASE_CORREO_SEGUNDOS = 5 * 60;

/** Seconds before attempt `intento + 1` after attempt `intento` (1-based) failed: 1 min doubling up to 1 h. */
export function esperaReintento(intento: number): number {
  return Math.min(60 * 2 ** Math.max(0, intento - 1), 3600);
}

/** SMTP answers that no retry will change (no such mailbox, address not allowed). */
const PERMANENTE = new Set([550, 551, 553]);

export const REEMPLAZADO = 'Reemplazado por un correo más reciente';

/**
 * Queues a mail; pass the transaction of the change that causes it. `reemplaza` (a link prefix)
 * retires the same address's unsent mails with such a link: an older link no longer works.
 */
export async function encolarCorreo(db: Db, message: Message, options: { reemplaza?: string } = {}): Promise<number> {
  if (options.reemplaza) {
    await db
      .update(correos)
      .set({ estado: 'fallido', ultimo_error: REEMPLAZADO })
      .where(and(eq(correos.para, message.to), eq(correos.estado, 'pendiente'), like(correos.enlace, `${options.reemplaza}%`)));
  }
  const [row] = await db
    .insert(correos)
    .values({
      message_id: randomUUID(),
      para: message.to,
      asunto: message.subject,
      texto: message.text,
      html: message.html,
      responder_a: message.replyTo ?? null,
      enlace: message.link ?? null,
    })
    .returning({ id: correos.id });
  if (!row) throw new Error('mail insert returned nothing');
  return row.id;
}

export interface OutboxOptions {
  db: Db;
  mailer: Mailer;
  log: Logger;
  /** The domain of the Message-ID header (the sender's). */
  domain?: string;
  retryDelay?: (intento: number) => number;
  maxIntentos?: number;
  leaseSeconds?: number;
}

export interface Outbox {
  /** Sends the mails that are due, one after another, until none is left or `signal` aborts. */
  sendDue(signal?: AbortSignal): Promise<number>;
}

export function createOutbox({
  db,
  mailer,
  log,
  domain = 'entredocentes.cl',
  retryDelay = esperaReintento,
  maxIntentos = MAX_INTENTOS_CORREO,
  leaseSeconds = LEASE_CORREO_SEGUNDOS,
}: OutboxOptions): Outbox {
  /** One due row, locked: a scalar subquery runs once (an IN list would be re-scanned and claim several). */
  async function claim() {
    const due = db
      .select({ id: correos.id })
      .from(correos)
      .where(and(eq(correos.estado, 'pendiente'), lte(correos.proximo_intento, sql`now()`)))
      .orderBy(asc(correos.proximo_intento), asc(correos.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await db
      .update(correos)
      .set({
        intentos: sql`${correos.intentos} + 1`,
        proximo_intento: sql`now() + make_interval(secs => ${leaseSeconds})`,
      })
      .where(and(sql`${correos.id} = (${due})`, eq(correos.estado, 'pendiente')))
      .returning();
    return row;
  }

  async function sendOne(): Promise<boolean> {
    const row = await claim();
    if (!row) return false;
    const mailLog = log.child({ mailId: row.id, attempt: row.intentos });
    const mine = and(eq(correos.id, row.id), eq(correos.intentos, row.intentos), eq(correos.estado, 'pendiente'));
    // A notification mail's action link is its unsubscribe link: List-Unsubscribe (RFC 8058).
    const headers = cabecerasBaja(row.enlace);
    try {
      await mailer.send({
        to: row.para,
        subject: row.asunto,
        text: row.texto,
        html: row.html,
        messageId: `<${row.message_id}@${domain}>`,
        ...(row.responder_a ? { replyTo: row.responder_a } : {}),
        ...(row.enlace ? { link: row.enlace } : {}),
        ...(headers ? { headers } : {}),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = (error as { responseCode?: number }).responseCode;
      const final = row.intentos >= maxIntentos || (code !== undefined && PERMANENTE.has(code));
      const delay = retryDelay(row.intentos);
      await db
        .update(correos)
        .set(
          final
            ? { estado: 'fallido', ultimo_error: message.slice(0, 2000) }
            : { ultimo_error: message.slice(0, 2000), proximo_intento: sql`now() + make_interval(secs => ${delay})` },
        )
        .where(mine);
      if (final) mailLog.error('mail failed for good', { error, to: row.para });
      else mailLog.warn('mail not sent; will retry', { error, retryInSeconds: delay });
      return true;
    }
    await db.update(correos).set({ estado: 'enviado', fecha_envio: sql`now()`, ultimo_error: null }).where(mine);
    return true;
  }

  return {
    async sendDue(signal) {
      let count = 0;
      while (!signal?.aborted && (await sendOne())) count++;
      return count;
    },
  };
}
