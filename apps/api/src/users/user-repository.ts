import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Role, UserSource, UserStatus } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

/** What the member directory reads of a user. */
export type DirectoryRow = Pick<UserRow, 'id' | 'email' | 'name'>;

export interface UserListFilter {
  skip: number;
  limit: number;
  search?: string;
  orderBy?: string;
  statuses?: UserStatus[];
  sources?: UserSource[];
  roles?: Role[];
}

const ORDER_COLUMNS = { email: users.email, name: users.name, created_at: users.createdAt } as const;

/** Escapes LIKE wildcards so a search for "a_b" finds "a_b" only. */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Search over email and name. Terms of three or more characters match anywhere (a trigram index
 * serves them); shorter ones match the start of the email or name, which a prefix index serves.
 */
function searchCondition(term: string): SQL {
  const lowered = term.toLowerCase();
  if (lowered.length >= 3) {
    return sql`(${users.email} || ' ' || coalesce(${users.name}, '')) ilike ${`%${escapeLike(lowered)}%`}`;
  }
  const prefix = `${escapeLike(lowered)}%`;
  return sql`(${users.email} like ${prefix} or lower(${users.name}) like ${prefix})`;
}

/**
 * The member directory's match: the start of the email (its local part), or the start of a word of
 * the name. Never the middle of an email: a part of the domain every colleague shares would list
 * them all.
 */
function directorySearchCondition(term: string): SQL {
  const prefix = `${escapeLike(term.toLowerCase())}%`;
  return sql`(lower(${users.email}) like ${prefix} or lower(coalesce(${users.name}, '')) like ${prefix} or lower(coalesce(${users.name}, '')) like ${`% ${prefix}`} or lower(coalesce(${users.name}, '')) like ${`%-${prefix}`})`;
}

/** The only code that reads and writes the users table. */
export const userRepository = {
  async findById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  },

  async findByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
    return row;
  },

  async count(db: DbOrTx): Promise<number> {
    const [row] = await db.select({ n: count() }).from(users);
    return row?.n ?? 0;
  },

  /** How many ACTIVE admins there are (no lock: start-up reads it before serving). */
  async countActiveAdmins(db: DbOrTx): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.status, 'ACTIVE'), sql`'ADMIN' = any(${users.roles})`));
    return row?.n ?? 0;
  },

  /**
   * How many ACTIVE admins there are, locking their rows until the transaction ends: two admins
   * disabling each other at once are serialised, so the last admin is never disabled.
   */
  async countActiveAdminsForUpdate(db: DbOrTx): Promise<number> {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.status, 'ACTIVE'), sql`'ADMIN' = any(${users.roles})`))
      .for('update');
    return rows.length;
  },

  async insert(db: DbOrTx, values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await db
      .insert(users)
      .values({ ...values, email: values.email.toLowerCase() })
      .returning();
    return row!;
  },

  async setStatus(db: DbOrTx, id: string, status: UserStatus): Promise<UserRow | undefined> {
    return userRepository.update(db, id, { status });
  },

  async update(
    db: DbOrTx,
    id: string,
    values: Partial<Pick<UserRow, 'status' | 'passwordHash' | 'invitationExpiresAt' | 'name' | 'roles'>>,
  ): Promise<UserRow | undefined> {
    const [row] = await db.update(users).set({ ...values, updatedAt: new Date() }).where(eq(users.id, id)).returning();
    return row;
  },

  /**
   * The member directory: ACTIVE users holding one of `roles` whose email or name matches `search`,
   * by email, at most `limit` of them (one more is read to tell whether there are others).
   */
  async directory(db: DbOrTx, filter: { search: string; limit: number; roles: readonly Role[] }): Promise<{ rows: DirectoryRow[]; more: boolean }> {
    const rows = await db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(and(eq(users.status, 'ACTIVE'), sql`${users.roles} && ${sql.param([...filter.roles])}::text[]`, directorySearchCondition(filter.search)))
      .orderBy(asc(users.email))
      .limit(filter.limit + 1);
    return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
  },

  async list(db: DbOrTx, filter: UserListFilter): Promise<{ rows: UserRow[]; total: number; total_capped: boolean }> {
    const conditions: SQL[] = [];
    if (filter.search) conditions.push(searchCondition(filter.search));
    if (filter.statuses?.length) conditions.push(inArray(users.status, filter.statuses));
    if (filter.sources?.length) conditions.push(inArray(users.userSource, filter.sources));
    if (filter.roles?.length) conditions.push(sql`${users.roles} && ${sql.param(filter.roles)}::text[]`);
    const where = conditions.length ? and(...conditions) : undefined;
    const orderBy = filter.orderBy ?? 'email';
    const descending = orderBy.startsWith('-');
    const column = ORDER_COLUMNS[orderBy.replace(/^-/, '') as keyof typeof ORDER_COLUMNS] ?? users.email;
    const direction = descending ? desc : asc;
    // Emails are unique; other sort keys need the id as a tie-breaker for stable pages.
    const order = column === users.email ? [direction(column)] : [direction(column), direction(users.id)];
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(users)
        .where(where)
        .orderBy(...order)
        .offset(filter.skip)
        .limit(filter.limit),
      cappedTotal(db, users, where),
    ]);
    return { rows, ...total };
  },
};
