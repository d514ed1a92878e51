import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Mailer } from './mail/mailer';
import type { ChainVerificationCache } from './audit/chain-verification-cache';
import type { DocumentStore } from './documents/document-store';
import type { MalwareScanner } from './documents/malware-scanner';
import type { Database, DatabaseHandle } from './db/database';
import type { IdTokenService } from './identity/id-tokens';
import type { PrincipalDirectory } from './identity/principals';
import type { EndedSessions } from './identity/ended-sessions';
import type { SigningKeyStore } from './identity/signing-keys';
import type { TotpSecretBox } from './identity/mfa/totp-secret-box';
import type { JobWorker } from './jobs/job-worker';
import type { FileStore } from './storage/file-store';
import type { ComputeCatalogue } from './workbenches/compute-catalogue';
import type { WarehouseEngine } from './warehouse/warehouse-engine';
import type { NotebookServices } from './notebooks/notebook-services';
import type { ServerErrorReporter } from './observability/error-reporting';

/** What handlers and commands work with: built once at start-up, handed to the app. */
export interface AppServices {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  signingKeys: SigningKeyStore;
  /** Seals and opens authenticator-app secrets (encrypted at rest). */
  totpSecrets: TotpSecretBox;
  idTokens: IdTokenService;
  principals: PrincipalDirectory;
  /** Which id tokens' sessions have been ended (checked on every request, cached a few seconds). */
  endedSessions: EndedSessions;
  mailer: Mailer;
  chainVerification: ChainVerificationCache;
  documentStore: DocumentStore;
  malwareScanner: MalwareScanner;
  /** The one logger (pino), shared with Fastify. */
  logger: FastifyBaseLogger;
  /** The access log: one line per request (see ACCESS_LOG). */
  accessLog: Logger;
  /** The health-data warehouse (OMOP CDM). */
  warehouse: WarehouseEngine;
  /** Runs the jobs of the one queue (query runs, workbench provisioning) in the background. */
  jobs: JobWorker;
  /** The same worker, by the name query runs knew it by. */
  queryWorker: JobWorker;
  /** Workbench files: DATA_DIR/workbenches/<id>/released/... (see src/workbenches/workbench-storage.ts). */
  workbenchStore: FileStore;
  /** Zones, machine types, accelerators and environments notebooks may use (WORKBENCH_CATALOGUE_FILE). */
  computeCatalogue: ComputeCatalogue;
  /** Notebooks: the runtime driver, the proxy's sessions and activity, idle stop. */
  notebooks: NotebookServices;
  /** The error-reporting service (Sentry), when SENTRY_DSN is set. */
  errorReporter?: ServerErrorReporter;
}
