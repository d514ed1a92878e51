import { useState } from 'react';
import { Button, Select, type TableColumnsType } from 'antd';
import type { Me } from '@hdp/contract';
import { WORKBENCH_LIMITS, WORKBENCH_MEMBER_ROLES, type WorkbenchMemberRole } from '@hdp/contract/workbench-rules';
import { LIMITS } from '@hdp/contract/limits';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { CANDIDATE_LIMIT, useMemberCandidates, type MemberCandidate } from '../../hooks/use-member-candidates';
import { MEMBER_ROLE_HELP, MEMBER_ROLE_LABELS } from '../../labels';
import { memberAdded, memberRemoved, memberRoleChanged, selectWorkbenchWizard, type PickedMember } from '../../slice';
import { isLastOwnerSelf } from '../../wizard-rules';
import { CardTable } from '@/components/card-table';

const ROLE_OPTIONS = WORKBENCH_MEMBER_ROLES.map((role) => ({ value: role, label: `${MEMBER_ROLE_LABELS[role]}: ${MEMBER_ROLE_HELP[role]}` }));
const SHORT_ROLE_OPTIONS = WORKBENCH_MEMBER_ROLES.map((role) => ({ value: role, label: MEMBER_ROLE_LABELS[role] }));
const MUTED = { color: '#5b6470', fontSize: 13 } as const;
const LAST_OWNER = 'You are the only owner: make someone else an owner first.';

/** What the person field's list says when it offers no one. */
function nobodyText(search: string, found: number, state: { tooShort: boolean; isFetching: boolean; isError: boolean }): string {
  if (state.tooShort) return `Type at least ${LIMITS.directorySearchMinLength} characters of a name or an email.`;
  if (state.isError) return 'People could not be loaded.';
  if (state.isFetching) return 'Searching…';
  if (found > 0) return `Everyone found for “${search.trim()}” is already a member.`;
  return `No one found for “${search.trim()}”.`;
}

/** Adds a person: a search of the member directory and their role. */
function AddMember() {
  const dispatch = useAppDispatch();
  const { users } = useAppSelector(selectWorkbenchWizard);
  const [search, setSearch] = useState('');
  // The person picked, kept whole: the search text (and with it the people offered) may change after picking.
  const [chosen, setChosen] = useState<MemberCandidate | undefined>();
  const [role, setRole] = useState<WorkbenchMemberRole>('READER');
  const { candidates, more, tooShort, isFetching, isError } = useMemberCandidates(search);
  const members = new Set(users.map((user) => user.id));
  const offered = candidates.filter((candidate) => !members.has(candidate.id));
  const full = users.length >= WORKBENCH_LIMITS.maxMembers;
  // The picked person stays an option (so the field shows them) whatever the search now finds.
  const options = (chosen && !offered.some((candidate) => candidate.id === chosen.id) ? [chosen, ...offered] : offered).map((candidate) => ({
    value: candidate.id,
    label: candidate.name ? `${candidate.name} (${candidate.email})` : candidate.email,
  }));

  return (
    <section aria-labelledby="add-member" style={{ marginBottom: 24 }}>
      <h3 id="add-member" style={{ fontSize: 15, fontWeight: 600, margin: '0 0 8px' }}>
        Add a member
      </h3>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'end' }}>
        <label style={{ display: 'flex', flexDirection: 'column', gap: 4, minWidth: 0, maxWidth: '100%' }}>
          <span>Person (name or email)</span>
          <Select
            aria-label="Person (name or email)"
            showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
            allowClear
            placeholder="Type a name or an email"
            value={chosen?.id}
            onChange={(value?: string) => setChosen(offered.find((candidate) => candidate.id === value))}
            options={options}
            loading={isFetching}
            notFoundContent={
              <span style={{ color: '#595959' }}>{nobodyText(search, candidates.length, { tooShort, isFetching, isError })}</span>
            }
            style={{ width: 340, maxWidth: '100%' }}
          />
        </label>
        <label style={{ display: 'flex', flexDirection: 'column', gap: 4, minWidth: 0, maxWidth: '100%' }}>
          <span>Role</span>
          <Select<WorkbenchMemberRole> aria-label="Role" value={role} onChange={setRole} options={ROLE_OPTIONS} style={{ width: 300, maxWidth: '100%' }} />
        </label>
        <Button
          disabled={!chosen || full}
          onClick={() => {
            if (!chosen) return;
            dispatch(memberAdded({ ...chosen, role }));
            setChosen(undefined);
            setSearch('');
          }}
        >
          Add member
        </Button>
      </div>
      <p style={{ ...MUTED, margin: '8px 0 0' }}>
        Find any active user with a data role (researcher, data steward or administrator) by at least{' '}
        {LIMITS.directorySearchMinLength} characters of their name or email.
        {more ? ` More than ${CANDIDATE_LIMIT} people match “${search.trim()}”: type more of the name or email.` : ''}
        {full ? ` A workbench can have at most ${WORKBENCH_LIMITS.maxMembers} members.` : ''}
      </p>
    </section>
  );
}

/** The users step: the members with their roles, and a way to add more. The creator stays OWNER while the only one. */
export function UsersStep({ me, showProblems, problems }: { me: Me; showProblems: boolean; problems: string[] }) {
  const dispatch = useAppDispatch();
  const { users } = useAppSelector(selectWorkbenchWizard);
  const columns: TableColumnsType<PickedMember> = [
    {
      key: 'person', title: 'Member',
      render: (_value, member) => (
        <>
          <div>{member.name ?? member.email}</div>
          {member.name ? <div style={MUTED}>{member.email}</div> : null}
          {member.id === me.id ? <div style={MUTED}>You</div> : null}
        </>
      ),
    },
    {
      key: 'role', title: 'Role',
      render: (_value, member) => {
        const locked = isLastOwnerSelf(users, member.id, me.id);
        return (
          <Select<WorkbenchMemberRole>
            aria-label={`Role of ${member.email}`}
            value={member.role}
            disabled={locked}
            title={locked ? LAST_OWNER : undefined}
            onChange={(role) => dispatch(memberRoleChanged({ id: member.id, role }))}
            options={SHORT_ROLE_OPTIONS}
            style={{ width: 130 }}
          />
        );
      },
    },
    {
      key: 'actions', title: 'Actions',
      render: (_value, member) => {
        const locked = isLastOwnerSelf(users, member.id, me.id);
        return (
          <>
            <Button
              danger
              size="small"
              aria-label={`Remove ${member.email}`}
              disabled={locked}
              aria-describedby={locked ? 'last-owner-note' : undefined}
              onClick={() => dispatch(memberRemoved(member.id))}
            >
              Remove
            </Button>
            {locked ? (
              <div id="last-owner-note" style={MUTED}>
                {LAST_OWNER}
              </div>
            ) : null}
          </>
        );
      },
    },
  ];
  return (
    <>
      <p style={{ margin: '0 0 16px' }}>
        Owners edit and delete the workbench, writers work in it, readers read it. Only members can open it and its data.
      </p>
      <AddMember />
      <section aria-labelledby="members-heading">
        <h3 id="members-heading" style={{ fontSize: 15, fontWeight: 600, margin: '0 0 8px' }}>
          Members ({users.length})
        </h3>
        {/* On a phone each member is a card: name, role and Remove (or why not) stay within the screen. */}
        <CardTable<PickedMember> columns={columns} rows={users} />
      </section>
      {showProblems && problems.length > 0 ? (
        <ul role="alert" style={{ color: '#cf1322', margin: '8px 0 0', paddingInlineStart: 20 }}>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
