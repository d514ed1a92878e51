import path from 'node:path';
import { z } from 'zod';
import type { PerturbationSettings } from './warehouse/perturbation';
import type { S3Settings } from './documents/s3-document-store';
import { parseVizzlyPrivateKey, type VizzlySettings } from './visualisation/vizzly-tokens';
import { ID_TOKEN_AUDIENCE_DEFAULT, LIMITS, OUTPUT_FILE_TYPES, OUTPUT_LIMITS } from '@hdp/contract';
import { DEFAULT_CATALOGUE_FILE } from './workbenches/compute-catalogue';
import { notebookBaseUrl } from './notebooks/notebook-origin';
import { DEFAULT_UPSTREAM_TIMEOUT_SECONDS } from './notebooks/runtime/sandbox';
import { CLIENT_ADDRESS_SECRET_MIN_LENGTH } from '@hdp/contract/client-address';

/** Content types accepted for documents unless DOCUMENT_TYPES says otherwise. */
export const DEFAULT_DOCUMENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/plain',
  'text/csv',
  'application/json',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/zip',
];

const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every environment variable the API reads, with its default. docs/configuration.md lists the same. */
const EnvSchema = z.object({
  API_HOST: z.string().default('127.0.0.1'),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  TOKEN_AUDIENCE: z.string().default(ID_TOKEN_AUDIENCE_DEFAULT),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_LOG: z.enum(['all', 'errors', 'off']).default('errors'),
  TRUST_PROXY: booleanFromEnv.default(false),
  CLIENT_ADDRESS_SECRET: z
    .string()
    .min(CLIENT_ADDRESS_SECRET_MIN_LENGTH, `must be at least ${CLIENT_ADDRESS_SECRET_MIN_LENGTH} characters (for example \`openssl rand -base64 32\`)`)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_EMAIL: z.email().default('admin@example.org'),
  ADMIN_PASSWORD: z.string().optional(),
  ADMIN_NAME: z.string().default('Administrator'),
  OIDC_ISSUER: z.url().optional(),
  OIDC_AUDIENCE: z.string().optional(),
  OIDC_JWKS_URI: z.url().optional(),
  OIDC_ALGORITHMS: z.string().default('RS256,ES256'),
  OIDC_MAX_TOKEN_LIFETIME_SECONDS: z.coerce.number().int().positive().default(3600),
  OIDC_REQUIRED_ACR: z.string().optional(),
  OIDC_REQUIRED_AMR: z.string().optional(),
  MFA_REQUIRED: booleanFromEnv.default(true),
  MFA_ISSUER_NAME: z.string().min(1).max(100).default('Health Data Platform'),
  MFA_SECRET_KEY: z
    .string()
    .min(32, 'must be at least 32 characters (for example `openssl rand -base64 32`)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  WEB_URL: z.url().default('http://localhost:3000'),
  INVITATION_TTL_DAYS: z.coerce.number().positive().max(90).default(LIMITS.defaultInvitationTtlDays),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Health Data Platform <no-reply@localhost>'),
  DOCUMENT_TYPES: z.string().default(DEFAULT_DOCUMENT_TYPES.join(',')),
  CLAMAV: z.string().default('auto'),
  CLAMAV_DATABASE: z.string().optional(),
  DOCUMENT_STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  S3_PREFIX: z.string().default('documents/'),
  WAREHOUSE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  SUPPRESSION_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(LIMITS.defaultSuppressionThreshold),
  QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(LIMITS.defaultQueryTimeoutMs),
  QUERY_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(15),
  WORKBENCH_CATALOGUE_FILE: z.string().optional(),
  JOB_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  PERTURBATION_MAX_CHANGE: z.coerce.number().int().min(0).max(10).default(LIMITS.defaultPerturbationMaxChange),
  QUERY_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(LIMITS.defaultQueryRatePerMinute),
  QUERY_DAILY_BUDGET: z.coerce.number().int().min(1).max(1_000_000).default(LIMITS.defaultQueryDailyBudget),
  // The tracker defence (warehouse/release-ledger.ts); off only to measure what it costs or stops.
  DISCLOSURE_TRACKER_DEFENCE: z.enum(['on', 'off']).default('on'),
  DEMO_PERSONS: z.coerce.number().int().min(0).max(10_000_000).default(10_000),
  DEMO_SEED: z.coerce.number().int().min(0).default(20_240_501),
  NOTEBOOK_IDLE_MINUTES: z.coerce.number().positive().max(7 * 24 * 60).default(30),
  NOTEBOOK_SOCKET_DIR: z.string().optional(),
  NOTEBOOK_START_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(600).default(60),
  NOTEBOOK_UPSTREAM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(DEFAULT_UPSTREAM_TIMEOUT_SECONDS),
  NOTEBOOK_TERMINALS: booleanFromEnv.default(false),
  NOTEBOOK_EGRESS_SOFT_MB_PER_HOUR: z.coerce.number().positive().max(1_000_000).default(50),
  NOTEBOOK_EGRESS_HARD_MB_PER_DAY: z.coerce.number().positive().max(1_000_000).default(500),
  NOTEBOOK_HOME_QUOTA_MB: z.coerce.number().int().min(16).max(16 * 1024 * 1024).default(10_240),
  /** Where notebooks are served: each at `<notebook id>.<host of this URL>` (a wildcard name). */
  NOTEBOOK_BASE_URL: z.url().optional(),
  VIZZLY_PRIVATE_KEY: z.string().optional(),
  VIZZLY_PROJECT_ID: z.string().max(200).optional(),
  VIZZLY_DATA_SET_IDS: z.string().optional(),
  VIZZLY_WORKBENCH_FIELD: z.string().min(1).max(200).default('workbench_id'),
  VIZZLY_TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  SENTRY_DSN: z.url().optional(),
  SENTRY_TRACES_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.7),
  SENTRY_ENVIRONMENT: z.string().max(64).optional(),
  // Safe outputs (the airlock): see docs/outputs.md
  OUTPUT_MIN_COUNT: z.coerce.number().int().min(1).max(1000).optional(),
  OUTPUT_ZEROS_DISCLOSIVE: booleanFromEnv.default(true),
  OUTPUT_ROUNDING_BASE: z.coerce.number().int().min(0).max(1000).default(0),
  OUTPUT_DOMINANCE_P: z.coerce.number().min(0).max(1).default(OUTPUT_LIMITS.defaultDominanceP),
  OUTPUT_DOMINANCE_N: z.coerce.number().int().min(1).max(10).default(OUTPUT_LIMITS.defaultDominanceN),
  OUTPUT_DOMINANCE_K: z.coerce.number().min(0).max(1).default(OUTPUT_LIMITS.defaultDominanceK),
  OUTPUT_MAX_TABLE_ROWS: z.coerce.number().int().min(1).max(10_000_000).default(OUTPUT_LIMITS.defaultMaxTableRows),
  OUTPUT_MAX_FILE_BYTES: z.coerce.number().int().min(1).max(1_000_000_000).default(OUTPUT_LIMITS.defaultMaxFileBytes),
  OUTPUT_FILE_TYPES: z.string().default(Object.keys(OUTPUT_FILE_TYPES).join(',')),
  OUTPUT_REQUIRED_REVIEWS: z.coerce.number().int().min(1).max(10).default(OUTPUT_LIMITS.defaultRequiredReviews),
});

