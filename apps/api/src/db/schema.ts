import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type {
  AuditEventType,
  AuditOutcome,
  CohortStatus,
  ConceptSetItem,
  QueryExecutionStatus,
  QueryGroup,
  QueryResult,
  ReleaseState,
  ReleasedTable,
  Role,
  UserSource,
  UserStatus,
  WorkbenchMemberRole,
  NotebookStatus,
  CheckFinding,
  CheckState,
  CheckVerdict,
  CommentVisibility,
  ReleaseFileKind,
  ReleaseRequestState,
  ReviewVote,
} from '@hdp/contract';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased: emails compare case-insensitively. */
    email: text('email').notNull(),
    name: text('name'),
    roles: text('roles').array().$type<Role[]>().notNull().default(sql`'{}'::text[]`),
    status: text('status').$type<UserStatus>().notNull(),
    userSource: text('user_source').$type<UserSource>().notNull(),
    /** scrypt hash for local accounts; null for external identities and pending invitations. */
    passwordHash: text('password_hash'),
    /** Expiry of the current invitation link, while the user is INVITED (kept here for listing). */
    invitationExpiresAt: timestamp('invitation_expires_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    index('users_status_idx').on(t.status),
    // Search, prefix, roles and sort indexes are in migration 0003 (expression and opclass indexes).
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    /** All tokens rotated from one sign-in share a family; reuse of any revokes the family. */
    familyId: uuid('family_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** How the session's sign-in was authenticated (`pwd`, `otp`, `hwk`, …): carried by every rotation. */
    amr: text('amr').array().notNull().default(sql`'{}'::text[]`),
    /** The device (User-Agent) and client address that started the session, for the sessions list. */
    userAgent: text('user_agent'),
    clientAddress: text('client_address'),
  },
  (t) => [
    uniqueIndex('refresh_tokens_token_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  /** Set when a newer key takes over; the key stays published until tokens it signed have expired. */
  retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }),
});

export const signInThrottle = pgTable('sign_in_throttle', {
  /** `account:<email>` or `address:<ip>`. */
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true, mode: 'date' }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }),
});

/**
 * The audit trail. Append-only (a trigger rejects UPDATE, DELETE and TRUNCATE) and hash-chained:
 * each entry's `hash` covers its fields and the previous entry's hash.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    eventType: text('event_type').$type<AuditEventType>().notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    outcome: text('outcome').$type<AuditOutcome>().notNull(),
    message: text('message').notNull(),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_log_occurred_at_idx').on(t.occurredAt),
    index('audit_log_event_type_idx').on(t.eventType, t.occurredAt),
    index('audit_log_actor_idx').on(t.actorId),
  ],
);

/** Invitation links. Only the SHA-256 of a token is kept; a new link invalidates the old one. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    createdBy: uuid('created_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    /** Set when the invitation is revoked or replaced by a re-sent one. */
    invalidatedAt: timestamp('invalidated_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('invitations_token_hash_key').on(t.tokenHash), index('invitations_user_idx').on(t.userId)],
);

/** Uploaded documents. The file lives in storage under `storageKey`, a generated name. */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    originalName: text('original_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    scanStatus: text('scan_status').$type<'CLEAN' | 'NOT_SCANNED'>().notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('documents_owner_created_idx').on(t.ownerId, t.createdAt)],
);

/** Saved data-explorer queries. `version` goes up by one on every update. */
export const queries = pgTable(
  'queries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The query tree (react-querybuilder format). */
    query: jsonb('query').$type<QueryGroup>().notNull(),
    version: integer('version').notNull().default(1),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('queries_owner_idx').on(t.ownerId), index('queries_updated_at_idx').on(t.updatedAt)],
);

/**
 * Saved concept sets: named lists of concepts that cohort definitions of many queries use. This row
 * is the set and its newest version number; every version's content is in concept_set_versions.
 */
export const conceptSets = pgTable(
  'concept_sets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The newest version's name, for lists and search. */
    name: text('name').notNull(),
    version: integer('version').notNull().default(1),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('concept_sets_owner_idx').on(t.ownerId), index('concept_sets_updated_at_idx').on(t.updatedAt)],
);

