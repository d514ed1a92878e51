import { can, type Actor, type Permission } from '@hdp/contract/permissions';

/** Something a user can do next, offered on the home page when their roles allow it. */
export interface NextStep {
  key: string;
  title: string;
  description: string;
  href: string;
  permission: Permission;
}

export const NEXT_STEPS: readonly NextStep[] = [
  { key: 'explore', title: 'Build a query', description: 'Count the persons who match your criteria, with breakdowns by sex, age, race and ethnicity.', href: '/data-explorer', permission: 'dataExplorer:readSchema' },
  { key: 'cohorts', title: 'Browse cohorts', description: 'Find published cohorts to reuse, and review your own.', href: '/cohorts', permission: 'cohorts:list' },
  { key: 'workbench', title: 'Create a workbench', description: 'Bring cohorts, queries and colleagues together and analyse them in notebooks.', href: '/workbenches/new', permission: 'workbenches:create' },
  { key: 'documents', title: 'Share a document', description: 'Upload protocols and approvals for your colleagues.', href: '/documents', permission: 'documents:read' },
  { key: 'users', title: 'Manage users', description: 'Invite people, and disable or enable accounts.', href: '/users', permission: 'users:list' },
  { key: 'audit', title: 'Review the audit log', description: 'See who did what and when, filter by person, event or date, and verify the chain.', href: '/audit-log', permission: 'auditLog:read' },
];

/** The next steps an actor's roles allow, in the order above. */
export function nextStepsFor(actor: Actor | null | undefined): NextStep[] {
  return NEXT_STEPS.filter((step) => can(actor, step.permission));
}
