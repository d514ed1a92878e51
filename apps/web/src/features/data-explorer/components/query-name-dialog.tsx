import { useEffect, useState } from 'react';
import { Input, Modal } from 'antd';

export interface QueryNameDialogProps {
  open: boolean;
  title: string;
  okText: string;
  initialName: string;
  busy: boolean;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}

/** Asks for a query's name (Save, Save as, Rename). */
export function QueryNameDialog({ open, title, okText, initialName, busy, onSubmit, onCancel }: QueryNameDialogProps) {
  const [name, setName] = useState(initialName);
  useEffect(() => {
    if (open) setName(initialName);
  }, [open, initialName]);
  const trimmed = name.trim();
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      onOk={() => trimmed && onSubmit(trimmed)}
      onCancel={onCancel}
      okButtonProps={{ disabled: !trimmed, loading: busy }}
      destroyOnHidden
    >
      <label htmlFor="query-name-input" style={{ display: 'block', marginBottom: 4 }}>
        Query name
      </label>
      <Input
        id="query-name-input"
        value={name}
        maxLength={200}
        autoFocus
        onChange={(event) => setName(event.target.value)}
        onPressEnter={() => trimmed && onSubmit(trimmed)}
      />
    </Modal>
  );
}