/** Every version of a saved concept set: 1 when saved, one more per change. Never updated. */
export const conceptSetVersions = pgTable(
  'concept_set_versions',
  {
    conceptSetId: uuid('concept_set_id')
      .notNull()
      .references(() => conceptSets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    items: jsonb('items').$type<ConceptSetItem[]>().notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.conceptSetId, t.version] })],
);

/**
 * Which saved concept set versions a saved query's definition pins, rewritten whenever the query is
 * saved: what tells a query that a newer version exists, and what keeps a set in use from deletion.
 */
export const queryConceptSets = pgTable(
  'query_concept_sets',
  {
    queryId: uuid('query_id')
      .notNull()
      .references(() => queries.id, { onDelete: 'cascade' }),
    conceptSetId: uuid('concept_set_id')
      .notNull()
      .references(() => conceptSets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.queryId, t.conceptSetId, t.version] }), index('query_concept_sets_set_idx').on(t.conceptSetId)],
);

/**
 * Runs of saved queries: a job table. The API's worker claims PENDING rows (FOR UPDATE SKIP LOCKED),
 * marks them RUNNING, and records the aggregate result or the reason it failed.
 */
export const queryExecutions = pgTable(
  'query_executions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queryId: uuid('query_id')
      .notNull()
      .references(() => queries.id, { onDelete: 'cascade' }),
    queryVersion: integer('query_version').notNull(),
    /** The tree as it was when the run was asked for. */
    query: jsonb('query').$type<QueryGroup>().notNull(),
    status: text('status').$type<QueryExecutionStatus>().notNull().default('PENDING'),
    result: jsonb('result').$type<QueryResult>(),
    error: text('error'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who asked and from where, for the audit entry written when the run ends. */
    auditContext: jsonb('audit_context').$type<Record<string, string | null>>().notNull().default({}),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /** The warehouse dataset (its schema) the run counted in; a cohort is only taken from a run on the data still served. */
    dataset: text('dataset'),
  },
  (t) => [index('query_executions_query_idx').on(t.queryId, t.createdAt), index('query_executions_status_idx').on(t.status, t.createdAt)],
);

/**
 * The per-user query limits (src/queries/query-limits.ts): when each of the user's query runs of the
 * last 24 hours started, saved and unsaved runs and cohort refreshes together. One row per user,
 * checked and extended by one conditional upsert, so parallel requests (in any API process) each
 * see the runs the others took.
 */
export const queryRunCounters = pgTable('query_run_counters', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  runTimes: timestamp('run_times', { withTimezone: true, mode: 'date' }).array().notNull(),
});

/**
 * Cohorts: named snapshots of the persons a saved query selected. The person ids themselves live in
 * the warehouse (`hdp_cohorts.cohort_person`, keyed by version id) and never leave it; this table
 * holds the cohort and its current version's count, denormalised from cohort_versions for listing.
 */
export const cohorts = pgTable(
  'cohorts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').$type<CohortStatus>().notNull().default('DRAFT'),
    /** The saved query it came from; null once that query is deleted (the cohort stays). */
    queryId: uuid('query_id').references(() => queries.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    personCount: integer('person_count').notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    publishedBy: uuid('published_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The version a data steward reviewed and published: what researchers see. A newer version
     * (a re-run) waits for review; null while the cohort was never published (or went back to draft).
     */
    publishedVersion: integer('published_version'),
  },
  (t) => [
    index('cohorts_status_idx').on(t.status, t.updatedAt),
    index('cohorts_author_idx').on(t.authorId),
    index('cohorts_tags_idx').using('gin', t.tags),
  ],
);

/** A cohort version's criteria as kept: the tree and the concept names it was read with. */
export interface StoredCohortDefinition {
  query: QueryGroup;
  concept_names: Record<string, string>;
}

