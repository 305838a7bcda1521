// The environment's PKI, made with openssl: a CA, the API server's serving certificate, client certificates
// (the harness admin in system:masters, the controller manager) and the service-account signing key pair.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingToolError } from './errors.ts';
import { run } from './proc.ts';

/** Paths of every key and certificate in one directory. */
export type Pki = {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  kcmCert: string;
  kcmKey: string;
  saKey: string;
  saPub: string;
};

async function openssl(args: string[], cwd: string): Promise<string> {
  return run('openssl', args, { cwd }).catch((e: Error) => {
    if (/could not run/.test(e.message))
      throw new MissingToolError('openssl is needed to make certificates: apt-get install openssl');
    throw e;
  });
}

async function issue(dir: string, name: string, subject: string, ext: string): Promise<void> {
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
  await openssl(['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`], dir);
  writeFileSync(join(dir, `${name}.ext`), ext);
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '30',
    ].concat(['-sha256', '-extfile', `${name}.ext`, '-out', `${name}.crt`]),
    dir,
  );
}

/** Creates the PKI in `dir` (an empty temp directory). */
export async function makePki(dir: string): Promise<Pki> {
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key'], dir);
  await openssl(
    [
      'req',
      '-x509',
      '-new',
      '-key',
      'ca.key',
      '-subj',
      '/CN=realmforge-testenv-ca',
      '-days',
      '30',
      '-out',
      'ca.crt',
    ],
    dir,
  );
  const client = 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n';
  await issue(
    dir,
    'serving',
    '/CN=kube-apiserver',
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' +
      'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\n',
  );
  await issue(dir, 'admin', '/O=system:masters/CN=realmforge-testenv-admin', client);
  await issue(dir, 'kcm', '/CN=system:kube-controller-manager', client);
  await openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'sa.key'], dir);
  await openssl(['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  const p = (f: string) => join(dir, f);
  return {
    dir,
    caCert: p('ca.crt'),
    caKey: p('ca.key'),
    servingCert: p('serving.crt'),
    servingKey: p('serving.key'),
    adminCert: p('admin.crt'),
    adminKey: p('admin.key'),
    kcmCert: p('kcm.crt'),
    kcmKey: p('kcm.key'),
    saKey: p('sa.key'),
    saPub: p('sa.pub'),
  };
}

/** Writes a kubeconfig for one user of the API server, with its certificate files referenced by path. */
export function writeKubeconfig(file: string, server: string, pki: Pki, user: 'admin' | 'kcm'): void {
  const [cert, key] = user === 'admin' ? [pki.adminCert, pki.adminKey] : [pki.kcmCert, pki.kcmKey];
  const yaml = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: realmforge-testenv',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority: ${pki.caCert}`,
    'users:',
    `- name: ${user}`,
    '  user:',
    `    client-certificate: ${cert}`,
    `    client-key: ${key}`,
    'contexts:',
    '- name: realmforge-testenv',
    '  context:',
    '    cluster: realmforge-testenv',
    `    user: ${user}`,
    'current-context: realmforge-testenv',
    '',
  ].join('\n');
  writeFileSync(file, yaml, { mode: 0o600 });
}
