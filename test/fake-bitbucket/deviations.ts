// The known deviations of live Bitbucket servers from the 9.4 OpenAPI document (shared/spec/DECISIONS.md).
// An operation the document lacks may be served only when a deviation here names it in `undocumented`.

/** One named deviation: what differs on live servers and, if any, the undocumented operation it allows. */
export type Deviation = { name: string; why: string; undocumented?: { method: string; template: string } };

/** The allowlist, one entry per deviation in DECISIONS.md; most differ in bodies or statuses, not operations. */
export const deviations: Deviation[] = [
  {
    name: 'xsrf-header',
    why: 'mutating calls without `X-Atlassian-Token: no-check` fail with 403 (enforced by the server)',
  },
  {
    name: 'reviewer-participants',
    why: 'reviewers are added with POST .../participants {user:{name},role:"REVIEWER"}',
  },
  { name: 'mergeability-status', why: 'GET .../pull-requests/{id}/merge may answer 404 or 409' },
  { name: 'required-approvers', why: 'the required-approvers merge check setting has a different payload' },
];

/** The undocumented operations the deviations allow, as `METHOD template` strings. */
export function allowedUndocumented(): { method: string; template: string; name: string }[] {
  return deviations.flatMap((d) => (d.undocumented ? [{ ...d.undocumented, name: d.name }] : []));
}
