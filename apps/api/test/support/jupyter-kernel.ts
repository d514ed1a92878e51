import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';

/** What one executed cell gave back. */
export interface CellResult {
  /** The execute_result's text/plain (IRkernel sends a display_data instead). */
  result?: string;
  stdout: string;
  error?: string;
  /** The MIME types of every result and display (an `image/png` plot). */
  mimeTypes?: string[];
}

interface JupyterMessage {
  channel?: string;
  header: { msg_type: string; msg_id: string };
  parent_header: { msg_id?: string };
  content: Record<string, unknown>;
}

/**
 * A kernel client speaking Jupyter's messaging protocol over the kernel's WebSocket, as the
 * notebook page does: execute_request on the shell channel, results and status on iopub.
 */
export class KernelConnection {
  private readonly session = randomUUID();
  private readonly waiting = new Map<string, { collected: CellResult; resolve: (r: CellResult) => void; reject: (e: Error) => void }>();

  /** How the connection closed, once it has (1008: the platform ended the user's access). */
  closedWith?: { code: number; reason: string };

  private constructor(private readonly socket: WebSocket) {
    socket.on('close', (code, reason) => (this.closedWith = { code, reason: reason.toString() }));
    socket.on('message', (data) => this.receive(JSON.parse(data.toString()) as JupyterMessage));
    socket.on('close', (code) => {
      for (const pending of this.waiting.values()) pending.reject(new Error(`the kernel connection closed (${code})`));
      this.waiting.clear();
    });
  }

  /** Opens `<base>api/kernels/<kernelId>/channels` with the given headers (the session cookie). */
  static open(url: string, headers: Record<string, string> = {}): Promise<KernelConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${url}?session_id=${randomUUID()}`, { headers });
      socket.once('open', () => resolve(new KernelConnection(socket)));
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`WebSocket refused: ${response.statusCode}`)));
    });
  }

  /** Runs one cell and waits until the kernel is idle again. */
  execute(code: string, timeoutMs = 20_000): Promise<CellResult> {
    const msgId = randomUUID();
    const message = {
      header: { msg_id: msgId, username: 'test', session: this.session, msg_type: 'execute_request', version: '5.3', date: new Date().toISOString() },
      parent_header: {},
      metadata: {},
      content: { code, silent: false, store_history: false, user_expressions: {}, allow_stdin: false, stop_on_error: true },
      channel: 'shell',
      buffers: [],
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(msgId);
        reject(new Error(`the cell did not finish in ${timeoutMs} ms: ${code}`));
      }, timeoutMs);
      this.waiting.set(msgId, {
        collected: { stdout: '' },
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.socket.send(JSON.stringify(message));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  private receive(message: JupyterMessage): void {
    const pending = message.parent_header.msg_id ? this.waiting.get(message.parent_header.msg_id) : undefined;
    if (!pending || message.channel !== 'iopub') return;
    const { content } = message;
    switch (message.header.msg_type) {
      case 'execute_result':
      case 'display_data':
        pending.collected.result = (content.data as Record<string, string>)['text/plain'];
        pending.collected.mimeTypes = [...(pending.collected.mimeTypes ?? []), ...Object.keys(content.data as object)];
        break;
      case 'stream':
        pending.collected.stdout += String(content.text);
        break;
      case 'error':
        pending.collected.error = `${String(content.ename)}: ${String(content.evalue)}`;
        break;
      case 'status':
        if (content.execution_state === 'idle') {
          this.waiting.delete(message.parent_header.msg_id!);
          pending.resolve(pending.collected);
        }
        break;
    }
  }
}
