import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import { idTokenChanged } from '@/lib/auth/auth-slice';
import { DocumentUpload } from './document-upload';

vi.mock('next-auth/react', () => ({ useSession: () => ({ update: async () => null }) }));

/** Stands in for XMLHttpRequest: records what is sent and lets the test drive progress and the answer. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static opened = 0;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    FakeXhr.opened += 1;
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function renderUpload() {
  const store = makeStore();
  store.dispatch(idTokenChanged('token-1'));
  render(
    <Provider store={store}>
      <DocumentUpload />
    </Provider>,
  );
  return document.querySelector<HTMLInputElement>('input[type=file]')!;
}

const choose = (input: HTMLInputElement, file: File) => act(async () => fireEvent.change(input, { target: { files: [file] } }));

describe('DocumentUpload', () => {
  beforeEach(() => {
    FakeXhr.last = null;
    FakeXhr.opened = 0;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the file with the bearer token and shows the real upload progress', async () => {
    const input = renderUpload();
    await choose(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    const xhr = FakeXhr.last!;
    expect([xhr.method, xhr.url, xhr.headers.authorization]).toEqual(['POST', '/api/v1/documents/', 'Bearer token-1']);
    expect((xhr.body!.get('file') as File).name).toBe('notes.txt');

    act(() => xhr.upload.onprogress!({ lengthComputable: true, loaded: 40, total: 100 }));
    expect(screen.getByRole('progressbar', { name: 'Upload of notes.txt' })).toHaveAttribute('aria-valuenow', '40');

    await act(async () =>
      xhr.answer(201, {
        id: '5b0e6c1e-4a43-4d7c-9d7c-1b2e3f4a5b6c', name: 'notes.txt', content_type: 'text/plain', size_bytes: 5, sha256: 'x',
        scan_status: 'NOT_SCANNED', owner: { id: '6f1c2a52-8f0e-4a43-9d7c-1b2e3f4a5b6c', email: 'r@example.org' }, created_at: '2026-11-21T10:00:00Z',
      }),
    );
    expect(screen.getByRole('status')).toHaveTextContent('"notes.txt" was uploaded.');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('refuses a file over the cap without sending it, naming the cap', async () => {
    const input = renderUpload();
    const big = new File(['x'], 'big.bin');
    Object.defineProperty(big, 'size', { value: 20_000_001 });
    await choose(input, big);
    expect(FakeXhr.opened).toBe(0);
    expect(screen.getByRole('alert')).toHaveTextContent('"big.bin" is 20,000,001 bytes. A document can be at most 20,000,000 bytes (20 MB).');
  });

  it("shows the API's refusal as the error catalogue words it", async () => {
    const input = renderUpload();
    await choose(input, new File(['MZ'], 'tool.exe'));
    await act(async () => FakeXhr.last!.answer(415, { detail: 'Files of type application/x-msdownload are not accepted.' }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The document was not uploaded.');
    expect(alert).toHaveTextContent('Files of type application/x-msdownload are not accepted.');
  });
});
