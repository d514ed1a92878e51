import type { CSSProperties } from 'react';

const bar = (height: number, width: CSSProperties['width'] = '100%'): CSSProperties => ({ height, width });
const COLUMN: CSSProperties = { display: 'flex', flexDirection: 'column', gap: 16, width: '100%' };

/** Grey bars the size of the password form's fields: label, input, help, meter; label, input; button. */
function PasswordFormBars() {
  return (
    <div aria-hidden className="hdp-form">
      <div className="hdp-field">
        <span className="hdp-placeholder" style={bar(22, '35%')} />
        <span className="hdp-placeholder" style={bar(32)} />
        <span className="hdp-placeholder" style={bar(44)} />
        <span className="hdp-placeholder" style={{ ...bar(30), marginTop: 4 }} />
      </div>
      <div className="hdp-field">
        <span className="hdp-placeholder" style={bar(22, '40%')} />
        <span className="hdp-placeholder" style={bar(32)} />
      </div>
      <span className="hdp-placeholder" style={bar(32)} />
    </div>
  );
}

/** Where the password form comes, while its code loads. */
export function PasswordFormPlaceholder() {
  return (
    <div role="status" aria-label="Loading the form" aria-busy="true" style={COLUMN}>
      <PasswordFormBars />
    </div>
  );
}

/**
 * What the accept-invitation page shows until the invitation is known (on the server, which never
 * sees the link's token, and while the API is asked): bars where the lines saying whose invitation
 * it is and the password form come, most invitations' content, so the card hardly changes size.
 */
export function InvitationPlaceholder() {
  return (
    <div role="status" aria-label="Checking the invitation" aria-busy="true" style={COLUMN}>
      <div aria-hidden style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8, paddingBlock: 4 }}>
        <span className="hdp-placeholder" style={bar(14)} />
        <span className="hdp-placeholder" style={bar(14, '92%')} />
        <span className="hdp-placeholder" style={bar(14, '60%')} />
      </div>
      <PasswordFormBars />
    </div>
  );
}
