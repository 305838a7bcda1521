// Spec fragments several suites declare, unit and end-to-end alike.

/** Client policies: a profile enforcing PKCE, and a policy applying it to public clients. */
export const pkceClientPolicies = () => ({
  profiles: [{ name: 'pkce', executors: [{ executor: 'pkce-enforcer', configuration: {} }] }],
  policies: [
    {
      name: 'public-pkce',
      conditions: [{ condition: 'client-access-type', configuration: { type: ['public'] } }],
      profiles: ['pkce'],
    },
  ],
});
