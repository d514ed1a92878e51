/**
 * One origin per notebook: notebook `<id>` is served at `<id>.<base host>` (for example
 * `3f…a1.notebooks.example.org`, or `3f…a1.notebooks.localhost:8000` on a workstation, which
 * browsers resolve to the loopback address). No notebook page shares an origin with the API, the
 * web app or another notebook, so a page of one notebook cannot read another's answers, and the
 * session cookie, set without a Domain attribute, is sent to its own notebook's host only.
 */
export interface NotebookOrigins {
  /** `https://<id>.notebooks.example.org` (with the base URL's port, if any). */
  originOf(notebookId: string): string;
  /** The notebook a request's Host names, or undefined when the host is not a notebook's. */
  notebookIdOfHost(host: string | undefined): string | undefined;
  /** Whether pages are served over HTTPS (the cookie is then Secure and `__Host-` named). */
  secure: boolean;
}

const NOTEBOOK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The default base URL: the API's scheme and port under the host `notebooks.localhost`. */
export function notebookBaseUrl(configured: string | undefined, apiPublicUrl: string): string {
  if (configured) return configured.replace(/\/$/, '');
  const api = new URL(apiPublicUrl);
  return `${api.protocol}//notebooks.localhost${api.port ? `:${api.port}` : ''}`;
}

export function notebookOrigins(baseUrl: string): NotebookOrigins {
  const base = new URL(baseUrl);
  const baseHost = base.hostname.toLowerCase();
  const port = base.port;
  return {
    secure: base.protocol === 'https:',
    originOf: (notebookId) => `${base.protocol}//${notebookId}.${baseHost}${port ? `:${port}` : ''}`,
    notebookIdOfHost: (host) => {
      if (!host) return undefined;
      // The name without the port (the port is the listener's business, and behind a reverse
      // proxy it is not the public one).
      const name = host.toLowerCase().replace(/:\d+$/, '');
      const suffix = `.${baseHost}`;
      if (!name.endsWith(suffix)) return undefined;
      const id = name.slice(0, -suffix.length);
      return NOTEBOOK_ID.test(id) ? id : undefined;
    },
  };
}
