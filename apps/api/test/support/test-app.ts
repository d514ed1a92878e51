import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Role } from '@hdp/contract';
import { buildApp } from '../../src/app';
import type { AppServices } from '../../src/app-services';
import { loadConfig, type Config } from '../../src/config';
import { openServices } from '../../src/services';
import { createUser, ensureFirstAdmin } from '../../src/users/admin-creator';
import type { UserRow } from '../../src/users/user-repository';
import { createPostgresDatabase, testDbKind } from './test-database';
import { responseConformance, type ResponseConformance } from './response-conformance';

export const ADMIN_EMAIL = 'admin@example.org';
export const TEST_PASSWORD = 'a-long-test-password';
export const PUBLIC_URL = 'http://api.test';

export interface TestApp {
  app: FastifyInstance;
  services: AppServices;
  config: Config;
  admin: UserRow;
  /**
   * Sends a request, with `token` as the bearer when given. The answer must conform to the OpenAPI
   * document (see response-conformance.ts); when it does not, this throws.
   */
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Signs in through the API and returns the token response. */
  signIn(email: string, password?: string): Promise<{ id_token: string; refresh_token: string }>;
  /** Creates an ACTIVE local user with these roles and signs them in. */
  userWithRoles(roles: Role[], email?: string): Promise<{ user: UserRow; token: string }>;
  close(): Promise<void>;
}

let counter = 0;
let conformance: ResponseConformance | undefined;

let template: Promise<Blob> | undefined;
/** The migrated database every in-memory app starts from (made once per run by the global setup). */
function pgliteTemplate(): Promise<Blob> {
  template ??= fs.promises.readFile(inject('pgliteTemplatePath')).then((bytes) => new Blob([bytes]));
  return template;
}

/**
 * An API on a fresh database of this project's kind (in-memory PGlite, or a new PostgreSQL
 * database), with the first admin created. Requests go through Fastify's inject: real routing,
 * hooks, validation and serialisation, without a socket.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { sameDatabaseAs?: TestApp } = {}): Promise<TestApp> {
  // A second API on the database of another (a second API process, as several share one PostgreSQL server).
  const shared = options.sameDatabaseAs;
  if (shared && !shared.config.databaseUrl) throw new Error('only a PostgreSQL database can be shared by two APIs');
  const postgres = !shared && testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PUBLIC_URL,
    DATA_DIR: '/nonexistent-test-data-dir',
    ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_PASSWORD,
    // Cheap password hashes: the suite creates hundreds of accounts (production keeps the default, 15).
    PASSWORD_HASH_COST: '10',
    // Password-only sign-in, as the suite was written for; the MFA tests turn it on (MFA_REQUIRED: 'true').
    MFA_REQUIRED: 'false',
    ...(postgres && { DATABASE_URL: postgres.url }),
    ...(shared && { DATABASE_URL: shared.config.databaseUrl! }),
    ...env,
  });
  const opened = await openServices(config, { inMemory: true, ...(!config.databaseUrl && { pgliteTemplate: await pgliteTemplate() }) });
  const admin = shared ? shared.admin : (await ensureFirstAdmin(opened.services.db, config.admin))!.user;
  const app = await buildApp(opened.services);

  // Every answer is checked against the OpenAPI document the app serves (the schema it declares
  // for the operation and status), so each route a test calls is checked, the new ones included.
  // The document is made from the contract alone (only its server URL follows the configuration),
  // so it is generated and its validators compiled once per test process, not once per app.
  const request: TestApp['request'] = async ({ token, headers, ...options }) => {
    const response = await app.inject({ ...options, headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }) } });
    conformance ??= responseConformance(app.swagger());
    const { method = 'GET', url = '/' } = response.raw.req;
    conformance.check({ method, url, statusCode: response.statusCode, contentType: response.headers['content-type'] as string | undefined, body: response.body });
    return response;
  };

  const signInFrom = async (email: string, password: string, remoteAddress?: string) => {
    const response = await request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email, password }, ...(remoteAddress && { remoteAddress }) });
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const signIn: TestApp['signIn'] = (email, password = TEST_PASSWORD) => signInFrom(email, password);

  return {
    app,
    services: opened.services,
    config,
    admin,
    request,
    signIn,
    async userWithRoles(roles, email = `user${++counter}-${Date.now()}@example.org`) {
      const { user } = await createUser(opened.services.db, { email, roles, password: TEST_PASSWORD }, 'test');
      // Each person signs in from their own browser: the sign-in throttle counts attempts per address,
      // so several people made at once from one address would be slowed like one guesser.
      return { user, token: (await signInFrom(email, TEST_PASSWORD, addressOf(email))).id_token };
    },
    async close() {
      await app.close();
      await opened.close();
      await postgres?.drop();
    },
  };
}

/** A loopback address of its own for each e-mail address. */
function addressOf(email: string): string {
  const digest = createHash('sha256').update(email).digest();
  return `127.${digest[0]}.${digest[1]}.${1 + (digest[2]! % 254)}`;
}

/** A concrete URL for a contract path: every `{param}` gets a syntactically valid value. */
export function samplePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'userEmail') return 'someone@example.org';
    if (name === 'zone') return 'australia-southeast1-a';
    return '00000000-0000-4000-8000-000000000000';
  });
}
