// The known deviations of live Bitbucket servers from the 9.4 OpenAPI document (docs/decisions.md), each
// with its evidence. An operation the document lacks may be served only when a deviation here names it in
// `undocumented`; a query parameter the document does not declare may be sent only when one names it in `query`.

/** One named deviation: what differs on live servers, the links that show it, and what it allows. */
export type Deviation = {
  name: string;
  why: string;
  /** Atlassian documentation, issue tracker entries or changelogs showing the live behaviour; empty = none found. */
  evidence: string[];
  undocumented?: { method: string; template: string };
  /** Query parameters live servers take on an operation (by operationId) although the document omits them. */
  query?: { operationIds: string[]; names: string[] };
};

/**
 * The allowlist, each deviation with its evidence. Three points once taken for deviations are in the 9.4 document
 * itself (docs/decisions.md), so bbdc follows the document and they are not here: the reviewer call
 * (assignParticipantRole: POST .../participants with {user, role}), the mergeability answers (canMerge: GET .../merge declares 404 "does not exist" and 409 "not open"), and the required-approvers payload
 * (updatePullRequestSettings_1: requiredApprovers {enabled, count} beside requiredApproversDeprecated, the integer
 * form, and the description naming the bundled requiredApproversMergeHook key that bbdc also reads).
 */
export const deviations: Deviation[] = [
  {
    name: 'xsrf-header',
    why: 'mutating calls without `X-Atlassian-Token: no-check` fail with 403 (enforced by the server)',
    evidence: [
      'https://confluence.atlassian.com/cloudkb/xsrf-check-failed-when-calling-cloud-apis-826874382.html',
      'https://github.com/mc1arke/sonarqube-community-branch-plugin/issues/249',
    ],
  },
  {
    name: 'webhook-paging',
    why: 'webhook lists are paged ({values, isLastPage, nextPageStart}) and take start/limit, which the document omits (it declares no response schema for them at all)',
    evidence: [
      'https://jira.atlassian.com/browse/BSERV-12818',
      'https://docs.atlassian.com/bitbucket-server/rest/5.16.0/bitbucket-rest.html',
    ],
    query: { operationIds: ['findWebhooks', 'findWebhooks_1'], names: ['start', 'limit'] },
  },
  {
    name: 'browse-paging',
    why: 'browse (a directory listing or the lines of a file) is a paged API on live servers and honours start/limit (a file of 10 lines asked with limit=5 answers 5 lines and isLastPage false), which the document omits',
    evidence: [
      'https://jira.atlassian.com/browse/BSERV-12725',
      'https://jira.atlassian.com/browse/BSERV-8482',
    ],
    query: { operationIds: ['getContent', 'getContent_1'], names: ['start', 'limit'] },
  },
  {
    name: 'default-reviewer-users',
    why: 'default-reviewer conditions need full user objects (with the internal id), not names',
    evidence: ['https://jira.atlassian.com/browse/BSERV-12774'],
  },
  {
    name: 'branch-model-get',
    why: "a repository's branching model is read with GET /rest/branch-utils/latest/.../branchmodel/configuration; Atlassian keeps it out of the published REST documents (BSERV-7284 asks to make it public), but live servers serve it and widely used clients call it",
    evidence: [
      'https://jira.atlassian.com/browse/BSERV-7284',
      'https://jira.atlassian.com/browse/STASH-5411',
      'https://github.com/atlassian-api/atlassian-python-api/blob/master/atlassian/bitbucket/__init__.py',
    ],
    undocumented: {
      method: 'GET',
      template: '/branch-utils/latest/projects/{projectKey}/repos/{repositorySlug}/branchmodel/configuration',
    },
  },
  {
    name: 'branch-model-set',
    why: 'the branching model is changed with PUT on the same configuration resource (the body GET answers, changed); undocumented like the read',
    evidence: [
      'https://jira.atlassian.com/browse/BSERV-7284',
      'https://github.com/atlassian-api/atlassian-python-api/blob/master/atlassian/bitbucket/__init__.py',
    ],
    undocumented: {
      method: 'PUT',
      template: '/branch-utils/latest/projects/{projectKey}/repos/{repositorySlug}/branchmodel/configuration',
    },
  },
];

/** The undocumented operations the deviations allow, as `METHOD template` strings. */
export function allowedUndocumented(): { method: string; template: string; name: string }[] {
  return deviations.flatMap((d) => (d.undocumented ? [{ ...d.undocumented, name: d.name }] : []));
}

/** The undeclared query parameters the deviations allow on an operation. */
export function allowedQuery(operationId: string): string[] {
  return deviations.flatMap((d) => (d.query?.operationIds.includes(operationId) ? d.query.names : []));
}
