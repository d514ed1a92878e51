import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import Provider, { type Configuration, type JWK } from 'oidc-provider';

/**
 * A real, OpenID-certified provider (`oidc-provider`) on a local port, as an organisation's
 * Keycloak, Entra ID or Okta would be: discovery, authorisation-code flow with PKCE required,
 * its own login and consent pages, refresh tokens, revocation and a published key set. The login
 * page checks a password and says how the person authenticated (`acr`, `amr`), which the test can
 * weaken; the keys can be rotated while sessions are open.
 */

/** The `acr` values this provider writes: a password alone, or a password and a second factor. */
export const PROVIDER_ACR = { password: 'urn:example:loa:1', multiFactor: 'urn:example:loa:2' } as const;

export interface ProviderAccount {
  email: string;
  name: string;
  password: string;
}

export interface LocalProvider {
  issuer: string;
  /** Registers the platform's client (its exact callback) and the provider's other application. */
  registerPlatform(webUrl: string, client: { clientId: string; clientSecret: string }): void;
  addAccount(account: ProviderAccount): void;
  /** How the next logins authenticate: with a second factor (the default) or a password alone. */
  setAssurance(level: 'multiFactor' | 'password'): void;
  /** New signing key first; the old one withdrawn from the key set unless `keepOld`. */
  rotateKeys(options?: { keepOld?: boolean }): string;
  /** The key id new tokens are signed with. */
  currentKid(): string;
  /** How many refresh-token grants the provider answered. */
  refreshGrants(): number;
  /** Grants revoked (through the revocation endpoint, for example). */
  revokedGrants(): number;
  /** Another application at the same provider, whose tokens are not for the platform. */
  otherApp: { clientId: string; clientSecret: string; redirectUri: string };
  close(): Promise<void>;
}

function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: `key-${randomUUID().slice(0, 8)}`, alg: 'RS256', use: 'sig' };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · Example Organisation</title></head><body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
}

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

type Stored = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };

/**
 * The provider's storage (sessions, grants, codes, tokens), kept apart from any one provider
 * instance so that a key rotation (a new instance) keeps them, as a database would.
 */
function sharedStore() {
  const rows = new Map<string, Stored>();
  return (model: string) => ({
    async upsert(id: string, payload: Stored) {
      rows.set(`${model}:${id}`, payload);
    },
    async find(id: string) {
      return rows.get(`${model}:${id}`);
    },
    async findByUid(uid: string) {
      return [...rows.entries()].find(([key, row]) => key.startsWith(`${model}:`) && row.uid === uid)?.[1];
    },
    async findByUserCode(userCode: string) {
      return [...rows.entries()].find(([key, row]) => key.startsWith(`${model}:`) && row.userCode === userCode)?.[1];
    },
    async consume(id: string) {
      const row = rows.get(`${model}:${id}`);
      if (row) row.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id: string) {
      rows.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId: string) {
      for (const [key, row] of rows) if (row.grantId === grantId) rows.delete(key);
    },
  });
}