/** Every snapshot of a cohort: version 1 when made, one more per refresh. Never updated. */
export const cohortVersions = pgTable(
  'cohort_versions',
  {
    /** Also the key of its persons in the warehouse. */
    id: uuid('id').primaryKey(),
    cohortId: uuid('cohort_id')
      .notNull()
      .references(() => cohorts.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    origin: text('origin').$type<'EXECUTION' | 'REFRESH'>().notNull(),
    queryVersion: integer('query_version').notNull(),
    executionId: uuid('execution_id').references(() => queryExecutions.id, { onDelete: 'set null' }),
    personCount: integer('person_count').notNull(),
    /** Where the dataset came from (`source` of the warehouse load) and the schema that held it. */
    dataset: text('dataset').notNull(),
    datasetSchema: text('dataset_schema').notNull(),
    /** The suppressed demographics of the snapshot, as shown. */
    result: jsonb('result').$type<QueryResult>().notNull(),
    /**
     * The criteria the persons were selected by (the query tree of that run) and the names of the
     * concepts it names, as the dataset called them then; null when an upgrade could not recover it.
     */
    definition: jsonb('definition').$type<StoredCohortDefinition>(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cohort_versions_cohort_version_key').on(t.cohortId, t.version)],
);

/**
 * The one job queue: query runs, workbench provisioning and (next) the notebook lifecycle. Workers
 * claim PENDING jobs with FOR UPDATE SKIP LOCKED and hold them by a lease they keep extending while
 * they work; a RUNNING job whose lease ran out was left by a stopped process (see src/jobs/).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** What the job works on (a workbench id, a query execution id): to find or cancel its jobs. */
    subject: text('subject'),
    state: text('state').$type<'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED'>().notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(1),
    progress: real('progress').notNull().default(0),
    error: text('error'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('jobs_state_idx').on(t.state, t.createdAt), index('jobs_subject_idx').on(t.subject)],
);

/** Workbenches: the safe projects. `version` goes up by one on every update (stale updates get 409). */
export const workbenches = pgTable(
  'workbenches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    purpose: text('purpose').notNull(),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    updatedBy: uuid('updated_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('workbenches_updated_at_idx').on(t.updatedAt)],
);

export const workbenchMembers = pgTable(
  'workbench_members',
  {
    workbenchId: uuid('workbench_id')
      .notNull()
      .references(() => workbenches.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<WorkbenchMemberRole>().notNull(),
    addedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workbenchId, t.userId] }), index('workbench_members_user_idx').on(t.userId)],
);

/** A cohort version released to a workbench, and how far writing its files got. */
export const workbenchCohorts = pgTable(
  'workbench_cohorts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workbenchId: uuid('workbench_id')
      .notNull()
      .references(() => workbenches.id, { onDelete: 'cascade' }),
    cohortId: uuid('cohort_id')
      .notNull()
      .references(() => cohorts.id, { onDelete: 'cascade' }),
    cohortVersionId: uuid('cohort_version_id')
      .notNull()
      .references(() => cohortVersions.id, { onDelete: 'cascade' }),
    cohortVersion: integer('cohort_version').notNull(),
    /** Its folder under released/cohorts/ (`<cohort-name-slug>-v<version>`), fixed when released. */
    directory: text('directory').notNull(),
    state: text('state').$type<ReleaseState>().notNull().default('PENDING'),
    progress: real('progress').notNull().default(0),
    error: text('error'),
    rowCounts: jsonb('row_counts').$type<Partial<Record<ReleasedTable | 'cohort_period', number>>>(),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workbench_cohorts_workbench_cohort_key').on(t.workbenchId, t.cohortId)],
);

