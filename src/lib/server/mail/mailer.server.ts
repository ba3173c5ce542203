/**
 * Outgoing mail through nodemailer: over SMTP_URL when set, otherwise one .eml file per message
 * in DATA_DIR/outbox (written atomically), so a fresh install works offline and tests can follow
 * the links. Each message is logged with its link, never with its body.
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
}

export interface Mailer {
  send(message: Message): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string | undefined; from: string; outboxDir: string; log: Logger }): Mailer {
  const { smtpUrl, from, outboxDir, log } = options;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send({ link, ...message }) {
        await transport.sendMail({ from, ...message });
        log.info('mail sent', { to: message.to, subject: message.subject, link });
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
