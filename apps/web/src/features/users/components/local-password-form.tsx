import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LIMITS } from '@hdp/contract/limits';
import { Notice } from '@/components/notice';
import { loadPasswordJudge, type PasswordOwner } from '../password-strength';
import { PasswordStrengthMeter } from './password-strength-meter';

type Field = 'password' | 'confirm';
type Problems = Partial<Record<Field, string>>;

export const PASSWORD_HELP = `${LIMITS.passwordMinLength} to ${LIMITS.passwordMaxLength} characters. A few unrelated words make a strong one.`;

/** What is wrong with the new password, the API's own rule last: a password it would refuse is not sent. */
async function passwordProblem(password: string, owner: PasswordOwner): Promise<string | undefined> {
  if (!password) return 'Choose a password.';
  if (password.length < LIMITS.passwordMinLength) return `Use at least ${LIMITS.passwordMinLength} characters.`;
  if (password.length > LIMITS.passwordMaxLength) return `Use at most ${LIMITS.passwordMaxLength} characters.`;
  const { problem } = (await loadPasswordJudge())(password, owner);
  return problem ? `This password ${problem}` : undefined;
}

function confirmationProblem(confirmation: string, password: string): string | undefined {
  if (!confirmation) return 'Type the password again.';
  return confirmation === password ? undefined : 'The passwords do not match.';
}

/**
 * One password field: its label, the input with a switch that shows what was typed (a 30 px touch
 * target), what is wrong with it (tied to the input) and any help below.
 */
function PasswordField({
  id,
  name,
  label,
  value,
  problem,
  helpId,
  children,
  onChange,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  problem: string | undefined;
  /** The help's id, when `children` is help the input should be described by. */
  helpId?: string;
  children?: ReactNode;
  onChange: (value: string) => void;
}) {
  const [shown, setShown] = useState(false);
  const problemId = `${id}-problem`;
  const describedBy = [helpId, problem ? problemId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="hdp-field">
      <label htmlFor={id}>{label}</label>
      <span className="hdp-password" data-invalid={problem ? 'true' : undefined}>
        <input
          id={id}
          name={name}
          type={shown ? 'text' : 'password'}
          autoComplete="new-password"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-required="true"
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
        />
        <button type="button" aria-label="Show password" aria-pressed={shown} aria-controls={id} onClick={() => setShown((now) => !now)}>
          <svg viewBox="0 0 16 16" aria-hidden focusable="false" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round">
            <path d="M1 8s2.5-5 7-5 7 5 7 5-2.5 5-7 5-7-5-7-5Z" />
            <circle cx="8" cy="8" r="2.2" />
            {shown ? null : <path d="M2.5 13.5 13.5 2.5" />}
          </svg>
        </button>
      </span>
      {problem ? (
        <p id={problemId} role="alert" className="hdp-field-error">
          {problem}
        </p>
      ) : null}
      {children}
    </div>
  );
}

/**
 * The password a local account is created with: typed twice, judged as the API judges it, with a
 * strength meter. Plain markup (no form library): each field is checked as it changes and both
 * before sending, with the reason under the field.
 */
export default function LocalPasswordForm({
  email,
  name,
  submitting,
  refusal,
  onSubmit,
}: {
  email: string;
  name: string | null;
  submitting: boolean;
  refusal: string | null;
  onSubmit: (password: string) => void;
}) {
  const id = useId();
  const ids = { password: `${id}-password`, confirm: `${id}-confirm`, help: `${id}-help` };
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  // The password's check is asynchronous: only the latest one's answer is shown.
  const passwordCheck = useRef(0);
  const confirmationTouched = useRef(false);

  const checkPassword = async (value: string): Promise<string | undefined> => {
    const check = ++passwordCheck.current;
    const problem = await passwordProblem(value, { email, name });
    if (check === passwordCheck.current) setProblems((now) => ({ ...now, password: problem }));
    return problem;
  };
  const checkConfirmation = (value: string, against: string): string | undefined => {
    const problem = confirmationProblem(value, against);
    setProblems((now) => ({ ...now, confirm: problem }));
    return problem;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    confirmationTouched.current = true;
    const confirmProblem = checkConfirmation(confirmation, password);
    const problem = await checkPassword(password);
    if (!problem && !confirmProblem) onSubmit(password);
  };

  return (
    <form className="hdp-form" noValidate onSubmit={(event) => void submit(event)}>
      {refusal ? <Notice type="error" title={refusal} /> : null}
      {/* Lets password managers store the new password under the right account. */}
      <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
      <PasswordField
        id={ids.password}
        name="password"
        label="New password"
        value={password}
        problem={problems.password}
        helpId={ids.help}
        onChange={(value) => {
          setPassword(value);
          void checkPassword(value);
          if (confirmationTouched.current) checkConfirmation(confirmation, value);
        }}
      >
        <p id={ids.help} className="hdp-field-help">
          {PASSWORD_HELP}
        </p>
        <PasswordStrengthMeter password={password} email={email} name={name} />
      </PasswordField>
      <PasswordField
        id={ids.confirm}
        name="confirm"
        label="Confirm password"
        value={confirmation}
        problem={problems.confirm}
        onChange={(value) => {
          setConfirmation(value);
          confirmationTouched.current = true;
          checkConfirmation(value, password);
        }}
      />
      <button type="submit" className="hdp-button hdp-button-primary hdp-button-block" aria-busy={submitting || undefined}>
        {submitting ? <span className="hdp-spinner hdp-spinner-small" aria-hidden /> : null}
        Set password and activate account
      </button>
    </form>
  );
}
