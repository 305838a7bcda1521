// The floor of `npm run bench:cli -- wall`: a bare Node process sending the requests a bbdc command needs as early as
// they can go. argv[2] is JSON: {token, waves: [[{method, url, body?}]]}; each wave is sent at once, after the last.
const { Agent, request } = process.getBuiltinModule('node:http');
const { token, waves } = JSON.parse(process.argv[2]);
const agent = new Agent({ keepAlive: true });
/** @param {{ method: string, url: string, body?: string }} req @returns {Promise<string>} */
const send = ({ method, url, body }) =>
  new Promise((resolve, reject) => {
    /** @type {Record<string, string>} */
    const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['x-atlassian-token'] = 'no-check';
    }
    const r = request(url, { method, headers, agent }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    r.on('error', reject);
    r.end(body);
  });
for (const wave of waves) await Promise.all(wave.map(send));
agent.destroy();
