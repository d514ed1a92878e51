import Head from 'next/head';
import { useRouter } from 'next/router';
import { signIn } from 'next-auth/react';
import { Alert, Button, Spin } from 'antd';
import { BRAND } from '@/config/brand';
import { authErrorMessage } from '../auth-errors';
import { AuthCard } from '@/components/auth-card';

/** The page next-auth sends sign-in failures to (pages.error). */
export function AuthErrorPage() {
  const router = useRouter();
  return (
    <>
      <Head>
        <title>{`Sign-in problem · ${BRAND.name}`}</title>
      </Head>
      <AuthCard title="Sign-in problem">
        {router.isReady ? (
          <Alert type="error" showIcon title={authErrorMessage(router.query.error)} style={{ width: '100%' }} />
        ) : (
          <Spin />
        )}
        <Button type="primary" block onClick={() => void signIn()}>
          Back to sign-in
        </Button>
      </AuthCard>
    </>
  );
}
