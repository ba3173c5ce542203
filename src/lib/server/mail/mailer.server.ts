/**
 * Outgoing mail through nodemailer: over SMTP_URL when set, otherwise one .eml file per message
 * in DATA_DIR/outbox (written atomically), so a fresh install works offline and tests can follow
 * the links. Each message is logged with its link, never with its body. Services never call this
 * directly: they queue mail in the outbox (outbox.server.ts) and the job runner sends it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../log.server.ts';

export interface Message {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** The action link the message carries, for the log line. */
  link?: string;
  /** The Message-ID header, the same on every attempt, so receivers drop a duplicate. */
  messageId?: string;
  /** Extra headers (List-Unsubscribe of notification mail). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: Message): Promise<void>;
}

/** A mail server that does not answer fails the attempt in seconds; the outbox retries later. */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export function createMailer(options: { smtpUrl?: string | undefined; from: string; outboxDir: string; log: Logger }): Mailer {
  const { smtpUrl, from, outboxDir, log } = options;
  if (smtpUrl) {
    const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
    return {
      async send({ link, ...message }) {
        await transport.sendMail({ from, ...message });
        log.info('mail sent', { to: message.to, subject: message.subject, messageId: message.messageId, link });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send({ link, ...message }) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outboxDir, name);
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      log.info('mail written to outbox', { to: message.to, subject: message.subject, file, link });
    },
  };
}
