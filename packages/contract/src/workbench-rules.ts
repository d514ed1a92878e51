/**
 * Workbench rules without zod: the web app's browser bundle imports this entry
 * (`@hdp/contract/workbench-rules`) for the wizard's limits and the member roles.
 */

/** A member's role inside a workbench. OWNERs edit and delete it; WRITERs work in it; READERs read it. */
export const WORKBENCH_MEMBER_ROLES = ['OWNER', 'WRITER', 'READER'] as const;
export type WorkbenchMemberRole = (typeof WORKBENCH_MEMBER_ROLES)[number];

/**
 * Provisioning state of one release of data to a workbench: PENDING until a job takes it,
 * PROVISIONING while files are written, READY when they are all there, FAILED with a reason.
 */
export const RELEASE_STATES = ['PENDING', 'PROVISIONING', 'READY', 'FAILED'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];

/** The limits of the workbench wizard and of workbenchCreate / workbenchUpdate. */
export const WORKBENCH_LIMITS = {
  nameMinLength: 3,
  nameMaxLength: 100,
  /** The wizard's minimum: a research purpose says what the data is for, in at least this many characters. */
  purposeMinLength: 50,
  purposeMaxLength: 5000,
  maxCohorts: 20,
  maxQueries: 50,
  maxDocuments: 50,
  maxMembers: 100,
} as const;

/** The OMOP CDM tables released to a workbench for each cohort, in this order. */
export const RELEASED_TABLES = [
  'person',
  'observation_period',
  'visit_occurrence',
  'condition_occurrence',
  'drug_exposure',
  'procedure_occurrence',
  'measurement',
  'observation',
  'death',
] as const;
export type ReleasedTable = (typeof RELEASED_TABLES)[number];

/** What a part of a workbench update can be refused for (the 418 answer lists them). */
export const REFUSAL_KINDS = ['cohort', 'query', 'document', 'user'] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];
