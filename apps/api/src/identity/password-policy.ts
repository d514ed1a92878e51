import { judgePassword, type PasswordOwner } from '@hdp/contract/password-strength';
import { badRequest } from '../http/api-error';

/**
 * Why a new password is refused, or null when it is acceptable. The judgement is the contract's,
 * the same one the web app's strength meter shows, so what the meter calls strong is accepted here.
 */
export function passwordProblem(password: string, owner: PasswordOwner): string | null {
  return judgePassword(password, owner).problem;
}

/** Throws a 400 naming the field when the password breaks the policy. */
export function assertPasswordAcceptable(password: string, owner: PasswordOwner, field = 'password'): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw badRequest(`${field}: ${problem}`);
}