export interface ExternalIssuerConfig {
  issuer: string;
  audience: string;
  /** The longest lifetime (`exp` − `iat`) accepted on this issuer's tokens. */
  maxTokenLifetimeSeconds: number;
  jwksUri?: string;
  algorithms: string[];
  /** The `acr` values, any one of which a token must carry (none: no requirement). */
  requiredAcr: string[];
  /** The `amr` values a token must all carry (none: no requirement). */
  requiredAmr: string[];
}

/** Multi-factor authentication of local accounts. */
export interface MfaConfig {
  /** Every local account must use a second factor (enrolled at first sign-in); tokens without one are refused. */
  required: boolean;
  /** The name authenticator apps show beside the account. */
  issuerName: string;
  /** Key material for authenticator-app secrets at rest (MFA_SECRET_KEY); unset: a key file in DATA_DIR. */
  secretKey?: string;
  /** WebAuthn: the relying party id (the web app's host) and the origin the browser signs. */
  rpId: string;
  origin: string;
}

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** The embedded issuer's `iss` and the base of links the API hands out. */
  publicUrl: string;
  tokenAudience: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Which requests the access log records: all, errors (status >= 400, and slow ones) or off. */
  accessLog: z.infer<typeof EnvSchema>['ACCESS_LOG'];
  trustProxy: boolean;
  /** Shared with the web app, which signs the browser's address with it; unset: no such header is trusted. */
  clientAddressSecret?: string;
  admin: { email: string; password?: string; name: string };
  externalIssuer?: ExternalIssuerConfig;
  mfa: MfaConfig;
  bodyLimitBytes: number;
  /** The web app's public URL: invitation links point there. */
  webUrl: string;
  invitationTtlDays: number;
  /** SMTP server (`smtp://user:pass@host:587`); without it mail goes to the outbox in DATA_DIR. */
  smtpUrl?: string;
  mailFrom: string;
  documents: {
    /** Where uploaded files are kept. */
    dir: string;
    /** Content types accepted (checked against the file's magic bytes). */
    allowedTypes: string[];
    /** `auto` (use ClamAV when installed), `none`, or the path of clamscan/clamdscan. */
    clamav: string;
    clamavDatabase?: string;
    /** S3-compatible object storage instead of local disk, when configured. */
    s3?: S3Settings;
  };
  /** The warehouse on a PostgreSQL server; when unset, DuckDB in `DATA_DIR/warehouse.duckdb`. */
  warehouseUrl?: string;
  /** Counts from 1 to this minus one are never shown. */
  suppressionThreshold: number;
  /** Cell-key perturbation of every released count: changes of at most `maxChange` (0: off). */
  perturbation: PerturbationSettings;
  /** Withhold an answer whose persons differ from an earlier released answer's by 1 to threshold − 1 (release-ledger.ts). */
  trackerDefence: boolean;
  /** Query runs one user may start per minute and per day (anonymous and saved, together). */
  queryLimits: { perMinute: number; perDay: number };
  /** The time limit of one query run. */
  queryTimeoutMs: number;
  /** How many saved-query runs the worker runs at once. */
  queryWorkers: number;
  /** log2 of scrypt's N for new password hashes (each hash keeps its own parameters). */
  passwordHashCost: number;
  /** Persons of the demo dataset generated on first start when the warehouse is empty (0: none). */
  demo: { persons: number; seed: number };
  /** How long a claimed job stays held without a heartbeat before another process may take it over. */
  jobLeaseMs: number;
  workbenches: {
    /** Where workbench files live (`<id>/released/...`, `<id>/notebooks/...`). */
    dir: string;
    /** The compute catalogue (zones, machine types, accelerators, environments). */
    catalogueFile: string;
  };
  notebooks: {
    /** A running notebook unused this long is stopped (its files persist). */
    idleMinutes: number;
    /** Where the notebooks' Unix sockets are made (a short path: socket paths are limited to 107 bytes). */
    socketDir?: string;
    /** How long a notebook server gets to answer after it is launched. */
    startTimeoutSeconds: number;
    /** How long Jupyter may take to answer a proxied WebSocket handshake. */
    upstreamTimeoutSeconds: number;
    /** Whether Jupyter's terminals are reachable through the proxy (off: a terminal is a pipe to the screen). */
    terminals: boolean;
    /** What may reach the browser from notebooks, per user, notebook and workbench (docs/outputs.md). */
    egress: { softBytesPerHour: number; hardBytesPerDay: number };
    /** The disk quota of each notebook's home (the size of its volume), in MiB. */
    homeQuotaMb: number;
    /**
     * The notebooks' base URL: notebook `<id>` is served at `<id>.<host>` with this URL's scheme
     * and port, an origin of its own. Default: the API's URL with the host `notebooks.localhost`.
     */
    baseUrl: string;
  };
  /** The data visualisation service's token signing, when configured (else its route answers 503). */
  vizzly?: VizzlySettings;
  /** Error reporting, when a DSN is set; off otherwise. */
  sentry?: { dsn: string; tracesSampleRate: number; environment?: string };
  /** The airlock: the automatic checks' parameters, file limits and how many reviews a release needs. */
  outputs: OutputSettings;
}

