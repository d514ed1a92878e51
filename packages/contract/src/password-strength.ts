// The declarations of the English modules below; the API and the web app compile this file too.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./zxcvbn-language-en.d.ts" />
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import commonWords from '@zxcvbn-ts/language-en/dist/commonWords.json.mjs';
import firstnames from '@zxcvbn-ts/language-en/dist/firstnames.json.mjs';
import wordSequences from '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs';
import translations from '@zxcvbn-ts/language-en/dist/translations.mjs';
import { LIMITS } from './limits';

/**
 * The one judgement of a new password, used by the API (which refuses) and the web app's strength
 * meter (which loads this module lazily: the dictionaries weigh about a megabyte). Following NIST
 * SP 800-63B there are no composition rules: a length range, and zxcvbn's estimate of how many
 * guesses the password takes against lists of breached and common passwords, English words and
 * names, keyboard patterns, sequences, dates, and the person's own name and email.
 */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export const STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

export interface PasswordJudgement {
  score: PasswordScore;
  label: (typeof STRENGTH_LABELS)[PasswordScore];
  acceptable: boolean;
  /** Why it is refused and what to do, worded to follow the field name (`password: …`); null when acceptable. */
  problem: string | null;
}

/** Whose password it is: their name and email are the first guesses an attacker tries. */
export interface PasswordOwner {
  email?: string | null;
  name?: string | null;
}

/**
 * zxcvbn's English texts, with ours where they read badly or advise composition rules (which NIST
 * 800-63B advises against); an empty suggestion is left out.
 */
const TEXTS = {
  ...translations,
  warnings: { ...translations.warnings, userInputs: 'It contains your name or email address.' },
  suggestions: { ...translations.suggestions, allUppercase: '', capitalization: '', anotherWord: '', noNeed: '' },
};

/**
 * English common words, first names and the small lists (months, seasons, colours, …), imported
 * one by one. Left out: the surname and Wikipedia lists, most of the weight the meter would load,
 * which changed no verdict at the minimum score in our samples.
 */
const english = { 'commonWords-en': commonWords, 'firstnames-en': firstnames, ...wordSequences };

let estimator: ZxcvbnFactory | undefined;
const zxcvbn = () =>
  (estimator ??= new ZxcvbnFactory({ dictionary: { ...commonDictionary, ...english }, graphs: adjacencyGraphs, translations: TEXTS }));

/** The owner's words: the email whole and in parts, and the name whole and word by word. */
export function ownerWords({ email, name }: PasswordOwner): string[] {
  const words = new Set<string>();
  const add = (word: string | undefined) => {
    const trimmed = word?.trim().toLowerCase();
    if (trimmed && trimmed.length > 1) words.add(trimmed);
  };
  if (email) {
    add(email);
    const [local, domain] = email.split('@');
    add(local);
    local?.split(/[._+-]+/).forEach(add);
    domain?.split('.').forEach(add);
  }
  if (name) {
    add(name);
    add(name.replace(/\s+/g, ''));
    name.split(/[\s._-]+/).forEach(add);
  }
  return [...words];
}

const ADVICE = 'A few unrelated words make a strong one.';

/** Judges a new password for its owner: acceptable from `LIMITS.passwordMinScore` up, within the length range. */
export function judgePassword(password: string, owner: PasswordOwner = {}): PasswordJudgement {
  const refuse = (score: PasswordScore, problem: string): PasswordJudgement => ({ score, label: STRENGTH_LABELS[score], acceptable: false, problem });
  if (password.length > LIMITS.passwordMaxLength) return refuse(0, `must be at most ${LIMITS.passwordMaxLength} characters`);
  const { score, feedback } = zxcvbn().check(password, ownerWords(owner));
  if (password.length < LIMITS.passwordMinLength) return refuse(score, `must be at least ${LIMITS.passwordMinLength} characters. ${ADVICE}`);
  if (score >= LIMITS.passwordMinScore) return { score, label: STRENGTH_LABELS[score], acceptable: true, problem: null };
  const why = feedback.warning ?? 'It follows a pattern that is among the first guessed, such as a word with a year or symbols added.';
  const what = feedback.suggestions.filter(Boolean).join(' ');
  return refuse(score, `is too easy to guess. ${why} ${what ? `${what} ` : ''}${ADVICE}`);
}
