import type { NotebookSession } from './notebook-sessions';

/** One open WebSocket through the proxy (a kernel or a terminal), with whose session opened it. */
export interface ProxiedConnection {
  session: NotebookSession;
  /** The session's id (the cookie's value), to see whether it still lives. */
  sessionId: string;
  /** Closes both ends (the browser's with 1008, policy violation). */
  close(reason: string): void;
}

/**
 * The proxy's open WebSockets, so that revoking someone's access (disabled, removed from the
 * workbench, signed out, over the egress limit) closes what they already hold open, and so that
 * the proxy can re-check each one while it stays open.
 */
export class ProxyConnections {
  private readonly open = new Set<ProxiedConnection>();

  add(connection: ProxiedConnection): void {
    this.open.add(connection);
  }

  delete(connection: ProxiedConnection): void {
    this.open.delete(connection);
  }

  all(): ProxiedConnection[] {
    return [...this.open];
  }

  /** Closes a user's connections (to one notebook, or to all); answers how many. */
  closeUser(userId: string, reason: string, notebookId?: string): number {
    let closed = 0;
    for (const connection of this.all()) {
      const { session } = connection;
      if (session.userId !== userId || (notebookId && session.notebookId !== notebookId)) continue;
      connection.close(reason);
      closed += 1;
    }
    return closed;
  }

  /** Closes every connection to a notebook (it stopped). */
  closeNotebook(notebookId: string, reason: string): void {
    for (const connection of this.all()) if (connection.session.notebookId === notebookId) connection.close(reason);
  }
}
