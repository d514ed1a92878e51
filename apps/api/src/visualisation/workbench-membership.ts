import type { WorkbenchMemberRole } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { notImplemented } from '../http/api-error';

/** What the visualisation route needs to know about a workbench and one person. */
export interface WorkbenchMembership {
  /** Whether the workbench exists at all (a refusal of an existing one is audited as a denial). */
  exists: boolean;
  /** The person's role in it, or null when they are not a member. */
  role: WorkbenchMemberRole | null;
}

/**
 * The one place the visualisation tokens learn who belongs to a workbench. Workbenches are not
 * stored yet, so until they are every call answers 501, as the route did before.
 */
export async function workbenchMembershipOf(_db: DbOrTx, _workbenchId: string, _userId: string): Promise<WorkbenchMembership> {
  throw notImplemented('Dashboards need workbenches, which are not implemented yet.');
}
