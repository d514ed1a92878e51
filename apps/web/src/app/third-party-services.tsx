import { useEffect } from 'react';
import { publicServicesConfig } from '@/config/public-config';
import { selectIdToken } from '@/features/auth/slice';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { identifyToServices, startThirdPartyServices } from '@/lib/observability/third-party-services';
import { useAppSelector } from './hooks';

const SERVICES = publicServicesConfig();

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

/** Starts product analytics and error reporting (app-providers loads it only when one is configured). */
export default function ThirdPartyServices() {
  useEffect(() => {
    startThirdPartyServices(SERVICES);
  }, []);
  return <IdentifyToServices />;
}
