import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError, type FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { apiBaseUrl } from '@/config/public-config';
import { REQUEST_TIMEOUT_MS } from '@/config/constants';
import { idTokenChanged } from '@/lib/auth/auth-slice';
import { serializeParams, type QueryParamValue } from './query-params';

interface StateWithAuth {
  auth: { idToken: string | null };
}

/**
 * Where a store on the web server sends its calls: the API's internal address, with the signed
 * headers that tell the API the browser's address (see `lib/api/server-queries.ts`). A store in the
 * browser has none and uses the public base address.
 */
export interface ServerApiTarget {
  baseUrl: string;
  headers: Record<string, string>;
}

/** The store's extra argument (its thunks' and base query's `extra`). */
export interface StoreExtra {
  serverApi?: ServerApiTarget;
}

const serverApiOf = (extra: unknown) => (extra as StoreExtra | undefined)?.serverApi;

/** Asks the session to renew its id token; gives the id token it now holds (none when renewal failed). */
export type SessionReader = () => Promise<string | null>;

let readSession: SessionReader = async () => null;

/** Installs how the base query re-reads the session after a 401 (the app wires next-auth's getSession). */
export function setSessionReader(reader: SessionReader): void {
  readSession = reader;
}

/** The fetch base query: base address from configuration, Bearer id token, repeated array params. */
export function createRawBaseQuery(baseUrl: string = apiBaseUrl()) {
  return fetchBaseQuery({
    baseUrl,
    timeout: REQUEST_TIMEOUT_MS,
    paramsSerializer: (params) => serializeParams(params as Record<string, QueryParamValue>),
    prepareHeaders: (headers, { getState, extra }) => {
      const idToken = (getState() as StateWithAuth).auth.idToken;
      if (idToken) headers.set('authorization', `Bearer ${idToken}`);
      for (const [name, value] of Object.entries(serverApiOf(extra)?.headers ?? {})) headers.set(name, value);
      return headers;
    },
  });
}

/** On the web server, a call's path is made absolute against the API's internal address (an absolute URL is used as it is). */
function onServer(args: string | FetchArgs, extra: unknown): string | FetchArgs {
  const serverApi = serverApiOf(extra);
  if (!serverApi) return args;
  const url = typeof args === 'string' ? args : args.url;
  if (/^[a-z]+:\/\//i.test(url)) return args;
  const absolute = `${serverApi.baseUrl}${url}`;
  return typeof args === 'string' ? absolute : { ...args, url: absolute };
}

/**
 * The base query of the one API slice. On a 401 it asks the session to renew its tokens once: with a
 * new id token the call is repeated; when renewal fails (the account was disabled, the refresh
 * token revoked) the session carries an error and the user is signed out.
 */
export function createBaseQuery(raw = createRawBaseQuery()): BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta> {
  return async (given, api, extraOptions) => {
    const args = onServer(given, api.extra);
    const first = await raw(args, api, extraOptions);
    if (first.error?.status !== 401) return first;
    const before = (api.getState() as StateWithAuth).auth.idToken;
    const renewed = await readSession().catch(() => null);
    if (!renewed || renewed === before) return first;
    api.dispatch(idTokenChanged(renewed));
    return raw(args, api, extraOptions);
  };
}
