import { useId, useState, type FormEvent } from 'react';

/**
 * One code field and its button: an authenticator app's six digits or a recovery code. The code is
 * checked only for being there; the API judges it (and counts a wrong one against the back-off).
 */
export function CodeForm({
  label,
  help,
  kind,
  submitLabel,
  busy,
  onSubmit,
}: {
  label: string;
  help?: string;
  kind: 'totp' | 'recovery';
  submitLabel: string;
  busy: boolean;
  onSubmit: (code: string) => void;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const value = code.replace(/\s+/g, '');
    if (kind === 'totp' && !/^\d{6}$/.test(value)) return setProblem('Type the 6 digits the app shows now.');
    if (kind === 'recovery' && value.length < 8) return setProblem('Type one of your recovery codes.');
    setProblem(undefined);
    onSubmit(value);
  };
  const describedBy = [help ? `${id}-help` : undefined, problem ? `${id}-problem` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <form className="hdp-form" noValidate onSubmit={submit}>
      <div className="hdp-field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="hdp-input"
          name={kind === 'totp' ? 'totp' : 'recovery-code'}
          inputMode={kind === 'totp' ? 'numeric' : 'text'}
          autoComplete={kind === 'totp' ? 'one-time-code' : 'off'}
          autoCapitalize="off"
          spellCheck={false}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-required="true"
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
        />
        {help ? (
          <p id={`${id}-help`} className="hdp-field-help">
            {help}
          </p>
        ) : null}
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="hdp-field-error">
            {problem}
          </p>
        ) : null}
      </div>
      <button type="submit" className="hdp-button hdp-button-primary hdp-button-block" aria-busy={busy || undefined} disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
