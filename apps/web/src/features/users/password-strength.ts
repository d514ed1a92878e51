import type { PasswordJudgement, PasswordOwner } from '@hdp/contract/password-strength';

export type { PasswordJudgement, PasswordOwner };

type Judge = (password: string, owner: PasswordOwner) => PasswordJudgement;

let loading: Promise<Judge> | null = null;

/**
 * Loads the password rule on first use: it is the contract's, the one the API refuses passwords
 * with, so the meter never calls strong what the server refuses. zxcvbn and its dictionaries weigh
 * about a megabyte, so they stay out of the page's first load.
 */
export function loadPasswordJudge(): Promise<Judge> {
  loading ??= import('@hdp/contract/password-strength').then((rule) => rule.judgePassword);
  return loading;
}
