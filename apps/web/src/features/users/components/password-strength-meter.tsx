import { useEffect, useState } from 'react';
import { loadPasswordJudge, type PasswordJudgement } from '../password-strength';

const COLOURS = ['#a8071a', '#ad4e00', '#876800', '#7c5e00', '#135200'] as const;

/**
 * How hard the password is to guess, judged in the browser by the same rule the API applies (it
 * loads on first use), with the API's reason when it would be refused.
 */
export function PasswordStrengthMeter({ password, email, name }: { password: string; email: string; name: string | null }) {
  const [judgement, setJudgement] = useState<PasswordJudgement | null>(null);

  useEffect(() => {
    if (!password) {
      setJudgement(null);
      return;
    }
    let current = true;
    void loadPasswordJudge().then((judge) => {
      if (current) setJudgement(judge(password, { email, name }));
    });
    return () => {
      current = false;
    };
  }, [password, email, name]);

  const filled = judgement ? judgement.score + 1 : 0;
  return (
    <div data-testid="password-strength" style={{ marginTop: 4 }}>
      <div
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={judgement?.score ?? 0}
        aria-valuetext={judgement?.label ?? 'No password yet'}
        style={{ display: 'flex', gap: 4 }}
      >
        {[0, 1, 2, 3, 4].map((i) => (
          <span key={i} style={{ flex: 1, height: 6, borderRadius: 3, background: i < filled ? COLOURS[judgement!.score] : '#e5e8ec' }} />
        ))}
      </div>
      <div aria-live="polite" style={{ fontSize: 13, marginTop: 4, color: 'rgba(0, 0, 0, 0.72)' }}>
        {judgement
          ? judgement.acceptable
            ? `Strength: ${judgement.label}. This password will be accepted.`
            : `Strength: ${judgement.label}. Not accepted: the password ${judgement.problem}`
          : ' '}
      </div>
    </div>
  );
}
