import { useState } from 'react';
import type { TotpEnrolment } from '@hdp/contract';
import { answerSecondStep, passkeyProblem, SecondStepRefused, startEnrolment } from '../second-step/second-step-calls';
import { CodeForm } from './code-form';

type Choice = 'choose' | 'passkey' | 'totp';

/**
 * A person without a second factor, on a platform that requires one, sets one up before the first
 * session: a passkey (the browser creates it) or an authenticator app (scan the QR code or type the
 * key, then its first code). The factor is saved, and the session made, in one step at the API.
 */
export function EnrolFirstFactor({ onSignedIn, onRefused }: { onSignedIn: () => void; onRefused: (reason: string | null, message?: string) => void }) {
  const [choice, setChoice] = useState<Choice>('choose');
  const [totp, setTotp] = useState<TotpEnrolment | null>(null);
  const [busy, setBusy] = useState(false);

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

  const createPasskey = () =>
    run(async () => {
      const { webauthn } = await startEnrolment('WEBAUTHN');
      if (!webauthn) throw new SecondStepRefused('IssuerUnavailable');
      const { startRegistration } = await import('@simplewebauthn/browser');
      const response = await startRegistration({ optionsJSON: webauthn as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
      await answerSecondStep({ webauthn_registration: response, name: 'Passkey' });
      onSignedIn();
    });

  const chooseApp = () =>
    run(async () => {
      const started = await startEnrolment('TOTP');
      if (!started.totp) throw new SecondStepRefused('IssuerUnavailable');
      setTotp(started.totp);
      setChoice('totp');
    });

  if (choice === 'totp' && totp) {
    return (
      <>
        <p style={{ margin: 0 }}>Scan this QR code with your authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password).</p>
        <img className="hdp-qr" src={totp.qr_code} alt="QR code to add this account to an authenticator app" width={200} height={200} />
        <p style={{ margin: 0 }}>
          Or type this key into the app: <span className="hdp-secret" data-testid="totp-secret">{totp.secret}</span>
        </p>
        <CodeForm
          kind="totp"
          label="Code from your authenticator app"
          help="The 6 digits the app now shows for this platform."
          submitLabel="Confirm and sign in"
          busy={busy}
          onSubmit={(code) =>
            void run(async () => {
              await answerSecondStep({ totp_code: code, name: 'Authenticator app' });
              onSignedIn();
            })
          }
        />
        <button type="button" className="hdp-link-button" onClick={() => setChoice('choose')}>
          Choose another way
        </button>
      </>
    );
  }

  return (
    <>
      <p style={{ margin: 0 }}>
        This platform protects health data with a second factor besides your password. Set one up now; you will use it each time you sign in.
      </p>
      <button type="button" className="hdp-button hdp-button-primary hdp-button-block" aria-busy={busy || undefined} disabled={busy} onClick={() => void createPasskey()}>
        Set up a passkey or security key
      </button>
      <p className="hdp-field-help" style={{ margin: 0 }}>
        Recommended: your device (fingerprint, face, PIN) or a security key confirms it is you, and it cannot be phished.
      </p>
      <button type="button" className="hdp-button hdp-button-block" disabled={busy} onClick={() => void chooseApp()}>
        Use an authenticator app
      </button>
    </>
  );
}
