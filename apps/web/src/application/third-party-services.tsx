import { useEffect } from 'react';
import { addListener } from '@reduxjs/toolkit';
import { trackSuccessfulCalls } from '@/lib/analytics/analytics-listener';
import { publicServicesConfig } from '@/lib/observability/public-services-config';
import { selectIdToken } from '@/lib/auth/auth-slice';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { identifyToServices, startThirdPartyServices } from '@/lib/observability/third-party-services';
import { useAppDispatch, useAppSelector } from './hooks';

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
  const dispatch = useAppDispatch();
  useEffect(() => {
    startThirdPartyServices(SERVICES);
    if (SERVICES.posthogKey) return dispatch(addListener(trackSuccessfulCalls));
  }, [dispatch]);
  return <IdentifyToServices />;
}
