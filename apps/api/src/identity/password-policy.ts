import { dictionary } from '@zxcvbn-ts/language-common';
import { LIMITS } from '@hdp/contract';
import { badRequest } from '../http/api-error';

/** About 49,000 of the most common passwords, compared case-insensitively. */
const COMMON_PASSWORDS = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < LIMITS.passwordMinLength) return `must be at least ${LIMITS.passwordMinLength} characters`;
  if (password.length > LIMITS.passwordMaxLength) return `must be at most ${LIMITS.passwordMaxLength} characters`;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return 'is one of the most common passwords; choose another';
  if (/^(.)\1+$/.test(password)) return 'is one character repeated; choose another';
  return null;
}

/** Throws a 400 naming the field when the password breaks the policy. */
export function assertPasswordAcceptable(password: string, field = 'password'): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(`${field}: ${problem}`);
}
