import { useState } from 'react';
import { BRAND } from '@/config/brand';

/**
 * Recovery codes, shown once: the list, a copy button and a download as a text file. Plain markup
 * (`.hdp-codes` in global.css): the sign-in's second step shows it before any component library.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState<boolean | undefined>(undefined);
  const text = `${BRAND.name} recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="hdp-codes-box">
      <ol className="hdp-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="hdp-codes-actions">
        <button type="button" className="hdp-button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="hdp-button" onClick={download}>
          Download
        </button>
      </div>
      <p className="hdp-field-help" aria-live="polite">
        {copied === true ? 'Copied.' : copied === false ? 'This browser did not allow copying: select the codes or download them.' : ''}
      </p>
    </div>
  );
}
