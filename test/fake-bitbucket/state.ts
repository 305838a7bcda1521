// In-memory data for the fake server: users with tokens and permissions, projects and repositories.

/** A user of the fake server; `admin` users hold PROJECT_ADMIN everywhere, others only read. */
export type FakeUser = {
  name: string;
  slug: string;
  displayName: string;
  email: string;
  password: string;
  tokens: string[];
  admin: boolean;
};
/** A project; personal projects have keys like `~alice`. */
export type FakeProject = {
  key: string;
  id: number;
  name: string;
  public: boolean;
  personal: boolean;
  description?: string;
};
/** A repository. */
export type FakeRepo = {
  id: number;
  slug: string;
  name: string;
  projectKey: string;
  public: boolean;
  description?: string;
  /** The repository this one is a fork of. */
  originId?: number;
  /** Archived repositories are read-only. */
  archived?: boolean;
};

/** Everything the fake server knows; routes read and change it. */
export type FakeState = { users: FakeUser[]; projects: FakeProject[]; repos: FakeRepo[]; nextId: number };

/** The seeded users' credentials, for tests. */
export const credentials = {
  alice: { username: 'alice', token: 'alice-token-5f2c9e81d4', password: 'alice-password' },
  bob: { username: 'bob', token: 'bob-token-7a1d3c55e0', password: 'bob-password' },
};

function users(): FakeUser[] {
  return [
    {
      name: 'alice',
      slug: 'alice',
      displayName: 'Alice Admin',
      email: 'alice@example.test',
      password: credentials.alice.password,
      tokens: [credentials.alice.token],
      admin: true,
    },
    {
      name: 'bob',
      slug: 'bob',
      displayName: 'Bob Reader',
      email: 'bob@example.test',
      password: credentials.bob.password,
      tokens: [credentials.bob.token],
      admin: false,
    },
  ];
}

/** A small data set: two projects, a personal project and four repositories. */
export function smallState(): FakeState {
  const projects: FakeProject[] = [
    { key: 'PROJ', id: 1, name: 'Project', public: false, personal: false },
    { key: 'OPS', id: 2, name: 'Operations', public: true, personal: false },
    { key: '~alice', id: 3, name: 'Alice Admin', public: false, personal: true },
  ];
  const repos: FakeRepo[] = [
    { id: 11, slug: 'api', name: 'api', projectKey: 'PROJ', public: false },
    { id: 12, slug: 'web', name: 'web', projectKey: 'PROJ', public: false },
    { id: 13, slug: 'tools', name: 'tools', projectKey: 'OPS', public: true },
    { id: 14, slug: 'dotfiles', name: 'dotfiles', projectKey: '~alice', public: false },
  ];
  return { users: users(), projects, repos, nextId: 100 };
}

/** The large data set: the small one plus project BIG with 5,000 repositories (repo-0001 ... repo-5000). */
export function largeState(): FakeState {
  const state = smallState();
  state.projects.push({ key: 'BIG', id: 4, name: 'Big', public: false, personal: false });
  for (let i = 1; i <= 5000; i++) {
    const slug = `repo-${String(i).padStart(4, '0')}`;
    state.repos.push({ id: 1000 + i, slug, name: slug, projectKey: 'BIG', public: false });
  }
  return state;
}
