// `helm template` output of both charts, pinned by golden files (UPDATE_GOLDEN=1 rewrites them).
import { join } from 'node:path';
import { test } from 'uvu';
import { assertGolden } from '../helpers/golden.ts';
import { clientChart, operatorChart, template } from './helm-cli.ts';

const golden = (name: string) => join(import.meta.dirname, 'golden', name);

const cases: { name: string; chart: string; args: string[] }[] = [
  { name: 'operator-defaults.yaml', chart: operatorChart, args: [] },
  {
    name: 'operator-all-options.yaml',
    chart: operatorChart,
    args: [
      '--set=replicas=3',
      '--set=image.tag=0.2.0,image.pullPolicy=Always',
      '--set=imagePullSecrets[0].name=registry',
      '--set=rateLimits.global.tps=100,rateLimits.global.burst=200',
      '--set=rateLimits.namespace.tps=10,rateLimits.namespace.burst=20',
      '--set=driftIntervalSeconds=300,readyGraceSeconds=120,logLevel=debug,metrics.port=9090',
      '--set=fullResyncPeriodSeconds=7200',
      '--set=metrics.serviceMonitor.enabled=true,metrics.serviceMonitor.labels.release=prometheus',
      '--set=podDisruptionBudget.enabled=true',
      '--set=resources.requests.cpu=200m,resources.requests.memory=256Mi,resources.limits.memory=512Mi',
      '--set=nodeSelector.kubernetes\\.io/os=linux',
      '--set=tolerations[0].key=dedicated,tolerations[0].operator=Exists,tolerations[0].effect=NoSchedule',
    ],
  },
  { name: 'client-minimal.yaml', chart: clientChart, args: ['--set=spec.realmRef.name=customers'] },
  {
    name: 'client-full.yaml',
    chart: clientChart,
    args: [
      '--namespace=shop',
      '--set=name=shop-web',
      '--set=spec.realmRef.name=customers,spec.realmRef.namespace=identity',
      '--set=spec.type=confidential,spec.rootUrl=https://shop.example.com,spec.pkce=S256',
      '--set=spec.redirectUris[0]=https://shop.example.com/oauth/callback',
      '--set=spec.serviceAccount.enabled=true,spec.serviceAccount.realmRoles[0]=customer',
      '--set=rbac.operatorNamespace=identity-operators',
      '--set=realmManagerRole.create=true,realmManagerRole.realms[0]=customers,realmManagerRole.realms[1]=staff',
      '--set=realmManagerRole.subjects[0].kind=Group,realmManagerRole.subjects[0].name=shop-team',
      '--set=realmManagerRole.subjects[0].apiGroup=rbac.authorization.k8s.io',
    ],
  },
  {
    name: 'client-without-rbac.yaml',
    chart: clientChart,
    args: ['--set=spec.realmRef.name=customers', '--set=rbac.create=false'],
  },
];

for (const c of cases) {
  test(`helm template matches golden/${c.name}`, async () => {
    assertGolden(await template(c.chart, c.args), golden(c.name));
  });
}

test.run();
