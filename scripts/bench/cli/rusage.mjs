// Preloaded (NODE_OPTIONS=--import) into every process the startup benchmark times, bare node included: at exit it
// appends the process's own CPU time and peak RSS to $BBDC_BENCH_RUSAGE, which a parent cannot read for a child.
import { appendFileSync } from 'node:fs';

const file = process.env.BBDC_BENCH_RUSAGE;
if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const { maxRSS } = process.resourceUsage();
    appendFileSync(file, `${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, rssKiB: maxRSS })}\n`);
  });
}
