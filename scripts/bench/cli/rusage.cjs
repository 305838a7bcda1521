// Preloaded (NODE_OPTIONS=--require) into every process the startup benchmark times, bare node included: at exit it
// appends the process's own CPU time and peak RSS to $BBDC_BENCH_RUSAGE, which a parent cannot read for a child.
// CommonJS: an ES module preload (--import) starts Node's ES module loader in every process, about 15 million
// instructions (3 ms) that bare node then paid and the single executable, with this probe compiled in, did not.
const { appendFileSync } = require('node:fs');

const file = process.env.BBDC_BENCH_RUSAGE;
if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const { maxRSS } = process.resourceUsage();
    appendFileSync(file, `${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, rssKiB: maxRSS })}\n`);
  });
}
