// Both command lines need Node.js 22.19 or newer (package.json engines): TypeScript sources run with type
// stripping, the bundles require() ES modules. An older Node is told so in one line instead of failing somewhere
// inside with a stack trace.

/**
 * Exits with status 2 and one line naming `name` when this Node is older than 22.19.
 * @param {string} name
 */
function requireNode(name) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return;
  process.stderr.write(
    `${name}: needs Node.js 22.19 or newer; this is ${process.version}. Install a newer Node.js.\n`,
  );
  process.exit(2);
}

module.exports = { requireNode };
