import type { AppPage } from '@/app/page-access';
import { AcceptInvitationPage } from '@/features/users/components/accept-invitation-page';

/** Public: the invited person has no account yet. The invitation token is the credential. */
const AcceptInvitation: AppPage = () => <AcceptInvitationPage />;
AcceptInvitation.access = 'public';
// Back from the identity provider, the page needs the session at once; otherwise it knows there is none.
AcceptInvitation.sessionOnServer = true;
export default AcceptInvitation;
