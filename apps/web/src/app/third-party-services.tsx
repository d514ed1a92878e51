import { useEffect } from 'react';
import { publicServicesConfig } from '@/config/public-config';
import { selectIdToken } from '@/features/auth/slice';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { identifyToServices, startThirdPartyServices } from '@/lib/observability/third-party-services';
import { useAppSelector } from './hooks';

const SERVICES = publicServicesConfig();
const ANY_SERVICE = Boolean(SERVICES.posthogKey || SERVICES.sentryDsn);

function IdentifyToServices() {
  const idToken = useAppSelector(selectIdToken);
  // The shell asks for the same user: this reads its cached answer.
  const { data: me } = useGetMeQuery(undefined, { skip: !idToken });
  const userId = idToken ? (me?.id ?? null) : null;
  useEffect(() => {
    identifyToServices(userId);
  }, [userId]);
  return null;
}

/** Product analytics and error reporting, when configured; renders nothing. */
export function ThirdPartyServices() {
  useEffect(() => {
    if (ANY_SERVICE) startThirdPartyServices(SERVICES);
  }, []);
  return ANY_SERVICE ? <IdentifyToServices /> : null;
}