export interface OutputSettings {
  /** The smallest count a table cell may show (default: the suppression threshold). */
  minCount: number;
  zerosDisclosive: boolean;
  /** Counts must be multiples of this; 0: rounding is not required. */
  roundingBase: number;
  dominanceP: number;
  dominanceN: number;
  dominanceK: number;
  maxTableRows: number;
  maxFileBytes: number;
  /** Name endings accepted (`.csv`, `.png`, ...), a subset of the contract's OUTPUT_FILE_TYPES. */
  fileTypes: string[];
  requiredReviews: number;
}

/** Reads the configuration from the environment; a bad value stops start-up with the variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.DOCUMENT_STORAGE === 's3' && !e.S3_BUCKET) throw new Error('Invalid configuration: S3_BUCKET is required with DOCUMENT_STORAGE=s3');
  if (e.OIDC_ISSUER && !e.OIDC_AUDIENCE) throw new Error('Invalid configuration: OIDC_AUDIENCE is required with OIDC_ISSUER');
  const vizzly = vizzlySettingsFrom(e);
  return {
    host: e.API_HOST,
    port: e.API_PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.API_HOST}:${e.API_PORT}`).replace(/\/$/, ''),
    tokenAudience: e.TOKEN_AUDIENCE,
    logLevel: e.LOG_LEVEL,
    accessLog: e.ACCESS_LOG,
    trustProxy: e.TRUST_PROXY,
    clientAddressSecret: e.CLIENT_ADDRESS_SECRET,
    admin: { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD || undefined, name: e.ADMIN_NAME },
    externalIssuer: e.OIDC_ISSUER
      ? {
          issuer: e.OIDC_ISSUER,
          audience: e.OIDC_AUDIENCE!,
          maxTokenLifetimeSeconds: e.OIDC_MAX_TOKEN_LIFETIME_SECONDS,
          jwksUri: e.OIDC_JWKS_URI,
          algorithms: e.OIDC_ALGORITHMS.split(',').map((a) => a.trim()).filter(Boolean),
          requiredAcr: listOf(e.OIDC_REQUIRED_ACR),
          requiredAmr: listOf(e.OIDC_REQUIRED_AMR),
        }
      : undefined,
    mfa: {
      required: e.MFA_REQUIRED,
      issuerName: e.MFA_ISSUER_NAME,
      secretKey: e.MFA_SECRET_KEY,
      rpId: new URL(e.WEB_URL).hostname,
      origin: new URL(e.WEB_URL).origin,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    webUrl: e.WEB_URL.replace(/\/$/, ''),
    invitationTtlDays: e.INVITATION_TTL_DAYS,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    documents: {
      dir: path.join(path.resolve(e.DATA_DIR), 'documents'),
      allowedTypes: e.DOCUMENT_TYPES.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean),
      clamav: e.CLAMAV,
      clamavDatabase: e.CLAMAV_DATABASE || undefined,
      s3:
        e.DOCUMENT_STORAGE === 's3'
          ? {
              bucket: e.S3_BUCKET!,
              region: e.S3_REGION,
              endpoint: e.S3_ENDPOINT,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
              prefix: e.S3_PREFIX,
            }
          : undefined,
    },
    warehouseUrl: e.WAREHOUSE_URL || undefined,
    suppressionThreshold: e.SUPPRESSION_THRESHOLD,
    perturbation: { maxChange: e.PERTURBATION_MAX_CHANGE },
    trackerDefence: e.DISCLOSURE_TRACKER_DEFENCE === 'on',
    queryLimits: { perMinute: e.QUERY_RATE_PER_MINUTE, perDay: e.QUERY_DAILY_BUDGET },
    queryTimeoutMs: e.QUERY_TIMEOUT_MS,
    queryWorkers: e.QUERY_WORKERS,
    passwordHashCost: e.PASSWORD_HASH_COST,
    demo: { persons: e.DEMO_PERSONS, seed: e.DEMO_SEED },
    jobLeaseMs: e.JOB_LEASE_MS,
    workbenches: {
      dir: path.join(path.resolve(e.DATA_DIR), 'workbenches'),
      catalogueFile: e.WORKBENCH_CATALOGUE_FILE ? path.resolve(e.WORKBENCH_CATALOGUE_FILE) : DEFAULT_CATALOGUE_FILE,
    },
    notebooks: {
      idleMinutes: e.NOTEBOOK_IDLE_MINUTES,
      socketDir: e.NOTEBOOK_SOCKET_DIR ? path.resolve(e.NOTEBOOK_SOCKET_DIR) : undefined,
      startTimeoutSeconds: e.NOTEBOOK_START_TIMEOUT_SECONDS,
      upstreamTimeoutSeconds: e.NOTEBOOK_UPSTREAM_TIMEOUT_SECONDS,
      terminals: e.NOTEBOOK_TERMINALS,
      egress: {
        softBytesPerHour: Math.round(e.NOTEBOOK_EGRESS_SOFT_MB_PER_HOUR * 1024 * 1024),
        hardBytesPerDay: Math.round(e.NOTEBOOK_EGRESS_HARD_MB_PER_DAY * 1024 * 1024),
      },
      homeQuotaMb: e.NOTEBOOK_HOME_QUOTA_MB,
      baseUrl: notebookBaseUrl(e.NOTEBOOK_BASE_URL, e.PUBLIC_URL ?? `http://${e.API_HOST}:${e.API_PORT}`),
    },
    vizzly,
    outputs: outputSettingsFrom(e),
    sentry: e.SENTRY_DSN
      ? { dsn: e.SENTRY_DSN, tracesSampleRate: e.SENTRY_TRACES_SAMPLE_RATE, environment: e.SENTRY_ENVIRONMENT || undefined }
      : undefined,
  };
}

function outputSettingsFrom(e: z.infer<typeof EnvSchema>): OutputSettings {
  const fileTypes = e.OUTPUT_FILE_TYPES.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  const unknown = fileTypes.filter((t) => !(t in OUTPUT_FILE_TYPES));
  if (unknown.length > 0) throw new Error(`Invalid configuration: OUTPUT_FILE_TYPES: ${unknown.join(', ')} not among ${Object.keys(OUTPUT_FILE_TYPES).join(', ')}`);
  return {
    minCount: e.OUTPUT_MIN_COUNT ?? e.SUPPRESSION_THRESHOLD,
    zerosDisclosive: e.OUTPUT_ZEROS_DISCLOSIVE,
    roundingBase: e.OUTPUT_ROUNDING_BASE,
    dominanceP: e.OUTPUT_DOMINANCE_P,
    dominanceN: e.OUTPUT_DOMINANCE_N,
    dominanceK: e.OUTPUT_DOMINANCE_K,
    maxTableRows: e.OUTPUT_MAX_TABLE_ROWS,
    maxFileBytes: e.OUTPUT_MAX_FILE_BYTES,
    fileTypes,
    requiredReviews: e.OUTPUT_REQUIRED_REVIEWS,
  };
}
/** A comma-separated list, blanks dropped. */
const listOf = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);

