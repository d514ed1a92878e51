import { useState } from 'react';
import Head from 'next/head';
import { signIn, signOut, useSession } from 'next-auth/react';
import { Button, Flex, Spin } from 'antd';
import { BRAND } from '@/config/brand';
import { SIGN_IN_PATH } from '@/lib/auth/sign-in-urls';
import { AuthCard } from '@/components/auth-card';

/** Asks before signing out (pages.signOut); signing out ends the session and revokes its refresh tokens. */
export function SignOutPage() {
  const { status } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <>
      <Head>
        <title>{`Sign out · ${BRAND.name}`}</title>
      </Head>
      <AuthCard title={status === 'unauthenticated' ? 'You are signed out' : 'Sign out'}>
        {status === 'loading' ? (
          <Spin />
        ) : status === 'authenticated' ? (
          <>
            <p style={{ margin: 0 }}>Are you sure you want to sign out of {BRAND.name}?</p>
            <Flex gap={8} style={{ width: '100%' }}>
              <Button block href="/">
                Cancel
              </Button>
              <Button
                block
                type="primary"
                loading={signingOut}
                onClick={() => {
                  setSigningOut(true);
                  void signOut({ callbackUrl: SIGN_IN_PATH });
                }}
              >
                Sign out
              </Button>
            </Flex>
          </>
        ) : (
          <Button type="primary" block onClick={() => void signIn()}>
            Sign in
          </Button>
        )}
      </AuthCard>
    </>
  );
}