/** Starts the provider on a free local port; `registerPlatform` must be called before a sign-in. */
export async function startLocalProvider(options: { idTokenTtlSeconds: number }): Promise<LocalProvider> {
  const accounts = new Map<string, ProviderAccount & { sub: string }>();
  const byEmail = (email: string) => [...accounts.values()].find((a) => a.email.toLowerCase() === email.trim().toLowerCase());
  let assurance: 'multiFactor' | 'password' = 'multiFactor';
  let keys = [newSigningKey()];
  let clients: NonNullable<Configuration['clients']> = [];
  let refreshCount = 0;
  let revokedCount = 0;
  const cookieKeys = [randomBytes(32).toString('base64url')];
  let provider: Provider | undefined;
  const adapter = sharedStore();

  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const otherApp = { clientId: 'other-application', clientSecret: randomBytes(24).toString('base64url'), redirectUri: `${issuer}/other-application/callback` };

  /** A provider instance over the same (in-process) store: a new key set keeps grants and sessions. */
  function build(): Provider {
    const configuration: Configuration = {
      adapter,
      clients,
      jwks: { keys },
      cookies: { keys: cookieKeys },
      findAccount: (_ctx, sub) => {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return { accountId: sub, claims: () => ({ sub, email: account.email, email_verified: true, name: account.name }) };
      },
      // How and when the person signed in (acr, amr, auth_time) in every id token, as Keycloak,
      // Entra ID and Okta write them; oidc-provider otherwise adds acr only when a client asks.
      claims: { acr: null, amr: null, auth_time: null, sid: null, openid: ['sub', 'acr', 'amr', 'auth_time'], email: ['email', 'email_verified'], profile: ['name'] },
      // Profile claims in the id token itself, which is what the platform's API reads.
      conformIdTokenClaims: false,
      acrValues: Object.values(PROVIDER_ACR),
      features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
      // OpenID Connect Core honours offline_access only with prompt=consent, which oidc-provider
      // enforces; Keycloak, Entra ID and Okta issue a refresh token to a client allowed the grant
      // without it, and so does this provider.
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      ttl: { IdToken: options.idTokenTtlSeconds, AccessToken: options.idTokenTtlSeconds, RefreshToken: 3600, Session: 3600, Grant: 3600, Interaction: 600, AuthorizationCode: 60 },
    };
    const built = new Provider(issuer, configuration);
    built.on('grant.success', (ctx) => {
      if (ctx.oidc.params?.grant_type === 'refresh_token') refreshCount += 1;
    });
    // The provider's own refusals, in the test's output: why a token or refresh request failed.
    for (const event of ['grant.error', 'server_error', 'revocation.error', 'authorization.error']) {
      built.on(event, (_ctx, error) => process.stderr.write(`[oidc-provider] ${event}: ${String(error)} ${(error as { error_detail?: string }).error_detail ?? ""}\n`));
    }
    built.on('grant.revoked', () => {
      revokedCount += 1;
    });
    return built;
  }

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse, current: Provider, uid: string, action: string | undefined) {
    const details = await current.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    const client = await current.Client.find(String(details.params.client_id));
    const send = (html: string, status = 200) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);

    if (details.prompt.name === 'login') {
      if (req.method === 'POST' && action === 'login') {
        const form = await formBody(req);
        const account = byEmail(form.get('email') ?? '');
        if (!account || account.password !== form.get('password')) {
          return send(loginPage(uid, String(client?.clientName ?? client?.clientId), 'Wrong email or password.'), 401);
        }
        const multiFactor = assurance === 'multiFactor';
        return current.interactionFinished(
          req,
          res,
          { login: { accountId: account.sub, acr: multiFactor ? PROVIDER_ACR.multiFactor : PROVIDER_ACR.password, amr: multiFactor ? ['pwd', 'otp', 'mfa'] : ['pwd'] } },
          { mergeWithLastSubmission: false },
        );
      }
      return send(loginPage(uid, String(client?.clientName ?? client?.clientId)));
    }
    if (details.prompt.name === 'consent') {
      if (req.method === 'POST' && action === 'confirm') {
        const grant = details.grantId
          ? await current.Grant.find(details.grantId)
          : new current.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
        // Allow grants what the page asked for: every requested scope (offline_access, the
        // refresh token, included) and claim.
        const missing = details.prompt.details as { missingOIDCClaims?: string[] };
        grant!.addOIDCScope(String(details.params.scope));
        if (missing.missingOIDCClaims) grant!.addOIDCClaims(missing.missingOIDCClaims);
        return current.interactionFinished(req, res, { consent: { grantId: await grant!.save() } }, { mergeWithLastSubmission: true });
      }
      return send(
        page(
          'Allow access',
          `<p>${escape(String(client?.clientName ?? client?.clientId))} asks for your email address and name, and to keep you signed in.</p>` +
            `<form method="post" action="/interaction/${uid}/confirm"><button type="submit">Allow</button></form>`,
        ),
      );
    }
    send(page('Not supported', '<p>This step is not supported.</p>'), 501);
  }

  function loginPage(uid: string, clientName: string, error?: string): string {
    return page(
      'Sign in to Example Organisation',
      `<p>to continue to ${escape(clientName)}</p>${error ? `<p role="alert">${escape(error)}</p>` : ''}` +
        `<form method="post" action="/interaction/${uid}/login">` +
        '<label for="email">Organisation email</label> <input id="email" name="email" type="email" autocomplete="username" required> ' +
        '<label for="password">Organisation password</label> <input id="password" name="password" type="password" autocomplete="current-password" required> ' +
        '<button type="submit">Sign in</button></form>',
    );
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const current = provider;
    if (!current) return res.writeHead(503).end('not configured yet');
    const url = new URL(req.url ?? '/', issuer);
    try {
      const step = /^\/interaction\/([\w-]+)(?:\/(login|confirm))?$/.exec(url.pathname);
      if (step) return await interaction(req, res, current, step[1]!, step[2]);
      if (url.pathname === new URL(otherApp.redirectUri).pathname) return res.writeHead(200, { 'content-type': 'text/plain' }).end('other application');
      return current.callback()(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
    }
  }

  return {
    issuer,
    otherApp,
    registerPlatform(webUrl, client) {
      clients = [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          client_name: 'Health Data Platform',
          redirect_uris: [`${webUrl}/api/auth/callback/oidc`],
          post_logout_redirect_uris: [`${webUrl}/`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
        {
          client_id: otherApp.clientId,
          client_secret: otherApp.clientSecret,
          client_name: 'Another application',
          redirect_uris: [otherApp.redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ];
      provider = build();
    },
    addAccount(account) {
      accounts.set(`sub-${randomUUID()}`, { ...account, sub: '' });
      for (const [sub, stored] of accounts) stored.sub = sub;
    },
    setAssurance(level) {
      assurance = level;
    },
    rotateKeys({ keepOld = false } = {}) {
      const next = newSigningKey();
      keys = keepOld ? [next, ...keys] : [next];
      provider = build();
      return next.kid!;
    },
    currentKid: () => keys[0]!.kid!,
    refreshGrants: () => refreshCount,
    revokedGrants: () => revokedCount,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
