/**
 * On every response: nothing the API answers may be stored by a browser or proxy (a sandbox
 * sign-up returns a fresh API key), and no answer may be sniffed into another content type.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};
