import { z } from 'zod';
import { RELEASE_STATES, RELEASED_TABLES, REFUSAL_KINDS, WORKBENCH_LIMITS, WORKBENCH_MEMBER_ROLES } from '../workbench-rules';
import { ListQuery, listOf, Timestamp } from './common';
import { QueryGroup } from './data-explorer';

export {
  RELEASE_STATES,
  RELEASED_TABLES,
  REFUSAL_KINDS,
  WORKBENCH_LIMITS,
  WORKBENCH_MEMBER_ROLES,
  type RefusalKind,
  type ReleasedTable,
} from '../workbench-rules';

export const WorkbenchMemberRole = z.enum(WORKBENCH_MEMBER_ROLES);
export type WorkbenchMemberRole = z.infer<typeof WorkbenchMemberRole>;
export const ReleaseState = z.enum(RELEASE_STATES);
type ReleasedTableName = (typeof RELEASED_TABLES)[number];
export type ReleaseState = z.infer<typeof ReleaseState>;

const Person = z.object({ id: z.uuid(), email: z.string().nullable() });

/** Ids picked in the wizard: each at most once. */
const uniqueIds = (max: number, what: string) =>
  z
    .array(z.uuid())
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, { message: `each ${what} may be given once` });

/** A published cohort to release; `version` pins a version (default: the cohort's current one, or the one already pinned). */
export const WorkbenchCohortPick = z.object({ id: z.uuid(), version: z.number().int().min(1).optional() });

export const WorkbenchMemberPick = z.object({ id: z.uuid(), role: WorkbenchMemberRole });

/**
 * workbenchCreate. The creator becomes an OWNER whether or not `users` names them. Cohorts must be
 * PUBLISHED, queries the caller's own saved queries, documents the caller's own uploads, users
 * ACTIVE holders of a data role.
 */
export const WorkbenchCreate = z
  .object({
    name: z.string().trim().min(WORKBENCH_LIMITS.nameMinLength).max(WORKBENCH_LIMITS.nameMaxLength),
    purpose: z.string().trim().min(WORKBENCH_LIMITS.purposeMinLength).max(WORKBENCH_LIMITS.purposeMaxLength),
    cohorts: z
      .array(WorkbenchCohortPick)
      .max(WORKBENCH_LIMITS.maxCohorts)
      .refine((picks) => new Set(picks.map((c) => c.id)).size === picks.length, { message: 'each cohort may be given once' })
      .default([]),
    queries: uniqueIds(WORKBENCH_LIMITS.maxQueries, 'query').default([]),
    documents: uniqueIds(WORKBENCH_LIMITS.maxDocuments, 'document').default([]),
    users: z
      .array(WorkbenchMemberPick)
      .max(WORKBENCH_LIMITS.maxMembers)
      .refine((picks) => new Set(picks.map((u) => u.id)).size === picks.length, { message: 'each user may be given once' })
      .default([]),
  })
  .meta({ id: 'WorkbenchCreate' });
export type WorkbenchCreate = z.infer<typeof WorkbenchCreate>;

/**
 * workbenchUpdate: the whole workbench as it should be (PUT), with the `version` it was based on.
 * Queries and documents already in the workbench are named by the ids of their workbench copies
 * (`WorkbenchQuery.id`, `WorkbenchDocument.id`) or, to add one, by the original's id.
 */
export const WorkbenchUpdate = WorkbenchCreate.extend({ version: z.number().int().min(1) }).meta({ id: 'WorkbenchUpdate' });
export type WorkbenchUpdate = z.infer<typeof WorkbenchUpdate>;

export const WorkbenchMember = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: WorkbenchMemberRole,
});
export type WorkbenchMember = z.infer<typeof WorkbenchMember>;

/** A cohort version released to the workbench: its files and how far provisioning got. */
export const WorkbenchCohort = z.object({
  id: z.uuid(),
  name: z.string(),
  tags: z.array(z.string()),
  /** The pinned cohort version, and the cohort's newest published version (a newer one is a deliberate update). */
  version: z.number().int(),
  latest_version: z.number().int(),
  /**
   * The persons of `latest_version`, and whether it can be released now (the cohort is still
   * published and the data it was taken from are still served): what "Update to version N" offers.
   */
  latest_person_count_display: z.string().nullable(),
  latest_releasable: z.boolean(),
  person_count: z.number().int().nullable(),
  person_count_display: z.string(),
  state: ReleaseState,
  /** 0 to 1 while PROVISIONING. */
  progress: z.number().min(0).max(1),
  error: z.string().nullable(),
  /**
   * Rows written per table, once READY; `cohort_period` (the persons' cohort periods) only for a
   * cohort whose query has a cohort definition.
   */
  row_counts: z
    .object({
      ...(Object.fromEntries(RELEASED_TABLES.map((table) => [table, z.number().int().optional()])) as Record<ReleasedTableName, z.ZodOptional<z.ZodNumber>>),
      cohort_period: z.number().int().optional(),
    })
    .nullable(),
  released_at: Timestamp,
});
export type WorkbenchCohort = z.infer<typeof WorkbenchCohort>;

