// Every verb the operator needs, expanded from the very rules its ClusterRoles and Roles are compiled from
// (compile/operator-rbac.ts): a ClusterRole edited by hand, or an install older than the operator, shows up as a
// verb the API server denies.
import { leaderElectionRules, namespaceAccessRules, operatorRules } from '../compile/operator-rbac.ts';

/** One permission to review: verb, API group, resource (with `/subresource`), and a namespace or cluster-wide. */
export type NeededAccess = {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace?: string;
};

type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[] };

function expand(rules: readonly Rule[], namespace?: string): NeededAccess[] {
  const out: NeededAccess[] = [];
  for (const rule of rules)
    for (const group of rule.apiGroups ?? [''])
      for (const resource of rule.resources ?? [])
        for (const verb of rule.verbs)
          out.push(namespace ? { verb, group, resource, namespace } : { verb, group, resource });
  return out;
}

/**
 * The operator's cluster-wide verbs, leader election in its own namespace, and Secrets in each namespace that
 * holds a server, a database's credentials or a client (the keycloak-operator-namespace-access binding).
 */
export function neededAccess(operatorNamespace: string, secretNamespaces: readonly string[]): NeededAccess[] {
  return [
    ...expand(operatorRules as Rule[]),
    ...expand(leaderElectionRules as Rule[], operatorNamespace),
    ...secretNamespaces.flatMap((ns) => expand(namespaceAccessRules as Rule[], ns)),
  ];
}

/** `verb group/resource [in ns]`, the subject of an access check. */
export function accessSubject(a: NeededAccess): string {
  const what = a.group ? `${a.resource}.${a.group}` : a.resource;
  return `${a.verb} ${what}${a.namespace ? ` in ${a.namespace}` : ''}`;
}
