import fs from 'node:fs';
import path from 'node:path';

/** Undoes quoted-printable: soft line breaks and =XX escapes. */
export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The invitation link in a raw message. */
export function invitationLinkIn(eml: string): string | undefined {
  return /https?:\/\/[^\s"<>]+\/accept-invitation#token=[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(eml))?.[0];
}

/**
 * The newest invitation link e-mailed to `email`, read from the API's outbox (DATA_DIR/outbox/*.eml,
 * where mail goes when SMTP_URL is unset). Waits for it, since the API writes it after answering.
 */
export async function invitationLinkFor(email: string, { after = 0, timeoutMs = 10_000, dataDir = process.env.E2E_DATA_DIR! } = {}): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = fs.existsSync(outbox)
      ? fs
          .readdirSync(outbox)
          .filter((name) => name.endsWith('.eml'))
          .map((name) => ({ file: path.join(outbox, name), mtime: fs.statSync(path.join(outbox, name)).mtimeMs }))
          .filter(({ mtime }) => mtime >= after)
          .sort((a, b) => b.mtime - a.mtime)
      : [];
    for (const { file } of messages) {
      const eml = fs.readFileSync(file, 'utf8');
      if (new RegExp(`^To: ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'mi').test(eml)) {
        const link = invitationLinkIn(eml);
        if (link) return link;
      }
    }
    if (Date.now() > deadline) throw new Error(`No invitation for ${email} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
