import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { type SchemaDocuments, toStructural } from './structural-schema.ts';

/** One printer column of `kubectl get`. */
export type PrinterColumn = {
  name: string;
  type: 'string' | 'integer' | 'date';
  jsonPath: string;
  priority?: number;
};

/** Properties of a realmforge.dev CRD: names, the schema file it is generated from, and its columns. */
export type CrdProps = {
  readonly kind: string;
  readonly plural: string;
  readonly shortName: string;
  readonly schemaFile: string;
  readonly schemas: SchemaDocuments;
  readonly columns: readonly PrinterColumn[];
};

/** The API group of the custom resources. */
export const group = 'realmforge.dev';

const phaseColumns: PrinterColumn[] = [
  { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Synced', type: 'string', jsonPath: '.status.conditions[?(@.type=="Synced")].status' },
];
const ageColumn: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** A namespaced v1 CustomResourceDefinition with the status subresource, generated from a JSON Schema. */
export class IdentityCrd extends Construct {
  constructor(scope: Construct, id: string, props: CrdProps) {
    super(scope, id);
    const root = props.schemas[props.schemaFile] as {
      description: string;
      properties: Record<string, unknown>;
      'x-kubernetes-validations'?: unknown[];
    };
    // Root rules may read metadata.name (the only metadata CEL sees), e.g. an IdentityRealm named master.
    const rootRules = root['x-kubernetes-validations'];
    const openAPIV3Schema = {
      type: 'object',
      description: root.description,
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { type: 'object' },
        spec: toStructural(root.properties.spec, props.schemaFile, props.schemas),
        status: toStructural(root.properties.status, props.schemaFile, props.schemas),
      },
      required: ['spec'],
      ...(rootRules ? { 'x-kubernetes-validations': rootRules } : {}),
    };
    new ApiObject(this, 'crd', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${props.plural}.${group}`, labels: { 'app.kubernetes.io/part-of': 'realmforge' } },
      spec: {
        group,
        scope: 'Namespaced',
        names: {
          kind: props.kind,
          listKind: `${props.kind}List`,
          plural: props.plural,
          singular: props.kind.toLowerCase(),
          shortNames: [props.shortName],
          categories: ['realmforge'],
        },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            additionalPrinterColumns: [...phaseColumns, ...props.columns, ageColumn],
            schema: { openAPIV3Schema },
          },
        ],
      },
    });
  }
}

type CrdEntry = Omit<CrdProps, 'schemas'>;

/** The three kinds with their names and extra columns (docs/decisions.md). */
export const identityCrds: readonly CrdEntry[] = [
  {
    kind: 'IdentityServer',
    plural: 'identityservers',
    shortName: 'idsrv',
    schemaFile: 'identityserver.schema.json',
    columns: [{ name: 'Version', type: 'string', jsonPath: '.status.version' }],
  },
  {
    kind: 'IdentityRealm',
    plural: 'identityrealms',
    shortName: 'idrealm',
    schemaFile: 'identityrealm.schema.json',
    columns: [{ name: 'Realm', type: 'string', jsonPath: '.status.realmName' }],
  },
  {
    kind: 'IdentityClient',
    plural: 'identityclients',
    shortName: 'idclient',
    schemaFile: 'identityclient.schema.json',
    columns: [
      { name: 'Client ID', type: 'string', jsonPath: '.status.clientId' },
      { name: 'Realm', type: 'string', jsonPath: '.spec.realmRef.name', priority: 1 },
    ],
  },
];

/** Adds the three CRDs to a chart. */
export function addIdentityCrds(scope: Construct, schemas: SchemaDocuments): void {
  for (const entry of identityCrds) new IdentityCrd(scope, entry.plural, { ...entry, schemas });
}
