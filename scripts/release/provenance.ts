// An in-toto Statement v1 with an SLSA provenance v1 predicate: what was built, from what, by whom.

/** A file the release publishes and its sha256. */
export type Subject = { name: string; digest: { sha256: string } };

/** A resolved input of the build (the source commit, each Node binary). */
export type Dependency = { uri: string; digest: Record<string, string> };

/** Everything the statement records. */
export type ProvenanceInput = {
  subjects: Subject[];
  version: string;
  targets: string[];
  source: Dependency;
  dependencies: Dependency[];
  builderId: string;
  invocationId: string;
  startedOn: Date;
  finishedOn: Date;
};

/** The statement, subjects sorted by name. */
export function provenanceStatement(p: ProvenanceInput) {
  return {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [...p.subjects].sort((a, b) => a.name.localeCompare(b.name)),
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: {
      buildDefinition: {
        buildType: 'https://realmforge.dev/bbdc/release-build/v1',
        externalParameters: { version: p.version, targets: p.targets, command: 'npm run release:build' },
        internalParameters: { node: process.version, platform: `${process.platform}-${process.arch}` },
        resolvedDependencies: [p.source, ...p.dependencies],
      },
      runDetails: {
        builder: { id: p.builderId },
        metadata: {
          invocationId: p.invocationId,
          startedOn: p.startedOn.toISOString(),
          finishedOn: p.finishedOn.toISOString(),
        },
      },
    },
  };
}