/** The variables that turn the visualisation tokens on, all needed together. */
export const VIZZLY_REQUIRED_VARIABLES = ['VIZZLY_PRIVATE_KEY', 'VIZZLY_PROJECT_ID', 'VIZZLY_DATA_SET_IDS'] as const;

/**
 * Vizzly's settings, or undefined when none of its variables is set. A partial or unusable setting
 * stops start-up: a half-configured service would only fail later, at a user's first dashboard.
 */
function vizzlySettingsFrom(e: z.infer<typeof EnvSchema>): VizzlySettings | undefined {
  const given = VIZZLY_REQUIRED_VARIABLES.filter((name) => e[name]?.trim());
  if (given.length === 0) return undefined;
  const missing = VIZZLY_REQUIRED_VARIABLES.filter((name) => !given.includes(name));
  if (missing.length > 0) throw new Error(`Invalid configuration: ${missing.join(', ')} must be set with ${given.join(', ')}`);
  let privateKey;
  try {
    privateKey = parseVizzlyPrivateKey(e.VIZZLY_PRIVATE_KEY!);
  } catch (error) {
    throw new Error(`Invalid configuration: VIZZLY_PRIVATE_KEY: ${(error as Error).message}`);
  }
  const dataSetIds = e.VIZZLY_DATA_SET_IDS!.split(',').map((id) => id.trim()).filter(Boolean);
  if (dataSetIds.includes('*')) {
    // A secure filter is keyed by data set; "every data set" would leave new ones unfiltered.
    throw new Error('Invalid configuration: VIZZLY_DATA_SET_IDS: list the data set ids; "*" cannot carry a workbench filter');
  }
  return {
    privateKey,
    projectId: e.VIZZLY_PROJECT_ID!.trim(),
    dataSetIds,
    workbenchField: e.VIZZLY_WORKBENCH_FIELD,
    ttlMinutes: e.VIZZLY_TOKEN_TTL_MINUTES,
  };
}
