// A person's browser login through an identity-provider broker, as the e2e drives it: the target realm's
// authorization endpoint with kc_idp_hint (straight to the broker), the upstream realm's login form, the
// first-broker-login review form when Keycloak shows one, then the authorization code exchanged with PKCE at the
// target realm's token endpoint. No JavaScript is needed: Keycloak's login pages are plain forms.
import { createHash, randomBytes } from 'node:crypto';
import { Browser, formsOf } from './browser.ts';

export type BrokerLogin = {
  keycloakUrl: string;
  realm: string;
  clientId: string;
  redirectUri: string;
  idpAlias: string;
  username: string;
  password: string;
};

/** What the login ended with: the target realm's token answer, and the pages it went through. */
export type BrokerLoginResult = { status: number; token: Record<string, unknown>; pages: string[] };

/** Decodes a JWT's payload (not verified: the test only reads who it is for). */
export const jwtClaims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

export async function brokerLogin(o: BrokerLogin): Promise<BrokerLoginResult> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const browser = new Browser(o.redirectUri);
  const realmUrl = `${o.keycloakUrl}/realms/${o.realm}`;
  const auth = new URLSearchParams({
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    response_type: 'code',
    scope: 'openid',
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    kc_idp_hint: o.idpAlias,
  });
  const pages: string[] = [];
  let page = await browser.open(`${realmUrl}/protocol/openid-connect/auth?${auth}`);
  pages.push(page.url);
  page = await browser.submit(page, 'kc-form-login', { username: o.username, password: o.password });
  // First broker login: Keycloak may ask the person to review the profile the provider sent (prefilled).
  for (let step = 0; !page.stoppedAt && step < 3; step++) {
    pages.push(page.url);
    const review = formsOf(page.html, page.url).find((f) => /profile/i.test(f.id));
    if (!review) break;
    page = await browser.submit(page, review.id, {});
  }
  if (!page.stoppedAt)
    throw new Error(
      `the login did not come back to ${o.redirectUri}; last page ${page.url} (status ${page.status}): ${page.html
        .replace(/\s+/g, ' ')
        .slice(0, 800)}`,
    );
  const back = new URL(page.stoppedAt).searchParams;
  const code = back.get('code');
  if (!code) throw new Error(`the redirect carried no code: ${page.stoppedAt}`);
  const res = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: o.clientId,
      code,
      redirect_uri: o.redirectUri,
      code_verifier: verifier,
    }),
  });
  return { status: res.status, token: (await res.json()) as Record<string, unknown>, pages };
}
