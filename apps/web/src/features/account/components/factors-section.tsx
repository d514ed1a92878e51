import { useState } from 'react';
import { Button, Input, Modal, Popconfirm } from 'antd';
import type { MfaFactor } from '@hdp/contract';
import { RecoveryCodes } from '@/components/recovery-codes';
import { formatDate } from '@/lib/dates/format-date';
import { useGetMyMfaQuery, useRegenerateRecoveryCodesMutation, useRemoveMfaFactorMutation, useRenameMfaFactorMutation, type EnrolledFactor } from '../api/my-factors';
import { AddAuthenticatorApp } from './add-authenticator-app';
import { AddPasskey } from './add-passkey';

const KIND_LABEL: Record<MfaFactor['kind'], string> = { TOTP: 'Authenticator app', WEBAUTHN: 'Passkey or security key' };

/** One factor's row: its name and kind, when added and last used, rename and remove. */
function FactorRow({ factor, lastWhileRequired }: { factor: MfaFactor; lastWhileRequired: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(factor.name);
  const [rename, renameState] = useRenameMfaFactorMutation();
  const [remove, removal] = useRemoveMfaFactorMutation();
  const save = async () => {
    const done = await rename({ factorId: factor.id, name: name.trim() }).unwrap().catch(() => null);
    if (done) setRenaming(false);
  };
  return (
    <li className="hdp-account-row">
      <div>
        <strong>{factor.name}</strong>
        <div className="hdp-account-meta">
          {KIND_LABEL[factor.kind]} · added {formatDate(factor.created_at)} · {factor.last_used_at ? `last used ${formatDate(factor.last_used_at)}` : 'not used yet'}
        </div>
      </div>
      <div className="hdp-account-actions">
        <Button onClick={() => setRenaming(true)} aria-label={`Rename ${factor.name}`}>
          Rename
        </Button>
        <Popconfirm
          title={`Remove ${factor.name}?`}
          description={lastWhileRequired ? 'It is your only second factor: the platform will refuse unless you add another first.' : 'It will no longer sign you in.'}
          okText="Remove"
          okButtonProps={{ danger: true }}
          onConfirm={() => remove({ factorId: factor.id })}
        >
          <Button danger loading={removal.isLoading} aria-label={`Remove ${factor.name}`}>
            Remove
          </Button>
        </Popconfirm>
      </div>
      <Modal title="Rename second factor" open={renaming} onCancel={() => setRenaming(false)} okText="Save" onOk={() => void save()} okButtonProps={{ loading: renameState.isLoading, disabled: !name.trim() }} destroyOnHidden>
        <label>
          Name
          <Input value={name} maxLength={100} onChange={(event) => setName(event.target.value)} onPressEnter={() => void save()} />
        </label>
      </Modal>
    </li>
  );
}

/** The person's second factors and recovery codes: list, add, rename, remove, new codes (shown once). */
export function FactorsSection() {
  const { data, isLoading } = useGetMyMfaQuery();
  const [regenerate, regeneration] = useRegenerateRecoveryCodesMutation();
  const [codes, setCodes] = useState<string[] | null>(null);
  const onEnrolled = (enrolled: EnrolledFactor) => {
    if (enrolled.recovery_codes) setCodes(enrolled.recovery_codes);
  };
  const factors = data?.factors ?? [];
  const newCodes = async () => {
    const answer = await regenerate().unwrap().catch(() => null);
    if (answer) setCodes(answer.recovery_codes);
  };
  return (
    <section aria-labelledby="factors-heading" className="hdp-panel">
      <h2 id="factors-heading">Second factors</h2>
      <p className="hdp-account-meta">
        {data?.required
          ? 'This platform requires a second factor besides your password. Keep at least one; two (a passkey and an app) mean losing one does not lock you out.'
          : 'A second factor besides your password protects your account; once you have one, sign-in asks for it.'}
      </p>
      {isLoading ? <p aria-busy="true">Loading your second factors…</p> : null}
      {!isLoading && factors.length === 0 ? <p>You have no second factor yet.</p> : null}
      <ul className="hdp-account-list" aria-label="Your second factors">
        {factors.map((factor) => (
          <FactorRow key={factor.id} factor={factor} lastWhileRequired={Boolean(data?.required) && factors.length === 1} />
        ))}
      </ul>
      <div className="hdp-account-actions">
        <AddPasskey onEnrolled={onEnrolled} />
        <AddAuthenticatorApp onEnrolled={onEnrolled} />
      </div>
      <h3>Recovery codes</h3>
      <p className="hdp-account-meta">
        {data ? `${data.recovery_codes_left} of 10 unused.` : ''} Each signs you in once when you cannot use your second factor. New codes replace all the old ones.
      </p>
      <Popconfirm title="Make new recovery codes?" description="The codes you have now will stop working." okText="Make new codes" onConfirm={() => void newCodes()} disabled={factors.length === 0}>
        <Button loading={regeneration.isLoading} disabled={factors.length === 0}>
          Make new recovery codes
        </Button>
      </Popconfirm>
      <Modal title="Your new recovery codes" open={codes !== null} onCancel={() => setCodes(null)} footer={<Button type="primary" onClick={() => setCodes(null)}>I have saved them</Button>}>
        <p>They are shown only now: copy or download them and keep them somewhere safe. Each works once.</p>
        {codes ? <RecoveryCodes codes={codes} /> : null}
      </Modal>
    </section>
  );
}
