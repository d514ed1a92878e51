import { randomBytes } from 'node:crypto';

/** Who may use a notebook's proxy: granted by an authenticated open, carried by a cookie. */
export interface NotebookSession {
  notebookId: string;
  userId: string;
  /** The notebook's workbench, for counting what reaches the browser per workbench. */
  workbenchId?: string;
  expiresAt: number;
}

interface Ticket extends NotebookSession {
  used: boolean;
}

/**
 * The open flow's two secrets. A browser cannot send a bearer token when it opens a new tab, so
 * an authenticated call gets a ticket: single use, valid for a minute, good for one notebook.
 * Redeeming it (only from the web app's page, see notebook-proxy.ts) starts a session whose id
 * lives only in an HttpOnly, SameSite=Strict, host-only cookie of that notebook's own origin.
 * Both live in this process's memory: the local runtime runs the notebooks in this process too,
 * and a restart (which stops them) ends their sessions with them.
 */
export class NotebookSessions {
  private readonly tickets = new Map<string, Ticket>();
  private readonly sessions = new Map<string, NotebookSession>();

  constructor(
    private readonly options: { ticketTtlMs?: number; sessionTtlMs?: number; now?: () => number } = {},
  ) {}

  /** A single-use ticket for the open URL. */
  issueTicket(grant: { notebookId: string; userId: string; workbenchId?: string }): string {
    this.sweep();
    const ticket = randomBytes(32).toString('base64url');
    this.tickets.set(ticket, { ...grant, expiresAt: this.now() + (this.options.ticketTtlMs ?? 60_000), used: false });
    return ticket;
  }

  /** Exchanges a ticket for a session id; a used, expired or foreign ticket gives nothing. */
  redeem(ticket: string, notebookId: string): { sessionId: string; session: NotebookSession } | undefined {
    const found = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    if (!found || found.used || found.notebookId !== notebookId || found.expiresAt < this.now()) return undefined;
    const sessionId = randomBytes(32).toString('base64url');
    const session = { notebookId, userId: found.userId, workbenchId: found.workbenchId, expiresAt: this.now() + this.sessionTtlMs() };
    this.sessions.set(sessionId, session);
    return { sessionId, session };
  }

  /** Spends a ticket without starting a session (it came from the wrong place); says whose it was. */
  discard(ticket: string, notebookId: string): { userId: string; workbenchId?: string } | undefined {
    const found = this.tickets.get(ticket);
    if (!found || found.notebookId !== notebookId) return undefined;
    this.tickets.delete(ticket);
    return { userId: found.userId, workbenchId: found.workbenchId };
  }

  /** The live session behind a cookie, if it is for this notebook. */
  verify(sessionId: string | undefined, notebookId: string): NotebookSession | undefined {
    if (!sessionId) return undefined;
    const session = this.sessions.get(sessionId);
    if (!session || session.notebookId !== notebookId) return undefined;
    if (session.expiresAt < this.now()) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    return session;
  }

  /** Ends every session of a notebook (it stopped or was deleted). */
  revokeNotebook(notebookId: string): void {
    for (const [id, session] of this.sessions) if (session.notebookId === notebookId) this.sessions.delete(id);
    for (const [id, ticket] of this.tickets) if (ticket.notebookId === notebookId) this.tickets.delete(id);
  }

  /** Ends a user's sessions and tickets on a notebook (they lost access to it). */
  revokeUser(notebookId: string, userId: string): void {
    for (const [id, session] of this.sessions) if (session.notebookId === notebookId && session.userId === userId) this.sessions.delete(id);
    for (const [id, ticket] of this.tickets) if (ticket.notebookId === notebookId && ticket.userId === userId) this.tickets.delete(id);
  }

  /** Ends every session and ticket of a user, on every notebook (disabled, signed out, held). */
  revokeUserEverywhere(userId: string): number {
    let ended = 0;
    for (const [id, session] of this.sessions) {
      if (session.userId !== userId) continue;
      this.sessions.delete(id);
      ended += 1;
    }
    for (const [id, ticket] of this.tickets) if (ticket.userId === userId) this.tickets.delete(id);
    return ended;
  }

  /** Seconds a session lasts, for the cookie's Max-Age. */
  sessionTtlSeconds(): number {
    return Math.floor(this.sessionTtlMs() / 1000);
  }

  private sessionTtlMs(): number {
    return this.options.sessionTtlMs ?? 12 * 60 * 60 * 1000;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, ticket] of this.tickets) if (ticket.expiresAt < now) this.tickets.delete(id);
    for (const [id, session] of this.sessions) if (session.expiresAt < now) this.sessions.delete(id);
  }
}
