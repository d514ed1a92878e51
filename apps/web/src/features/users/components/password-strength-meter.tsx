import { useEffect, useState } from 'react';
import { loadStrengthEstimator, type PasswordStrength } from '../password-strength';

const COLOURS = ['#a8071a', '#ad4e00', '#876800', '#2b6a0f', '#135200'] as const;

/** How hard the password is to guess, estimated in the browser (the estimator loads on first use). */
export function PasswordStrengthMeter({ password, userInputs }: { password: string; userInputs: string[] }) {
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  const inputs = userInputs.join('\n');

  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let current = true;
    void loadStrengthEstimator().then((estimate) => {
      if (current) setStrength(estimate(password, inputs.split('\n')));
    });
    return () => {
      current = false;
    };
  }, [password, inputs]);

  const filled = strength ? strength.score + 1 : 0;
  return (
    <div data-testid="password-strength" style={{ marginBottom: 16 }}>
      <div
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={strength?.score ?? 0}
        aria-valuetext={strength?.label ?? 'No password yet'}
        style={{ display: 'flex', gap: 4 }}
      >
        {[0, 1, 2, 3, 4].map((i) => (
          <span key={i} style={{ flex: 1, height: 6, borderRadius: 3, background: i < filled ? COLOURS[strength!.score] : '#e5e8ec' }} />
        ))}
      </div>
      <div aria-live="polite" style={{ fontSize: 13, marginTop: 4, color: 'rgba(0, 0, 0, 0.72)' }}>
        {strength ? `Strength: ${strength.label}` : ' '}
      </div>
    </div>
  );
}
