// First: see the module for why it must come before anything else.
import './runtime/stable-tick-shapes';
import { buildApp } from './app';
import { loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { openServices } from './services';
import { adminAtStart } from './users/admin-creator';
import { startControlSocket } from './warehouse/control-socket';
import { readLedgerAhead } from './warehouse/release-ledger';
import { loadWarehouse } from './warehouse/warehouse-loader';
import { startNotebooks } from './notebooks/notebook-startup';

/** Starts the API: lock, migrate, seed the first admin, listen; stops cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const opened = await openServices(config);
  const admin = await adminAtStart(opened.services.db, config.admin);
  const firstAdmin = admin.kind === 'created' ? admin.created : undefined;
  const app = await buildApp(opened.services);
  if (!opened.services.warehouse.state && config.demo.persons > 0) {
    // First start: a synthetic demo dataset, so the data explorer has something to count.
    const report = await loadWarehouse(opened.services, { kind: 'synthetic', ...config.demo }, { actorEmail: 'system (first start)' });
    process.stdout.write(`Demo dataset generated: ${report.rows.person} synthetic persons in ${report.seconds.toFixed(1)} s.\n`);
  }
  const closeControlSocket = await startControlSocket(opened.services, config.dataDir);
  await startNotebooks(opened.services);
  await app.listen({ host: config.host, port: config.port });
  const served = opened.services.warehouse.state;
  if (served && config.trackerDefence) {
    // The served dataset's ledger is read now, not by its first answer under the dataset's lock.
    const started = performance.now();
    readLedgerAhead(opened.services.db, served.schema, { ownConnection: opened.services.database.kind === 'postgres' }).then(
      () => app.log.info({ dataset: served.schema, ms: Math.round(performance.now() - started) }, 'release ledger read'),
      (error: unknown) => app.log.warn({ err: error }, 'release ledger not read ahead; the first answer reads it'),
    );
  }

  const lines = [`API listening on ${config.publicUrl} (OpenAPI: ${config.publicUrl}/api/v1/docs/)`];
  if (firstAdmin?.generatedPassword) {
    // Shown once, on the terminal only: the password is not logged and not stored in clear.
    lines.push(`First administrator created: ${firstAdmin.user.email} / ${firstAdmin.generatedPassword}`);
    lines.push('Keep this password now; it will not be shown again.');
  } else if (firstAdmin) {
    lines.push(`First administrator created: ${firstAdmin.user.email} (password from ADMIN_PASSWORD)`);
  } else if (admin.kind === 'not-created') {
    lines.push(admin.reason);
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    await closeControlSocket();
    await app.close();
    await opened.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError || (error instanceof Error && error.message.startsWith('Invalid configuration'))) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`The API could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
