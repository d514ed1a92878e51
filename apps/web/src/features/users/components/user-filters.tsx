import { Flex, Input, Select } from 'antd';
import { ROLES, USER_SOURCES, USER_STATUSES, type Role } from '@hdp/contract/user-lifecycle';
import { DEFAULT_FILTER } from '@/config/constants';
import { nextRolesFilter, type UserListState } from '../hooks/user-list-params';
import { ROLE_LABELS, SOURCE_LABELS, STATUS_LABELS } from '../labels';

const all = { value: DEFAULT_FILTER, label: DEFAULT_FILTER };

/** Search and the roles, status and user-source filters of the users table. */
export function UserFilters({ state, onChange }: { state: UserListState; onChange: (change: Partial<Omit<UserListState, 'page'>>) => void }) {
  return (
    <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
      <Input.Search
        aria-label="Search users by name or email"
        placeholder="Search by name or email"
        allowClear
        defaultValue={state.search}
        onSearch={(search) => onChange({ search })}
        style={{ width: 280 }}
      />
      <label style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <span>Roles</span>
        <Select
          aria-label="Roles"
          mode="multiple"
          value={state.roles}
          options={[all, ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))]}
          onChange={(values: (Role | typeof DEFAULT_FILTER)[]) => onChange({ roles: nextRolesFilter(state.roles, values) })}
          style={{ minWidth: 180 }}
        />
      </label>
      <label style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <span>Status</span>
        <Select
          aria-label="Status"
          value={state.status}
          options={[all, ...USER_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }))]}
          onChange={(status) => onChange({ status })}
          style={{ width: 130 }}
        />
      </label>
      <label style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <span>User source</span>
        <Select
          aria-label="User source"
          value={state.userSource}
          options={[all, ...USER_SOURCES.map((source) => ({ value: source, label: SOURCE_LABELS[source] }))]}
          onChange={(userSource) => onChange({ userSource })}
          style={{ width: 170 }}
        />
      </label>
    </Flex>
  );
}
