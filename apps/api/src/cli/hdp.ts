import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { ROLES, type Role } from '@hdp/contract';
import { loadConfig, type Config } from '../config';
import { DataDirLockedError } from '../db/data-dir-lock';
import { openServices, type OpenedServices } from '../services';
import { verifyAuditChain } from '../audit/audit-trail';
import { createSigningKey } from '../identity/signing-keys';
import { appendAuditEntry } from '../audit/audit-trail';
import { createUser } from '../users/admin-creator';
import { ApiError } from '../http/api-error';
import { loadThroughRunningApi } from '../warehouse/control-socket';
import { loadWarehouse, type LoadRequest } from '../warehouse/warehouse-loader';
import { WarehouseBusyError, type LoadReport } from '../warehouse/warehouse-engine';
import { ImportError } from '../warehouse/omop-importer';

/**
 * The operator's command line: `npm run hdp -- <command>`. With the embedded database it takes
 * the data-directory lock like the server does, so it refuses (never corrupts) while the server runs.
 */
async function withServices<T>(
  run: (opened: OpenedServices, config: Config) => Promise<T>,
  options: { warehouse?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  const opened = await openServices(config, { startWorker: false, warehouse: options.warehouse ?? false });
  try {
    return await run(opened, config);
  } finally {
    await opened.close();
  }
}

function parseRoles(value: string): Role[] {
  const roles = value.split(',').map((r) => r.trim().toUpperCase());
  for (const role of roles) {
    if (!(ROLES as readonly string[]).includes(role)) {
      throw new InvalidArgumentError(`unknown role ${role}; roles are ${ROLES.join(', ')}`);
    }
  }
  return roles as Role[];
}

const out = (line: string) => process.stdout.write(`${line}\n`);

const program = new Command('hdp').description('Operate the health data platform');

const userOptions = (command: Command) =>
  command
    .requiredOption('--email <email>', 'the account email')
    .option('--name <name>', 'display name')
    .option('--password <password>', 'the password (generated and printed when omitted)');

async function runCreateUser(options: { email: string; name?: string; password?: string }, roles: Role[]) {
  await withServices(async ({ services }) => {
    const { user, generatedPassword } = await createUser(services.db, { ...options, roles }, 'hdp command line');
    out(`Created ${user.roles.join(', ')} ${user.email} (${user.id})`);
    if (generatedPassword) out(`Password: ${generatedPassword}  (shown once; keep it now)`);
  });
}

const admin = program.command('admin').description('Administrator accounts');
userOptions(admin.command('create').description('Create an ACTIVE local administrator')).action((options) =>
  runCreateUser(options, ['ADMIN']),
);

const user = program.command('user').description('User accounts');
userOptions(user.command('create').description('Create an ACTIVE local account with the given roles'))
  .requiredOption('--roles <roles>', `comma-separated roles: ${ROLES.join(', ')}`, parseRoles)
  .action((options: { email: string; name?: string; password?: string; roles: Role[] }) =>
    runCreateUser(options, options.roles),
  );

program
  .command('audit')
  .description('The audit trail')
  .command('verify')
  .description('Walk the hash chain and report the first broken link')
  .action(() =>
    withServices(async ({ services }) => {
      const report = await verifyAuditChain(services.db);
      if (report.ok) {
        out(`Audit chain intact: ${report.entries} entries verified${report.verifiedUpTo ? ` (up to entry ${report.verifiedUpTo})` : ''}.`);
        return;
      }
      out(`Audit chain BROKEN at entry ${report.firstBroken!.seq}: ${report.firstBroken!.reason}.`);
      out(`Intact up to entry ${report.verifiedUpTo ?? 'none'}.`);
      process.exitCode = 2;
    }),
  );

program
  .command('keys')
  .description('Signing keys of the embedded issuer')
  .command('rotate')
  .description('Create a new signing key; the old one stays published until its tokens expire')
  .action(() =>
    withServices(async ({ services }) => {
      const kid = await services.db.transaction(async (tx) => {
        const created = await createSigningKey(tx);
        await appendAuditEntry(tx, { actorEmail: 'hdp command line' }, {
          eventType: 'SIGNING_KEY_ROTATED',
          outcome: 'SUCCESS',
          message: `Signing key rotated; new key ${created}`,
          resourceType: 'signing_key',
          resourceId: created,
        });
        return created;
      });
      out(`New signing key ${kid} is active.`);
    }),
  );

/**
 * Loads the warehouse: through the running API when there is one (the warehouse has one writer),
 * otherwise directly, holding the data directory like the server would.
 */
async function runLoad(load: LoadRequest): Promise<void> {
  const config = loadConfig();
  const started = performance.now();
  let report: LoadReport | undefined = await loadThroughRunningApi(config.dataDir, load);
  if (report) {
    out('Loaded through the running API (queries were answered from the previous data until the swap).');
  } else {
    report = await withServices(({ services }) => loadWarehouse(services, load, { actorEmail: 'hdp command line' }), { warehouse: true });
  }
  const rows = Object.entries(report.rows).map(([table, n]) => `${table} ${n}`).join(', ');
  out(`Loaded ${report.source} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${rows}`);
}

const positiveInteger = (name: string, min: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number of at least ${min}`);
  return n;
};

program
  .command('import')
  .description('Load health data into the warehouse')
  .command('omop <directory>')
  .description('Load a directory of OMOP CDM v5.4 (or v5.3) tables, CSV or Parquet; a failed import keeps the previous data')
  .action((directory: string) => runLoad({ kind: 'omop', directory: path.resolve(process.env.INIT_CWD ?? process.cwd(), directory) }));

program
  .command('generate')
  .description('Generate a synthetic OMOP CDM dataset into the warehouse, deterministically from the seed')
  .requiredOption('--persons <n>', 'how many persons', positiveInteger('--persons', 1))
  .option('--seed <s>', 'the random seed', positiveInteger('--seed', 0), 1)
  .action((options: { persons: number; seed: number }) => runLoad({ kind: 'synthetic', persons: options.persons, seed: options.seed }));

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\nThis command needs the embedded database to itself.\n`);
  } else if (error instanceof ImportError || error instanceof WarehouseBusyError || (error instanceof Error && error.name === 'Error' && /^(Invalid configuration|persons|seed)/.test(error.message))) {
    process.stderr.write(`${error.message}\n`);
  } else if (error instanceof ApiError || (error instanceof Error && error.message.startsWith('Invalid configuration'))) {
    process.stderr.write(`${error instanceof ApiError ? error.detail : error.message}\n`);
  } else {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
