import type { ComponentType, HTMLAttributes } from 'react';
import { AuditOutlined, ExperimentOutlined, FileOutlined, HomeOutlined, SafetyCertificateOutlined, SearchOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import type { Role } from '@hdp/contract';
import { rolesFor, type Permission } from '@hdp/contract/permissions';

/** One entry of the side bar. The permission decides, through the contract's matrix, who may open it. */
export interface SideBarItem {
  key: string;
  label: string;
  icon: ComponentType<HTMLAttributes<HTMLSpanElement>>;
  route: string;
  permission: Permission;
}

/** The side bar, top to bottom. */
export const SIDE_BAR_ITEMS: readonly SideBarItem[] = [
  { key: 'home', label: 'Home', icon: HomeOutlined, route: '/', permission: 'me:read' },
  { key: 'data-explorer', label: 'Data Explorer', icon: SearchOutlined, route: '/data-explorer', permission: 'dataExplorer:readSchema' },
  { key: 'cohorts', label: 'Cohorts', icon: TeamOutlined, route: '/cohorts', permission: 'cohorts:list' },
  { key: 'workbenches', label: 'Workbenches', icon: ExperimentOutlined, route: '/workbenches', permission: 'workbenches:list' },
  { key: 'documents', label: 'Documents', icon: FileOutlined, route: '/documents', permission: 'documents:read' },
  { key: 'review-outputs', label: 'Review outputs', icon: SafetyCertificateOutlined, route: '/review-outputs', permission: 'outputs:review' },
  { key: 'users', label: 'Users', icon: UserOutlined, route: '/users', permission: 'users:list' },
  { key: 'audit-log', label: 'Audit Log', icon: AuditOutlined, route: '/audit-log', permission: 'auditLog:read' },
];

const ROLE_NAMES: Record<Role, string> = {
  ADMIN: 'administrators',
  DATA_STEWARD: 'data stewards',
  RESEARCHER: 'researchers',
  AUDITOR: 'auditors',
};

/** Says who may open an item, for the tooltip of a disabled one: "Only administrators can open Users." */
export function whyDisabled(item: Pick<SideBarItem, 'label' | 'permission'>): string {
  const names = rolesFor(item.permission).map((role) => ROLE_NAMES[role]);
  const who = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return `Only ${who} can open ${item.label}.`;
}

/** The side-bar item whose route contains the current path. */
export function activeItemKey(pathname: string): string | undefined {
  return SIDE_BAR_ITEMS.find((item) => pathname === item.route || (item.route !== '/' && pathname.startsWith(`${item.route}/`)))?.key;
}
