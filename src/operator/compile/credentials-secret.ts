import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { ownedMetadata } from './server-metadata.ts';

/** A username and password pair, as stored in a basic-auth Secret. */
export type Credentials = { readonly username: string; readonly password: string };

/** Properties of a credentials Secret owned by an IdentityServer. */
export type CredentialsSecretProps = {
  readonly server: IdentityServer;
  readonly name: string;
  readonly credentials: Credentials;
};

const base64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/** A kubernetes.io/basic-auth Secret with keys username and password, owned by the IdentityServer. */
export class CredentialsSecret extends Construct {
  constructor(scope: Construct, id: string, props: CredentialsSecretProps) {
    super(scope, id);
    new ApiObject(this, 'secret', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: ownedMetadata(props.server, props.name),
      type: 'kubernetes.io/basic-auth',
      // data, not stringData: server-side apply then compares like with like and a resync writes nothing.
      data: { password: base64(props.credentials.password), username: base64(props.credentials.username) },
    });
  }
}
