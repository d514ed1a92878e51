import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail. Delivery problems are thrown, so callers can report them per recipient. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP delivery through nodemailer when SMTP_URL is set. Without it, each message is written
 * as an .eml file to DATA_DIR/outbox (and the caller logs the link), so a self-hosted platform
 * works without a mail server.
 */
export function createMailer(config: Config, log: Pick<FastifyBaseLogger, 'info'>): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
      },
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      await fs.mkdir(outbox, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      // Write then rename: a reader of the outbox never sees half a message.
      const partial = path.join(outbox, `.${name}.partial`);
      await fs.writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await fs.rename(partial, path.join(outbox, name));
      log.info({ to: message.to, file: name }, `mail written to the outbox: ${message.subject}`);
    },
  };
}
