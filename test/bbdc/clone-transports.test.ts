// The pure parts of bbdc repo clone: the order of attempts, clone URLs, and the environment git gets.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  gitFailure,
  headerAttemptEnv,
  sshAttemptEnv,
  sshConnectTimeout,
} from '../../src/bbdc/clone/git-env.ts';
import { cloneSteps, cloneUrls } from '../../src/bbdc/clone/transports.ts';

const test = suite('bbdc clone transports');
const urls = { ssh: 'ssh://git@h:7999/proj/api.git', https: 'https://h/scm/proj/api.git' };

test('attempt order: ssh, token, prompt; --ssh and --https keep their own; no prompt off a terminal', () => {
  const table: [Parameters<typeof cloneSteps>[0], string[]][] = [
    [{ urls, transport: 'auto', hasToken: true, canPrompt: true }, ['ssh', 'https-token', 'https-prompt']],
    [{ urls, transport: 'auto', hasToken: false, canPrompt: false }, ['ssh']],
    [{ urls, transport: 'auto', hasToken: true, canPrompt: false }, ['ssh', 'https-token']],
    [{ urls, transport: 'https', hasToken: true, canPrompt: true }, ['https-token', 'https-prompt']],
    [{ urls, transport: 'https', hasToken: false, canPrompt: false }, []],
    [{ urls, transport: 'ssh', hasToken: true, canPrompt: true }, ['ssh']],
    [{ urls: { https: urls.https }, transport: 'auto', hasToken: true, canPrompt: false }, ['https-token']],
  ];
  for (const [input, expected] of table) {
    assert.equal(
      cloneSteps(input).steps.map((s) => s.method),
      expected,
      JSON.stringify(input),
    );
  }
  const noSsh = cloneSteps({
    urls: { https: urls.https },
    transport: 'ssh',
    hasToken: true,
    canPrompt: true,
  });
  assert.equal(noSsh, {
    steps: [],
    unusable: 'the server lists no ssh clone URL for it (SSH access may be off); use --https',
  });
});

test('clone URLs come from links.clone; an ssh-only repository gets the normalized /scm/ HTTPS URL', () => {
  const links = { clone: [{ name: 'ssh', href: 'ssh://git@h:7999/~alice/dots.git' }] };
  assert.equal(cloneUrls({ slug: 'dots', project: { key: '~ALICE' }, links }, 'https://h/bitbucket'), {
    ssh: 'ssh://git@h:7999/~alice/dots.git',
    https: 'https://h/bitbucket/scm/~alice/dots.git',
  });
  const both = { clone: [...links.clone, { name: 'http', href: 'https://h/scm/~alice/dots.git' }] };
  assert.is(
    cloneUrls({ slug: 'dots', project: { key: '~alice' }, links: both }, 'https://x').https,
    both.clone[1].href,
  );
});

test('ssh attempts keep the user ssh command and add BatchMode and ConnectTimeout', () => {
  assert.equal(sshAttemptEnv({}, 5), {
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes -o ConnectTimeout=5',
    GIT_TERMINAL_PROMPT: '0',
  });
  assert.is(
    sshAttemptEnv({ GIT_SSH_COMMAND: 'ssh -i ~/.ssh/work' }, 2).GIT_SSH_COMMAND,
    'ssh -i ~/.ssh/work -o BatchMode=yes -o ConnectTimeout=2',
  );
  assert.is(
    sshAttemptEnv({ GIT_SSH: '/opt/my ssh' }, 5).GIT_SSH_COMMAND,
    "'/opt/my ssh' -o BatchMode=yes -o ConnectTimeout=5",
  );
  assert.is(sshConnectTimeout({}), 5);
  assert.is(sshConnectTimeout({ BBDC_SSH_CONNECT_TIMEOUT: '12' }), 12);
  assert.throws(() => sshConnectTimeout({ BBDC_SSH_CONNECT_TIMEOUT: '0' }), /BBDC_SSH_CONNECT_TIMEOUT "0"/);
});

test('the header is scoped to the server and appended after config the caller already passes in the environment', () => {
  assert.equal(headerAttemptEnv({}, 'https://h:8443/ctx/scm/p/r.git', 'Bearer t'), {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.https://h:8443/.extraHeader',
    GIT_CONFIG_VALUE_0: 'Authorization: Bearer t',
    GIT_TERMINAL_PROMPT: '0',
  });
  const kept = headerAttemptEnv({ GIT_CONFIG_COUNT: '2' }, 'https://h/scm/p/r.git', 'Bearer t');
  assert.equal([kept.GIT_CONFIG_COUNT, kept.GIT_CONFIG_KEY_2], ['3', 'http.https://h/.extraHeader']);
});

test("git's stderr is cut to what went wrong", () => {
  const refused =
    "Cloning into 'api'...\nssh: connect to host h port 7999: Connection refused\r\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n";
  assert.is(
    gitFailure(refused),
    'ssh: connect to host h port 7999: Connection refused; fatal: Could not read from remote repository.',
  );
  assert.is(
    gitFailure(
      "Cloning into 'api'...\nfatal: could not read Username for 'https://h': terminal prompts disabled\n",
    ),
    'https://h refused the credentials (HTTP 401)',
  );
  assert.match(
    gitFailure(
      "Cloning into 'api'...\nHost key verification failed.\r\nfatal: Could not read from remote repository.\n",
    ),
    'not in known_hosts yet; connect once with ssh',
  );
  assert.is(gitFailure(''), 'git clone failed without a message');
});

test.run();
