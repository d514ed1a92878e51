/**
 * Which of Jupyter Notebook 6's routes the proxy lets a browser reach. Safe outputs: a file's
 * bytes may leave a workbench only through a release request, so every route by which Jupyter
 * hands a file to the browser for keeping is refused, and a route the proxy does not know is not
 * offered at all (an allow-list: a later Jupyter's new route is closed until it is looked at).
 * docs/outputs.md lists them ("What the proxy blocks").
 */

export type RouteVerdict =
  /** Forwarded. `counted`: its answer is counted as data reaching the browser (not the page's own assets). */
  | { kind: 'pass'; counted: boolean }
  /** A file's bytes to the browser: refused, audited EGRESS_REFUSED. `route` names it for the audit. */
  | { kind: 'egress'; route: string }
  /** A terminal while terminals are off. */
  | { kind: 'terminal' }
  /** A route of Jupyter the platform does not offer (or a malformed path). */
  | { kind: 'not-offered' };

/** Routes that send a file's content to the browser, as Jupyter 6 names them. */
const EGRESS_ROUTES: Readonly<Record<string, string>> = {
  files: 'files', // the raw file, inline or (?download=1) as an attachment; also where /tree/<file> and /notebooks/<non-notebook> redirect
  view: 'view', // an HTML page framing /files/
  nbconvert: 'nbconvert', // a notebook exported (HTML, PDF, script, notebook …), GET by path or POST of a notebook
  edit: 'edit', // the text editor, which loads any file's text into the page
  bundle: 'bundle', // bundlers: a notebook and its files as a download
};

/** The notebook page's own code and images: the same for every notebook, not counted. */
const ASSETS = new Set(['static', 'custom', 'nbextensions', 'kernelspecs']);
/** Pages and APIs that carry no file content of the home (or only a notebook's, see contents below). */
const PAGES = new Set(['tree', 'notebooks', 'login', 'logout', 'favicon.ico', 'robots.txt']);
const APIS = new Set(['status', 'spec.yaml', 'kernels', 'sessions', 'kernelspecs', 'config', 'security']);

/**
 * The verdict for one request. `rest` is the request's raw URL after the notebook's base path
 * (`/jupyter/<id>/`), query included; routes are matched on the raw path, as Tornado matches them.
 */
export function classifyJupyterRequest(method: string, rest: string, options: { terminals: boolean }): RouteVerdict {
  const queryAt = rest.indexOf('?');
  const rawPath = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const segments = rawPath.split('/');
  // Dot segments, raw or encoded, never reach Jupyter: a path names what it says.
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { kind: 'not-offered' };
    }
    // An encoded slash makes one raw segment several once Jupyter decodes it: each must be plain.
    if (decoded.split('/').some((part) => part === '.' || part === '..') || decoded.includes('\\') || decoded.includes('\0')) {
      return { kind: 'not-offered' };
    }
  }
  const [first = '', second = ''] = segments;
  if (first === '') return segments.length === 1 ? { kind: 'pass', counted: true } : { kind: 'not-offered' };
  if (EGRESS_ROUTES[first]) return { kind: 'egress', route: EGRESS_ROUTES[first]! };
  if (first === 'terminals') return options.terminals ? { kind: 'pass', counted: true } : { kind: 'terminal' };
  if (ASSETS.has(first)) return { kind: 'pass', counted: false };
  if (PAGES.has(first)) return { kind: 'pass', counted: true };
  if (first !== 'api') return { kind: 'not-offered' };
  if (segments.length === 1) return { kind: 'pass', counted: true }; // `api`: Jupyter's version
  if (second === 'terminals') return options.terminals ? { kind: 'pass', counted: true } : { kind: 'terminal' };
  // `api/nbconvert` lists the exporters; anything below it does not exist.
  if (second === 'nbconvert') return segments.length === 2 ? { kind: 'pass', counted: true } : { kind: 'not-offered' };
  if (second === 'contents') return contentsVerdict(method, segments.slice(2), rest.slice(rawPath.length + 1));
  if (APIS.has(second)) return { kind: 'pass', counted: true };
  // `api/shutdown` (the platform stops notebooks), `api/notebooks` (an old alias), anything else.
  return { kind: 'not-offered' };
}

/**
 * `api/contents/<path>`: writes (an upload, a save, a rename, a copy, a delete) pass; their answers
 * carry no content. A read passes only when it cannot carry a file's bytes: metadata only
 * (`content=0`), a directory listing (`type=directory`: names and dates, no bodies), or a notebook
 * document as the notebook page loads it (`<name>.ipynb`, `type` notebook or none, `format` json or
 * none). A read as `type=file`, or in `format=text`/`base64`, is the file's bytes.
 */
function contentsVerdict(method: string, pathSegments: string[], query: string): RouteVerdict {
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'pass', counted: true };
  const last = pathSegments[pathSegments.length - 1];
  const beforeLast = pathSegments[pathSegments.length - 2];
  // `<path>/checkpoints` (a list of checkpoint ids and dates) and `<path>/trust`, as Jupyter routes them first.
  if (last === 'checkpoints' || last === 'trust' || beforeLast === 'checkpoints') return { kind: 'pass', counted: true };
  const params = new URLSearchParams(query);
  // Tornado reads the last of repeated arguments.
  const arg = (name: string) => params.getAll(name).at(-1);
  const content = arg('content');
  const type = arg('type');
  const format = arg('format');
  if (content === '0') return { kind: 'pass', counted: true };
  if (type === 'directory' && format === undefined) return { kind: 'pass', counted: true };
  let name: string;
  try {
    name = decodeURIComponent(pathSegments.join('/'));
  } catch {
    return { kind: 'not-offered' };
  }
  const notebook = name.endsWith('.ipynb') && (type === undefined || type === 'notebook') && (format === undefined || format === 'json');
  return notebook ? { kind: 'pass', counted: true } : { kind: 'egress', route: 'api/contents' };
}
