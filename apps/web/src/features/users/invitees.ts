/** One line of the invite dialog, read. */
export interface ParsedInvitee {
  email: string;
  name?: string;
}

/** The addresses of the invite dialog, and the entries that are not addresses. */
export interface ParsedInvitees {
  invitees: ParsedInvitee[];
  invalid: string[];
}

// Deliberately loose: the API validates addresses and names the bad one.
const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;
const NAMED = /^(.*?)\s*<([^<>]+)>$/;

/**
 * Reads the invite dialog's text: addresses separated by new lines, commas or semicolons, each
 * either `ada@example.org` or `Ada Lovelace <ada@example.org>`. Addresses are lower-cased; a
 * repeated address is kept (the API reports it as DUPLICATE_IN_REQUEST).
 */
export function parseInvitees(text: string): ParsedInvitees {
  const invitees: ParsedInvitee[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\n,;]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const named = NAMED.exec(entry);
    const email = (named ? named[2]! : entry).trim().toLowerCase();
    const name = named?.[1]?.trim().replace(/^"(.*)"$/, '$1').trim();
    if (!EMAIL.test(email)) invalid.push(entry);
    else invitees.push(name ? { email, name } : { email });
  }
  return { invitees, invalid };
}
