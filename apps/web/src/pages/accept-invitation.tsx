import type { AppPage } from '@/app/page-access';
import { AcceptInvitationPage } from '@/features/users/components/accept-invitation-page';

/** Public: the invited person has no account yet. The invitation token is the credential. */
const AcceptInvitation: AppPage = () => <AcceptInvitationPage />;
AcceptInvitation.access = 'public';
export default AcceptInvitation;
