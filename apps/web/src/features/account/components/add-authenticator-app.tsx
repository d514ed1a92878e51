import { useState } from 'react';
import { Button, Input, Modal } from 'antd';
import type { TotpEnrolment } from '@hdp/contract';
import { useConfirmTotpEnrolmentMutation, useRenameMfaFactorMutation, useStartTotpEnrolmentMutation, type EnrolledFactor } from '../api/my-factors';

/**
 * Adding an authenticator app: the API's secret as a QR code and as text, then a code the app
 * shows, which confirms it (until then it does not count as a factor).
 */
export function AddAuthenticatorApp({ onEnrolled }: { onEnrolled: (enrolled: EnrolledFactor) => void }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [name, setName] = useState('Authenticator app');
  const [code, setCode] = useState('');
  const [start, starting] = useStartTotpEnrolmentMutation();
  const [confirm, confirming] = useConfirmTotpEnrolmentMutation();
  const [rename] = useRenameMfaFactorMutation();

  const open = async () => {
    const started = await start({}).unwrap().catch(() => null);
    if (started) setEnrolment(started);
  };
  const close = () => {
    setEnrolment(null);
    setCode('');
  };
  const submit = async () => {
    if (!enrolment) return;
    const enrolled = await confirm({ factorId: enrolment.factor_id, code: code.trim() }).unwrap().catch(() => null);
    if (!enrolled) return;
    // A name other than the default is given once the app counts as a factor.
    const chosen = name.trim();
    if (chosen && chosen !== enrolled.factor.name) await rename({ factorId: enrolled.factor.id, name: chosen }).unwrap().catch(() => null);
    close();
    onEnrolled(enrolled);
  };

  return (
    <>
      <Button onClick={() => void open()} loading={starting.isLoading}>
        Add an authenticator app
      </Button>
      <Modal
        title="Add an authenticator app"
        open={enrolment !== null}
        onCancel={close}
        okText="Confirm"
        onOk={() => void submit()}
        okButtonProps={{ loading: confirming.isLoading, disabled: !/^\d{6}$/.test(code.trim()) }}
        destroyOnHidden
      >
        {enrolment ? (
          <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            <p style={{ margin: 0 }}>Scan the QR code with your authenticator app, or type the key into it.</p>
            <img className="hdp-qr" src={enrolment.qr_code} alt="QR code to add this account to an authenticator app" width={200} height={200} />
            <p style={{ margin: 0 }}>
              Key: <span className="hdp-secret" data-testid="totp-secret">{enrolment.secret}</span>
            </p>
            <label>
              Name
              <Input value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
            </label>
            <label>
              Code from the app
              <Input value={code} inputMode="numeric" autoComplete="one-time-code" maxLength={6} onChange={(event) => setCode(event.target.value)} onPressEnter={() => void submit()} />
            </label>
          </div>
        ) : null}
      </Modal>
    </>
  );
}
