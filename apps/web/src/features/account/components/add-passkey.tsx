import { useState } from 'react';
import { Button, Input, Modal } from 'antd';
import { useRegisterWebauthnMutation, useWebauthnRegistrationOptionsMutation, type EnrolledFactor } from '../api/my-factors';
import { showToast } from '@/lib/errors/notifier';

/** Adding a passkey or security key: a name, then the browser's own prompt creates it. */
export function AddPasskey({ onEnrolled }: { onEnrolled: (enrolled: EnrolledFactor) => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('Passkey');
  const [busy, setBusy] = useState(false);
  const [options] = useWebauthnRegistrationOptionsMutation();
  const [register] = useRegisterWebauthnMutation();

  const create = async () => {
    setBusy(true);
    try {
      const optionsJSON = await options().unwrap().catch(() => null);
      if (!optionsJSON) return;
      const { startRegistration } = await import('@simplewebauthn/browser');
      let response;
      try {
        response = await startRegistration({ optionsJSON: optionsJSON as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
      } catch (error) {
        const closed = (error as { name?: string }).name === 'NotAllowedError';
        showToast({
          type: 'error',
          title: 'The passkey was not created.',
          description: closed ? 'The prompt was closed or timed out. Try again.' : 'This browser or device could not create a passkey here.',
        });
        return;
      }
      const enrolled = await register({ name: name.trim() || 'Passkey', response }).unwrap().catch(() => null);
      if (!enrolled) return;
      setOpen(false);
      onEnrolled(enrolled);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button onClick={() => setOpen(true)}>Add a passkey or security key</Button>
      <Modal title="Add a passkey or security key" open={open} onCancel={() => setOpen(false)} okText="Create passkey" onOk={() => void create()} okButtonProps={{ loading: busy }} destroyOnHidden>
        <p>Your device (fingerprint, face or PIN) or a security key will confirm it is you. Give it a name to tell it apart.</p>
        <label>
          Name
          <Input value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </label>
      </Modal>
    </>
  );
}
