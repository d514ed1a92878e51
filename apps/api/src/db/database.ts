import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the code uses, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction, or the database itself where no transaction is needed. */
export type DbOrTx = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL pool, when the database is a server. */
  pool?: pg.Pool;
  /** The embedded database, when it is PGlite. */
  pglite?: PGlite;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
/** Serialises migrations when several API processes start against one PostgreSQL server. */
const MIGRATION_LOCK_KEY = 72_410_001;

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise the embedded PGlite in `dataDir`
 * (or in memory when `dataDir` is null, for tests). The caller holds the data-directory lock.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  /** Told when an idle pooled connection dies (server restart, terminated backend). */
  onConnectionError?: (error: Error) => void;
  /**
   * Connections held for long stretches besides the pool's ten for requests: each query run in
   * progress holds one for its whole run (its row lock tells other processes it is alive).
   */
  heldConnections?: number;
  /**
   * For an in-memory PGlite: start from this dump of a database (`dumpDataDir`) instead of an empty
   * one. The test suites start from an already-migrated dump: making a new cluster takes seconds.
   */
  template?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 + (options.heldConnections ?? 0) });
    // Without a listener an idle connection's error would crash the process; the pool replaces it.
    pool.on('error', (error) => options.onConnectionError?.(error));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  // Extensions the migrations create must be loaded into PGlite up front.
  const extensions = { pg_trgm };
  const client = options.dataDir
    ? new PGlite(path.join(options.dataDir, 'pglite'), { extensions })
    : new PGlite({ extensions, ...(options.template && { loadDataDir: options.template }) });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return { db, kind: 'pglite', pglite: client, close: () => client.close() };
}

/** Applies the generated migrations; safe to run on every start. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  // The advisory lock belongs to a session, so lock, migrate and unlock on one connection.
  const client = await handle.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}
