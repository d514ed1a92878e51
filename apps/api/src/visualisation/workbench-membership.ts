import type { WorkbenchMemberRole } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { workbenchRepository } from '../workbenches/workbench-repository';

/** What the visualisation route needs to know about a workbench and one person. */
export interface WorkbenchMembership {
  /** Whether the workbench exists at all (a refusal of an existing one is audited as a denial). */
  exists: boolean;
  /** The person's role in it, or null when they are not a member. */
  role: WorkbenchMemberRole | null;
}

/** The one place the visualisation tokens learn who belongs to a workbench: the workbenches' own repository. */
export async function workbenchMembershipOf(db: DbOrTx, workbenchId: string, userId: string): Promise<WorkbenchMembership> {
  const role = await workbenchRepository.memberRole(db, workbenchId, userId);
  if (role) return { exists: true, role };
  return { exists: (await workbenchRepository.findById(db, workbenchId)) !== undefined, role: null };
}
