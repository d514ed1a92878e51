import { useState } from 'react';
import type { MfaMethod } from '@hdp/contract';
import { answerSecondStep, passkeyProblem, passkeySignInOptions, SecondStepRefused, type SecondStepAnswer } from '../second-step/second-step-calls';
import { CodeForm } from './code-form';

const SWITCH_LABEL: Record<MfaMethod, string> = {
  webauthn: 'Use your passkey instead',
  totp: 'Use your authenticator app instead',
  recovery_code: 'Use a recovery code',
};

/**
 * The second factor of a person who has one: the passkey first when they have one, else the
 * authenticator app; a recovery code is always one click away. `onRefused` gets the reason.
 */
export function AnswerSecondFactor({
  methods,
  onSignedIn,
  onRefused,
}: {
  methods: MfaMethod[];
  onSignedIn: () => void;
  onRefused: (reason: string | null, message?: string) => void;
}) {
  const [method, setMethod] = useState<MfaMethod>(methods[0] ?? 'recovery_code');
  const [busy, setBusy] = useState(false);

  const answer = async (value: SecondStepAnswer) => {
    await answerSecondStep(value);
    onSignedIn();
  };
  const run = async (attempt: () => Promise<void>) => {
    setBusy(true);
    onRefused(null);
    try {
      await attempt();
    } catch (error) {
      if (error instanceof SecondStepRefused) onRefused(error.reason);
      else onRefused('Passkey', passkeyProblem(error));
    } finally {
      setBusy(false);
    }
  };
  const usePasskey = () =>
    run(async () => {
      const options = await passkeySignInOptions();
      if (!options.webauthn) throw new SecondStepRefused('SecondFactorWrong');
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({ optionsJSON: options.webauthn as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
      await answer({ webauthn: response });
    });

  return (
    <>
      {method === 'webauthn' ? (
        <>
          <p style={{ margin: 0, textAlign: 'center' }}>Use the passkey or security key you set up for this account.</p>
          <button type="button" className="hdp-button hdp-button-primary hdp-button-block" aria-busy={busy || undefined} disabled={busy} onClick={() => void usePasskey()}>
            Use passkey
          </button>
        </>
      ) : method === 'totp' ? (
        <CodeForm
          key="totp"
          kind="totp"
          label="Code from your authenticator app"
          help="The 6 digits the app shows for this platform now."
          submitLabel="Verify"
          busy={busy}
          onSubmit={(code) => void run(() => answer({ totp_code: code }))}
        />
      ) : (
        <CodeForm
          key="recovery"
          kind="recovery"
          label="Recovery code"
          help="One of the codes you saved when you set up your second factor. Each works once."
          submitLabel="Verify"
          busy={busy}
          onSubmit={(code) => void run(() => answer({ recovery_code: code }))}
        />
      )}
      <div className="hdp-alternatives">
        {methods
          .filter((other) => other !== method)
          .map((other) => (
            <button
              key={other}
              type="button"
              className="hdp-link-button"
              onClick={() => {
                onRefused(null);
                setMethod(other);
              }}
            >
              {SWITCH_LABEL[other]}
            </button>
          ))}
      </div>
    </>
  );
}
