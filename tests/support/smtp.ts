/** A local SMTP server (smtp-server, from nodemailer's authors) on a fixed port, stopped and started by the tests. */
import { SMTPServer } from 'smtp-server';

export interface Recibido {
  to: string[];
  raw: string;
}

/** Every message it received, with its envelope's recipients. */
export function smtp(port: number) {
  const recibidos: Recibido[] = [];
  let server: SMTPServer | undefined;
  return {
    recibidos,
    async start() {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            recibidos.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    },
    async stop() {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
  };
}
