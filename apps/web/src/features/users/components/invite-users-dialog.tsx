import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal, Radio, Table, Tag } from 'antd';
import type { InviteUsersResponse } from '@hdp/contract';
import { ROLES, USER_SOURCES, type Role, type UserSource } from '@hdp/contract/user-lifecycle';
import { detailOf } from '@/lib/errors/api-error-handler';
import { useInviteUsersMutation } from '../api/invite-users';
import { parseInvitees } from '../invitees';
import { ROLE_LABELS, SOURCE_LABELS } from '../labels';
import { useOrganisationSignIn } from '../hooks/use-organisation-sign-in';

type Outcome = InviteUsersResponse['results'][number];

const OUTCOMES: Record<Outcome['outcome'], { label: string; colour: string }> = {
  INVITED: { label: 'Invited', colour: '#2b6a0f' },
  ALREADY_EXISTS: { label: 'Already exists', colour: '#8a3c00' },
  DUPLICATE_IN_REQUEST: { label: 'Listed twice', colour: '#595959' },
};

interface FormValues {
  addresses: string;
  roles: Role[];
  userSource: UserSource;
}

/** What the dialog says about one address. */
function outcomeDetail(result: Outcome): string {
  if (result.outcome === 'INVITED') return result.email_sent ? 'Invitation e-mailed.' : 'Invited, but the e-mail could not be sent; re-send it later.';
  return result.detail ?? '';
}

/**
 * Invites several people at once: addresses (one a line, optionally "Name <address>"), their
 * roles and where their identity lives. Shows the API's outcome for every address.
 */
export default function InviteUsersDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const [invite, { isLoading }] = useInviteUsersMutation();
  const [results, setResults] = useState<Outcome[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // An external-identity invitation cannot be accepted without sign-in with an organisation.
  const organisationSignIn = useOrganisationSignIn(open);
  const addresses = Form.useWatch('addresses', form) ?? '';
  const parsed = useMemo(() => parseInvitees(addresses), [addresses]);

  const submit = async (values: FormValues) => {
    setRefusal(null);
    const { invitees } = parseInvitees(values.addresses);
    const result = await invite({
      invitations: invitees.map((invitee) => ({ ...invitee, roles: values.roles, user_source: values.userSource })),
    });
    if ('error' in result) {
      const error = result.error as { data?: unknown };
      setRefusal(detailOf(error.data) ?? 'The invitations could not be sent. Please try again.');
    } else {
      setResults(result.data.results);
    }
  };

  const invited = results?.filter((r) => r.outcome === 'INVITED').length ?? 0;

  return (
    <Modal
      open={open}
      title="Invite users"
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={
        results
          ? [
              <Button key="more" onClick={() => { setResults(null); form.resetFields(['addresses']); }}>
                Invite more
              </Button>,
              <Button key="done" type="primary" onClick={onClose}>
                Done
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                Cancel
              </Button>,
              <Button key="send" type="primary" loading={isLoading} onClick={() => form.submit()}>
                Send invitations
              </Button>,
            ]
      }
    >
      {results ? (
        <>
          <p>
            {invited} of {results.length} {results.length === 1 ? 'address' : 'addresses'} invited.
          </p>
          <Table<Outcome>
            aria-label="Invitation results"
            rowKey={(row, index) => `${row.email}-${index}`}
            size="small"
            pagination={false}
            dataSource={results}
            columns={[
              { title: 'Email', dataIndex: 'email', key: 'email' },
              {
                title: 'Outcome',
                key: 'outcome',
                render: (_, row) => <Tag color={OUTCOMES[row.outcome].colour}>{OUTCOMES[row.outcome].label}</Tag>,
              },
              { title: 'Detail', key: 'detail', render: (_, row) => outcomeDetail(row) },
            ]}
          />
        </>
      ) : (
        <Form<FormValues>
          form={form}
          layout="vertical"
          initialValues={{ addresses: '', roles: ['RESEARCHER'], userSource: 'LOCAL' }}
          onFinish={submit}
          requiredMark={false}
        >
          {refusal ? <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} /> : null}
          <Form.Item
            name="addresses"
            label="Email addresses"
            extra="One a line, or separated by commas. Add a name as: Ada Lovelace <ada@example.org>"
            rules={[
              { required: true, message: 'Give at least one address.' },
              {
                validator: async (_, value: string) => {
                  const { invitees, invalid } = parseInvitees(value ?? '');
                  if (invalid.length > 0) throw new Error(`Not an email address: ${invalid.join(', ')}`);
                  if (invitees.length > 100) throw new Error('Invite at most 100 people at once.');
                },
              },
            ]}
          >
            <Input.TextArea rows={5} placeholder={'ada@example.org\nGrace Hopper <grace@example.org>'} />
          </Form.Item>
          {parsed.invitees.length > 0 ? (
            <p style={{ marginTop: -8 }}>
              {parsed.invitees.length} {parsed.invitees.length === 1 ? 'address' : 'addresses'}
            </p>
          ) : null}
          {/* A validator rather than `required`: antd would put aria-required on the group, which ARIA does not allow. */}
          <Form.Item
            name="roles"
            label="Roles"
            rules={[
              {
                validator: async (_, value: Role[] | undefined) => {
                  if (!value?.length) throw new Error('Give at least one role.');
                },
              },
            ]}
          >
            <Checkbox.Group role="group" aria-label="Roles" options={ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))} />
          </Form.Item>
          <Form.Item
            name="userSource"
            label="Signs in with"
            extra={
              organisationSignIn === false ? (
                <span data-testid="no-organisation-sign-in">
                  {SOURCE_LABELS.EXTERNAL} cannot be chosen: sign-in with an organisation is not set up on this platform (OIDC_ISSUER and OIDC_CLIENT_ID, see docs/configuration.md), so such an invitation could not be accepted.
                </span>
              ) : undefined
            }
          >
            <Radio.Group
              options={USER_SOURCES.map((source) => ({ value: source, label: SOURCE_LABELS[source], disabled: source === 'EXTERNAL' && organisationSignIn === false }))}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
