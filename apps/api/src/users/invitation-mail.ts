import type { Config } from '../config';
import type { MailMessage } from '../mail/mailer';

/** The link the invited person opens. The token sits in the fragment, so it never reaches server logs. */
export function invitationLink(config: Config, token: string): string {
  return `${config.webUrl}/accept-invitation#token=${token}`;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The invitation e-mail. */
export function invitationMessage(
  config: Config,
  invitee: { email: string; name: string | null },
  inviter: string,
  token: string,
  expiresAt: Date,
): MailMessage {
  const link = invitationLink(config, token);
  const until = expiresAt.toUTCString();
  const greeting = invitee.name ? `Hello ${invitee.name},` : 'Hello,';
  return {
    to: invitee.email,
    subject: 'You are invited to the Health Data Platform',
    text: `${greeting}\n\n${inviter} invited you to the Health Data Platform.\n\nAccept the invitation here:\n${link}\n\nThe link works once and expires on ${until}.\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(inviter)} invited you to the Health Data Platform.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p><p>The link works once and expires on ${escapeHtml(until)}.</p>`,
  };
}