/** A saved query copied into the workbench (tree and name), so later edits of the original do not change it. */
export const WorkbenchQuery = z.object({
  id: z.uuid(),
  source_query_id: z.uuid().nullable(),
  name: z.string(),
  description: z.string(),
  query: QueryGroup,
  copied_at: Timestamp,
});
export type WorkbenchQuery = z.infer<typeof WorkbenchQuery>;

/** A document copied into the workbench. */
export const WorkbenchDocument = z.object({
  id: z.uuid(),
  source_document_id: z.uuid().nullable(),
  name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  copied_at: Timestamp,
});
export type WorkbenchDocument = z.infer<typeof WorkbenchDocument>;

/** What every list row and the detail share. */
const WorkbenchBase = z.object({
  id: z.uuid(),
  name: z.string(),
  purpose: z.string(),
  /** Bumped by every update; an update based on an older one is refused (409). */
  version: z.number().int(),
  /** The caller's role in the workbench; null for an ADMIN who is not a member. */
  my_role: WorkbenchMemberRole.nullable(),
  /** READY when every release is READY; PROVISIONING while any is PENDING or PROVISIONING; FAILED when one failed. */
  state: ReleaseState,
  created_by: Person,
  updated_by: Person,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const WorkbenchSummary = WorkbenchBase.extend({
  member_count: z.number().int(),
  cohort_count: z.number().int(),
  query_count: z.number().int(),
  document_count: z.number().int(),
}).meta({ id: 'WorkbenchSummary' });
export type WorkbenchSummary = z.infer<typeof WorkbenchSummary>;

export const Workbench = WorkbenchBase.extend({
  members: z.array(WorkbenchMember),
  cohorts: z.array(WorkbenchCohort),
  queries: z.array(WorkbenchQuery),
  documents: z.array(WorkbenchDocument),
}).meta({ id: 'Workbench' });
export type Workbench = z.infer<typeof Workbench>;

export const WorkbenchList = listOf('workbenches', WorkbenchSummary).meta({ id: 'WorkbenchList' });
export type WorkbenchList = z.infer<typeof WorkbenchList>;

export const WorkbenchListQuery = ListQuery.pick({ skip: true, limit: true, search: true });

/** One part of a create or update that was not applied, and why. */
export const WorkbenchRefusal = z.object({ kind: z.enum(REFUSAL_KINDS), id: z.uuid(), reason: z.string() });
export type WorkbenchRefusal = z.infer<typeof WorkbenchRefusal>;

/**
 * The 418 answer: the rest of the change was applied; `workbench` is the result and `refused`
 * lists what was not, so the user can review and resubmit.
 */
export const WorkbenchSubmittedWithErrors = z
  .object({ detail: z.string(), workbench: Workbench, refused: z.array(WorkbenchRefusal).min(1) })
  .meta({ id: 'WorkbenchSubmittedWithErrors' });
export type WorkbenchSubmittedWithErrors = z.infer<typeof WorkbenchSubmittedWithErrors>;

// Compute catalogue (read from the operator's catalogue file)

export const Zone = z.object({ name: z.string(), description: z.string(), is_default: z.boolean() }).meta({ id: 'Zone' });
export const ZoneList = z.object({ zones: z.array(Zone) }).meta({ id: 'ZoneList' });
export type ZoneList = z.infer<typeof ZoneList>;

export const MachineType = z
  .object({
    name: z.string(),
    description: z.string(),
    vcpus: z.number().int().min(1),
    memory_gb: z.number().positive(),
    is_default: z.boolean(),
    /** What the machine type maps to on this deployment's notebook runtime. */
    runtime: z.object({ cpu_limit: z.number().positive(), memory_limit_mb: z.number().int().positive(), max_processes: z.number().int().positive() }),
  })
  .meta({ id: 'MachineType' });
export const MachineTypeList = z.object({ machine_types: z.array(MachineType) }).meta({ id: 'MachineTypeList' });
export type MachineTypeList = z.infer<typeof MachineTypeList>;

export const AcceleratorType = z
  .object({ name: z.string(), description: z.string(), max_count: z.number().int().min(1) })
  .meta({ id: 'AcceleratorType' });
export const AcceleratorTypeList = z.object({ accelerator_types: z.array(AcceleratorType) }).meta({ id: 'AcceleratorTypeList' });
export type AcceleratorTypeList = z.infer<typeof AcceleratorTypeList>;

export const NotebookEnvironment = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    language: z.enum(['python', 'r']),
    packages: z.array(z.string()),
    is_default: z.boolean(),
  })
  .meta({ id: 'NotebookEnvironment' });
export const NotebookEnvironmentList = z.object({ environments: z.array(NotebookEnvironment) }).meta({ id: 'NotebookEnvironmentList' });
export type NotebookEnvironmentList = z.infer<typeof NotebookEnvironmentList>;