/** A saved query copied into a workbench (tree and name): later edits of the original leave it alone. */
export const workbenchQueries = pgTable(
  'workbench_queries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workbenchId: uuid('workbench_id')
      .notNull()
      .references(() => workbenches.id, { onDelete: 'cascade' }),
    sourceQueryId: uuid('source_query_id').references(() => queries.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    query: jsonb('query').$type<QueryGroup>().notNull(),
    /** Its file under released/queries/. */
    fileName: text('file_name').notNull(),
    copiedAt: timestamp('copied_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('workbench_queries_workbench_idx').on(t.workbenchId)],
);

/** A document copied into a workbench: its own file, so deleting the original leaves the copy. */
export const workbenchDocuments = pgTable(
  'workbench_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workbenchId: uuid('workbench_id')
      .notNull()
      .references(() => workbenches.id, { onDelete: 'cascade' }),
    sourceDocumentId: uuid('source_document_id').references(() => documents.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** Its path in the workbench's storage (`released/documents/<file name>`). */
    storageKey: text('storage_key').notNull(),
    copiedAt: timestamp('copied_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('workbench_documents_workbench_idx').on(t.workbenchId)],
);

export type { NotebookStatus };

/**
 * Notebooks of a workbench: what each runs on, whose it is and where it is in its lifecycle
 * (`@hdp/contract/notebook-lifecycle`); their files are under DATA_DIR/workbenches/<id>/notebooks/.
 */
export const notebooks = pgTable(
  'notebooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workbenchId: uuid('workbench_id')
      .notNull()
      .references(() => workbenches.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    environment: text('environment').notNull(),
    zone: text('zone').notNull(),
    machineType: text('machine_type').notNull(),
    acceleratorType: text('accelerator_type'),
    acceleratorCount: integer('accelerator_count').notNull().default(0),
    status: text('status').$type<NotebookStatus>().notNull().default('PROVISIONING'),
    statusReason: text('status_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('notebooks_workbench_idx').on(t.workbenchId)],
);

/**
 * Safe outputs: a release request of a workbench (the airlock), in the states of
 * `@hdp/contract/output-lifecycle`. `round` counts submissions: reviews belong to a round, and a
 * resubmission after a return asks each checker to submit again. The package is written on release.
 */
export const releaseRequests = pgTable(
  'release_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workbenchId: uuid('workbench_id')
      .notNull()
      .references(() => workbenches.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    state: text('state').$type<ReleaseRequestState>().notNull().default('PENDING'),
    requiredReviews: integer('required_reviews').notNull(),
    round: integer('round').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }),
    packageKey: text('package_key'),
    packageSha256: text('package_sha256'),
    packageSizeBytes: bigint('package_size_bytes', { mode: 'number' }),
  },
  (t) => [index('release_requests_workbench_idx').on(t.workbenchId, t.createdAt), index('release_requests_state_idx').on(t.state)],
);

/** A group of a request's files with its context (what they are) and controls (what makes them safe). */
export const releaseGroups = pgTable(
  'release_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => releaseRequests.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    context: text('context').notNull(),
    controls: text('controls').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('release_groups_request_idx').on(t.requestId)],
);

/**
 * A file copied into a request from a notebook's home when added (its bytes under `storage_key`,
 * its SHA-256 taken then); a new version replaces the bytes and resets the file's votes. The
 * automatic checks' result, with the parameters and checks version it was made with, is kept here.
 */
export const releaseFiles = pgTable(
  'release_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => releaseRequests.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => releaseGroups.id, { onDelete: 'cascade' }),
    notebookId: uuid('notebook_id').references(() => notebooks.id, { onDelete: 'set null' }),
    sourcePath: text('source_path').notNull(),
    name: text('name').notNull(),
    kind: text('kind').$type<ReleaseFileKind>().notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    version: integer('version').notNull().default(1),
    storageKey: text('storage_key').notNull(),
    magnitudeColumn: text('magnitude_column'),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    checkState: text('check_state').$type<CheckState>().notNull().default('PENDING'),
    checkVerdict: text('check_verdict').$type<CheckVerdict>(),
    checkFindings: jsonb('check_findings').$type<CheckFinding[]>().notNull().default([]),
    checkParameters: jsonb('check_parameters').$type<Record<string, unknown>>().notNull().default({}),
    checksVersion: text('checks_version'),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    checkError: text('check_error'),
  },
  (t) => [index('release_files_request_idx').on(t.requestId), index('release_files_sha256_idx').on(t.sha256)],
);

/** A checker's vote on one file (its current version: a new version deletes the file's votes). */
export const releaseVotes = pgTable(
  'release_votes',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => releaseFiles.id, { onDelete: 'cascade' }),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id),
    vote: text('vote').$type<ReviewVote>().notNull(),
    comment: text('comment'),
    votedAt: timestamp('voted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.reviewerId] })],
);

/** A checker's review of one round of a request: submitted once they have voted on every output file. */
export const releaseReviews = pgTable(
  'release_reviews',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => releaseRequests.id, { onDelete: 'cascade' }),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id),
    round: integer('round').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.reviewerId, t.round] })],
);

/** Comments on a request or one of its files: PRIVATE ones are for the checkers only. */
export const releaseComments = pgTable(
  'release_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => releaseRequests.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id').references(() => releaseFiles.id, { onDelete: 'set null' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    visibility: text('visibility').$type<CommentVisibility>().notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('release_comments_request_idx').on(t.requestId)],
);

