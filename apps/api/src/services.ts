import path from 'node:path';
import type { AppServices } from './app-services';
import { createLoggers } from './logger';
import { createMailer } from './mail/mailer';
import { ChainVerificationCache } from './audit/chain-verification-cache';
import { LocalDocumentStore, UploadSpool } from './documents/document-store';
import { S3DocumentStore } from './documents/s3-document-store';
import { MalwareScanner } from './documents/malware-scanner';
import type { Config } from './config';
import { lockDataDir } from './db/data-dir-lock';
import { migrateDatabase, openDatabase } from './db/database';
import { IdTokenService } from './identity/id-tokens';
import { PrincipalDirectory } from './identity/principals';
import { EndedSessions } from './identity/ended-sessions';
import { SigningKeyStore } from './identity/signing-keys';
import { TotpSecretBox } from './identity/mfa/totp-secret-box';
import { factorRepository } from './identity/mfa/factor-repository';
import { JobWorker } from './jobs/job-worker';
import { queryRunHandler } from './queries/query-execution-worker';
import { LocalFileStore } from './storage/file-store';
import { ComputeCatalogue } from './workbenches/compute-catalogue';
import { provisionHandler } from './workbenches/workbench-provisioner';
import { openWarehouse } from './warehouse/open-warehouse';
import type { WarehouseEngine } from './warehouse/warehouse-engine';
import { solver } from './warehouse/suppression';
import { connectNotebookLifecycle, createNotebookServices } from './notebooks/notebook-services';
import { notebookLifecycleHandler } from './notebooks/notebook-lifecycle-job';
import { outputChecksHandler } from './outputs/output-checks-job';
import { startSentry } from './observability/error-reporting';
import { configurePasswordHashing } from './identity/passwords';

/** For commands that never touch health data: opening no warehouse leaves it free for the server. */
const unavailableWarehouse: WarehouseEngine = {
  kind: 'duckdb',
  state: null,
  query: () => Promise.reject(new Error('This command opened no warehouse.')),
  queryColumns: () => Promise.reject(new Error('This command opened no warehouse.')),
  describe: () => Promise.resolve([]),
  exportCsvGzip: () => Promise.reject(new Error('This command opened no warehouse.')),
  load: () => Promise.reject(new Error('This command opened no warehouse.')),
  close: () => Promise.resolve(),
};

export interface OpenedServices {
  services: AppServices;
  close(): Promise<void>;
}

/**
 * Opens everything the API needs, in order: the data-directory lock (embedded database only),
 * the database, its migrations and the signing keys. `inMemory` runs PGlite without a directory (tests),
 * from `pgliteTemplate` when given (a dump of a migrated database: see openDatabase).
 */
export async function openServices(
  config: Config,
  options: { inMemory?: boolean; startWorker?: boolean; warehouse?: boolean; pgliteTemplate?: Blob } = {},
): Promise<OpenedServices> {
  // Read before anything else opens: a bad catalogue file stops start-up with the field named.
  const computeCatalogue = ComputeCatalogue.load(config.workbenches.catalogueFile);
  configurePasswordHashing(config.passwordHashCost);
  const embedded = !config.databaseUrl;
  const releaseLock = embedded && !options.inMemory ? await lockDataDir(config.dataDir) : undefined;
  let warehouse: WarehouseEngine | undefined;
  try {
    const { logger, accessLog } = createLoggers(config.logLevel);
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: embedded && !options.inMemory ? config.dataDir : null,
      onConnectionError: (error) => logger.warn({ err: error }, 'a pooled database connection failed; it will be replaced'),
      heldConnections: config.queryWorkers,
      template: options.inMemory ? options.pgliteTemplate : undefined,
    });
    await migrateDatabase(database);
    const documentStore = config.documents.s3
      ? new S3DocumentStore(config.documents.s3, new UploadSpool(path.join(config.documents.dir, '.incoming')))
      : new LocalDocumentStore(config.documents.dir);
    await documentStore.prepare();
    const signingKeys = new SigningKeyStore(database.db);
    await signingKeys.load();
    const totpSecrets = TotpSecretBox.forDeployment(config.mfa.secretKey, options.inMemory ? null : config.dataDir);
    // Secrets stored before they were encrypted are sealed now, not left until their next use.
    const sealed = await factorRepository.sealAllPlaintext(database.db, totpSecrets);
    if (sealed > 0) logger.info({ sealed }, 'encrypted authenticator-app secrets stored in plaintext');
    warehouse =
      options.warehouse === false
        ? unavailableWarehouse
        : await openWarehouse({ warehouseUrl: config.warehouseUrl, dataDir: config.dataDir, inMemory: options.inMemory });
    // The suppression audit's solver (WebAssembly) is compiled now, not on the first answer.
    if (options.warehouse !== false) await solver();
    const workbenchStore = new LocalFileStore(config.workbenches.dir);
    await workbenchStore.prepare({ shared: !embedded });
    const notebooks = createNotebookServices(config, logger);
    const jobs = new JobWorker({ db: database.db, singleOwner: database.kind === 'pglite', leaseMs: config.jobLeaseMs }, [
      queryRunHandler({ warehouse, config }),
      provisionHandler({ warehouse, store: workbenchStore, config }),
      notebookLifecycleHandler({ notebooks, catalogue: computeCatalogue, config, logger }),
      outputChecksHandler({ store: workbenchStore, settings: config.outputs }),
    ]);
    const services: AppServices = {
      config,
      database,
      db: database.db,
      signingKeys,
      totpSecrets,
      idTokens: new IdTokenService(config, signingKeys),
      principals: new PrincipalDirectory(database.db),
      endedSessions: new EndedSessions(database.db),
      mailer: createMailer(config, logger),
      chainVerification: new ChainVerificationCache(database.db),
      documentStore,
      malwareScanner: new MalwareScanner({
        command: config.documents.clamav === 'auto' ? undefined : config.documents.clamav,
        database: config.documents.clamavDatabase,
      }),
      logger,
      accessLog,
      warehouse,
      jobs,
      queryWorker: jobs,
      workbenchStore,
      computeCatalogue,
      notebooks,
      errorReporter: config.sentry ? await startSentry(config.sentry) : undefined,
    };
    connectNotebookLifecycle(services);
    if (options.startWorker !== false && options.warehouse !== false) await jobs.start();
    return {
      services,
      close: async () => {
        services.notebooks.idle.stop();
        await services.notebooks.driver.close();
        await jobs.stop();
        await services.errorReporter?.close();
        await warehouse!.close();
        await database.close();
        await releaseLock?.();
      },
    };
  } catch (error) {
    await warehouse?.close().catch(() => undefined);
    await releaseLock?.();
    throw error;
  }
}
