import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { judgePassword } from '@hdp/contract/password-strength';
import LocalPasswordForm from './local-password-form';

const EMAIL = 'wendy.weak@example.org';
const NAME = 'Wendy Weak';

/** The passwords the security review found accepted by the old rule, and the invitee's own email. */
const WEAK = ['Password123!', 'password123!', 'P@ssw0rd1234', 'abcdefghijkl', 'aaaaaaaaaaab', '1234567890123', 'welcome12345', 'changeme1234', 'Summer2024!!', EMAIL, 'WendyWeak2024!'];
const STRONG = ['marble kettle orbit sparrow', 'velvet compass drizzle', 'Tiger!Lily!1990'];

function renderForm() {
  const onSubmit = vi.fn();
  render(<LocalPasswordForm email={EMAIL} name={NAME} submitting={false} refusal={null} onSubmit={onSubmit} />);
  const password = screen.getByLabelText('New password');
  const type = (value: string) => {
    fireEvent.change(password, { target: { value } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value } });
  };
  return { onSubmit, type, meter: screen.getByRole('meter', { name: 'Password strength' }) };
}

describe('the strength meter and the API agree', { timeout: 30_000 }, () => {
  it("calls weak exactly what the API refuses, with the API's reason, and does not send it", async () => {
    const { onSubmit, type } = renderForm();
    for (const password of WEAK) {
      // The API answers 400 with `password: <problem>` for this judgement (apps/api/test/invitations.test.ts).
      const { problem, acceptable } = judgePassword(password, { email: EMAIL, name: NAME });
      expect(acceptable, password).toBe(false);
      type(password);
      expect(await screen.findByText(`Not accepted: the password ${problem}`, { exact: false })).toBeInTheDocument();
    }
    await userEvent.click(screen.getByRole('button', { name: 'Set password and activate account' }));
    expect(await screen.findByText(`This password ${judgePassword(WEAK.at(-1)!, { email: EMAIL, name: NAME }).problem}`)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('calls strong what the API accepts, and sends it', async () => {
    const { onSubmit, type, meter } = renderForm();
    for (const password of STRONG) {
      expect(judgePassword(password, { email: EMAIL, name: NAME }).acceptable, password).toBe(true);
      type(password);
      await waitFor(() => expect(screen.getByText('This password will be accepted.', { exact: false })).toBeInTheDocument());
      expect(meter).toHaveAttribute('aria-valuetext', 'Strong');
    }
    await userEvent.click(screen.getByRole('button', { name: 'Set password and activate account' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(STRONG.at(-1)));
  });
});
