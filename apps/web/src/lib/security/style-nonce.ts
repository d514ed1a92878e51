/**
 * Gives every style element a script creates the page's CSP nonce. antd passes the nonce to the
 * styles of its components (ConfigProvider `csp`), but the rc-component helpers under it add style
 * elements of their own without one (the scroll lock of dialogs and drawers, the scroll-bar
 * measurement of tables, a selector-support probe), which the policy would block. Only scripts,
 * which the policy already restricts to this page's own, can create elements; style elements
 * injected as markup still get no nonce, which is what the nonce guards against.
 */
function nonceScriptCreatedStyles(): void {
  if (typeof document === 'undefined') return;
  // Where Next.js keeps the nonce for its own style elements.
  const nonce = document.querySelector('noscript[data-n-css]')?.getAttribute('data-n-css');
  if (!nonce) return;
  const createElement = Document.prototype.createElement;
  Document.prototype.createElement = function (this: Document, tagName: string, options?: ElementCreationOptions) {
    const element = createElement.call(this, tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  } as typeof createElement;
}

nonceScriptCreatedStyles();
