import Document, { Head, Html, Main, NextScript, type DocumentContext, type DocumentInitialProps } from 'next/document';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { NONCE_HEADER } from '@/lib/security/page-security-headers';

type Props = DocumentInitialProps & { nonce?: string };

/**
 * Renders antd's styles on the server, so the first paint is already styled, and puts the
 * proxy's nonce on every script and style element, so the Content-Security-Policy lets them run.
 */
export default class AppDocument extends Document<Props> {
  static override async getInitialProps(ctx: DocumentContext): Promise<Props> {
    const header = ctx.req?.headers[NONCE_HEADER];
    const nonce = typeof header === 'string' ? header : undefined;
    const cache = createCache();
    const renderPage = ctx.renderPage;
    ctx.renderPage = () =>
      renderPage({
        enhanceApp: (App) =>
          function StyledApp(props) {
            return (
              <StyleProvider cache={cache}>
                <App {...props} />
              </StyleProvider>
            );
          },
      });
    const initialProps = await Document.getInitialProps(ctx);
    const style = extractStyle(cache, true);
    return {
      ...initialProps,
      nonce,
      styles: (
        <>
          {initialProps.styles}
          <style data-antd-ssr nonce={nonce} dangerouslySetInnerHTML={{ __html: style }} />
        </>
      ),
    };
  }

  override render() {
    const { nonce } = this.props;
    return (
      <Html lang="en">
        <Head nonce={nonce}>
          <link rel="icon" href="/logo.svg" type="image/svg+xml" />
        </Head>
        <body>
          <Main />
          <NextScript nonce={nonce} />
        </body>
      </Html>
    );
  }
}