/**
 * Every answer the platform has released with fresh counts (explorer runs, cohort sizes, the home
 * page's dataset summary, and any other aggregate that passes through the one disclosure path),
 * with the true person count and the set-difference sketch of its persons, per dataset (the
 * warehouse schema the persons were counted in; keys differ per load). A new answer whose persons
 * differ from one kept here by 1 to threshold − 1 is withheld (warehouse/release-ledger.ts). Never
 * shown to anyone: the true count and the sketch are what the released answer hides.
 */
export const releasedAnswers = pgTable(
  'released_answers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    dataset: text('dataset').notNull(),
    /** What released it: `explorer`, `cohort`, `dataset-summary`, … */
    kind: text('kind').notNull(),
    /** Which answer: a query execution, a cohort version, `unsaved`. */
    reference: text('reference'),
    userId: uuid('user_id'),
    personCount: integer('person_count').notNull(),
    sketch: jsonb('sketch').$type<{ counts: number[]; keySums: number[]; checkSums: number[] }>().notNull(),
    /**
     * The first part of the sketch as the ledger's checks hold it in memory (release-ledger.ts): its
     * 128 counts, then their 128 key sums modulo 2³² (as signed 32-bit numbers). Read apart from the
     * sketch, whose whole is read only for the kept sets the first parts do not rule out.
     */
    sketchFirstPart: integer('sketch_first_part').array().notNull(),
    /** The released result of a whole answer; null for a cell's row (its answer's row holds the result). */
    result: jsonb('result').$type<QueryResult>(),
    /**
     * Null for a whole answer's persons; for a released breakdown cell of an answer (its persons are
     * a released count too, and kept in the same pool): which cell, and the count it showed.
     */
    cell: jsonb('cell').$type<{ breakdown: string; key: string; label: string; shown: number }>(),
    createdAt: createdAt(),
  },
  (t) => [index('released_answers_dataset_count_idx').on(t.dataset, t.personCount)],
);

/**
 * A user's notebooks held after more data reached their browser in a day than the hard limit
 * allows (docs/outputs.md): while a hold is not lifted, they may not start or open a notebook, and
 * the proxy refuses their sessions. Only an administrator lifts it.
 */
export const notebookEgressHolds = pgTable(
  'notebook_egress_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The notebook whose traffic crossed the limit, and its workbench (kept when they are deleted). */
    notebookId: uuid('notebook_id').notNull(),
    workbenchId: uuid('workbench_id').notNull(),
    /** Bytes counted for the user in the day when the hold was placed, and the limit. */
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    limitBytes: bigint('limit_bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    liftedAt: timestamp('lifted_at', { withTimezone: true, mode: 'date' }),
    liftedBy: uuid('lifted_by').references(() => users.id),
  },
  (t) => [index('notebook_egress_holds_user_idx').on(t.userId)],
);

/**
 * A person's second factors: authenticator apps (TOTP) and passkeys / security keys (WebAuthn).
 * A TOTP factor is pending (`confirmed_at` null) until its first code is checked.
 */
export const mfaFactors = pgTable(
  'mfa_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'TOTP' | 'WEBAUTHN'>().notNull(),
    name: text('name').notNull(),
    /** TOTP: the base32 shared secret. */
    totpSecret: text('totp_secret'),
    /** TOTP: the last time step accepted; a code of that step or earlier is a replay. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** WebAuthn: the credential id (base64url), its COSE public key (base64url) and signature counter. */
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }),
    transports: text('transports').array(),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('mfa_factors_user_idx').on(t.userId), uniqueIndex('mfa_factors_credential_id_key').on(t.credentialId)],
);

/** Single-use recovery codes; only their SHA-256 is stored. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * The short-lived challenge between a checked password and the second factor. Only its SHA-256 is
 * stored; it is used once. `webauthn_challenge` is the WebAuthn challenge last handed out for it.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    webauthnChallenge: text('webauthn_challenge'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('mfa_challenges_token_hash_key').on(t.tokenHash)],
);

/** The WebAuthn registration challenge a signed-in person was last given (one at a time per person). */
export const webauthnRegistrations = pgTable('webauthn_registrations', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  challenge: text('challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});
