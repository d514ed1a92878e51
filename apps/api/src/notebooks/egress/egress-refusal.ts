import type { FastifyReply, FastifyRequest } from 'fastify';

/** Why a file does not come to the browser, and the one way out. */
export function egressRefusalDetail(webUrl: string): string {
  return (
    'The data stays in the workbench: files of a notebook cannot be downloaded or opened in the browser. ' +
    `To take a result out, ask for its release: in the platform (${webUrl}), open the workbench's Outputs tab and make a release request; ` +
    'it is checked for disclosure risks and reviewed before you can download it.'
  );
}

export const TERMINALS_OFF_DETAIL =
  "Terminals are turned off on this platform: a terminal shows any file's content on the screen. Work in a notebook instead, or ask an administrator.";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The refusal, as a page for a browser's navigation (Jupyter's Download opens a new tab) and as
 * the API's `{ detail }` for the notebook page's own calls.
 */
export function sendRefusal(request: FastifyRequest, reply: FastifyReply, status: number, title: string, detail: string): FastifyReply {
  reply.code(status).header('cache-control', 'no-store');
  const accept = request.headers.accept ?? '';
  // A page for a navigation (a link, or a form such as the open flow's), JSON for the page's own calls.
  if ((request.method === 'GET' || request.method === 'POST') && accept.includes('text/html')) {
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
          '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:4em auto;padding:0 1em;color:#1f1f1f}h1{font-size:1.4em}</style></head>' +
          `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></main></body></html>`,
      );
  }
  return reply.type('application/json; charset=utf-8').send({ detail });
}
