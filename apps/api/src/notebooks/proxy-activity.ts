/** What the proxy sees of each notebook's use: open WebSockets and the last request or message. */
export class ProxyActivity {
  private readonly open = new Map<string, number>();
  private readonly last = new Map<string, number>();

  touch(notebookId: string): void {
    this.last.set(notebookId, Date.now());
  }

  opened(notebookId: string): void {
    this.open.set(notebookId, (this.open.get(notebookId) ?? 0) + 1);
    this.touch(notebookId);
  }

  closed(notebookId: string): void {
    const count = (this.open.get(notebookId) ?? 1) - 1;
    if (count > 0) this.open.set(notebookId, count);
    else this.open.delete(notebookId);
    this.touch(notebookId);
  }

  connections(notebookId: string): number {
    return this.open.get(notebookId) ?? 0;
  }

  /** Milliseconds since the epoch of the last request or message, if any. */
  lastSeen(notebookId: string): number | undefined {
    return this.last.get(notebookId);
  }

  forget(notebookId: string): void {
    this.open.delete(notebookId);
    this.last.delete(notebookId);
  }
}
