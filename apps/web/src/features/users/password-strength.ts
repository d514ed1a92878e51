/** A password's strength: zxcvbn's score from 0 (guessable) to 4 (very hard to guess). */
export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4;
  label: string;
}

export const STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;

type Estimator = (password: string, userInputs: string[]) => PasswordStrength;

let loading: Promise<Estimator> | null = null;

/**
 * Loads the strength estimator on first use: zxcvbn and its dictionaries weigh several hundred
 * kilobytes, so they stay out of the page's first load.
 */
export function loadStrengthEstimator(): Promise<Estimator> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(([core, common]) => {
    const zxcvbn = new core.ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
    return (password, userInputs) => {
      const { score } = zxcvbn.check(password, userInputs);
      return { score, label: STRENGTH_LABELS[score] };
    };
  });
  return loading;
}
