import { ACCOUNTS } from './stack';

type Account = (typeof ACCOUNTS)[keyof typeof ACCOUNTS];

/** Calls the API directly as one account, to set up what a test starts from. */
export async function apiAs(account: Account, base = process.env.E2E_API_URL!) {
  const tokenResponse = await fetch(`${base}/api/v1/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!tokenResponse.ok) throw new Error(`sign-in of ${account.email}: ${tokenResponse.status}`);
  const { id_token: token } = (await tokenResponse.json()) as { id_token: string };

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const isForm = body instanceof FormData;
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${json?.detail ?? text}`);
    return json as T;
  }
  /** The same call, answering the status and body instead of throwing on a refusal. */
  async function answer<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T };
  }
  return { call, answer };
}

/** Saves a query as the account and runs it until its execution succeeds; returns both ids. */
export async function savedAndRunQuery(account: Account, name: string, query: unknown): Promise<{ queryId: string; executionId: string }> {
  const { call } = await apiAs(account);
  const saved = await call<{ id: string }>('POST', '/queries/', { name, query });
  await call('POST', `/queries/${saved.id}/executions/`);
  for (let attempt = 0; attempt < 120; attempt++) {
    const latest = await call<{ id: string; status: string; error: string | null }>('GET', `/queries/${saved.id}/executions/latest/`);
    if (latest.status === 'SUCCEEDED') return { queryId: saved.id, executionId: latest.id };
    if (latest.status === 'FAILED') throw new Error(`run of ${name} failed: ${latest.error}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`run of ${name} did not finish`);
}
