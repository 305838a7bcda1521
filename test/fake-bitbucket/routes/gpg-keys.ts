// GPG key routes: a signed-in user's own keys; another user's only for admins (user= query).
import { createHash } from 'node:crypto';
import { keysState } from '../keys-state.ts';
import { bitbucketError, page, type RouteContext } from '../route-types.ts';
import { type DeclaredRoute, userRoute } from './declared.ts';

const owner = (ctx: RouteContext) => ctx.query.get('user') ?? ctx.user!.name;
const json = (k: { id: string; fingerprint: string; emailAddress: string }) => ({
  id: k.id,
  fingerprint: k.fingerprint,
  emailAddress: k.emailAddress,
});
const denied = () =>
  bitbucketError(
    403,
    "You cannot manage another user's GPG keys.",
    'com.atlassian.bitbucket.AuthorisationException',
  );

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const gpgKeyRoutes: Record<string, DeclaredRoute> = {
  getKeysForUser: userRoute((ctx) =>
    page(
      keysState(ctx.state)
        .gpg.filter((k) => k.owner === owner(ctx))
        .map(json),
      ctx.query,
    ),
  ),
  addKey: userRoute((ctx) => {
    const text = String(((ctx.body ?? {}) as { text?: unknown }).text ?? '');
    if (!text.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----'))
      return bitbucketError(
        400,
        'text: not an ASCII-armoured PGP public key.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    const fingerprint = createHash('sha1').update(text).digest('hex').toUpperCase();
    const k = keysState(ctx.state);
    if (k.gpg.some((x) => x.fingerprint === fingerprint))
      return bitbucketError(
        409,
        'This GPG key is already in use.',
        'com.atlassian.bitbucket.gpg.DuplicateGpgKeyException',
      );
    const key = {
      id: fingerprint.slice(-16),
      fingerprint,
      owner: ctx.user!.name,
      emailAddress: ctx.user!.email,
      text,
    };
    k.gpg.push(key);
    return { status: 200, body: json(key) };
  }),
  deleteKey: userRoute((ctx) => {
    const k = keysState(ctx.state);
    const key = k.gpg.find(
      (x) => x.fingerprint === ctx.params.fingerprintOrId || x.id === ctx.params.fingerprintOrId,
    );
    if (!key)
      return bitbucketError(
        404,
        `No GPG key ${ctx.params.fingerprintOrId}.`,
        'com.atlassian.bitbucket.gpg.NoSuchGpgKeyException',
      );
    if (key.owner !== ctx.user!.name && !ctx.user!.admin) return denied();
    k.gpg = k.gpg.filter((x) => x !== key);
    return { status: 204 };
  }),
  deleteForUser: userRoute((ctx) => {
    if (owner(ctx) !== ctx.user!.name && !ctx.user!.admin) return denied();
    const k = keysState(ctx.state);
    k.gpg = k.gpg.filter((x) => x.owner !== owner(ctx));
    return { status: 204 };
  }),
};
