// Preloaded into a CLI child by test/security/hostile-repo.test.ts: at exit, its peak memory and CPU time go
// to the file TOLLGATE_RUSAGE_OUT names (process.resourceUsage: maxRSS in KiB, CPU in microseconds).
import { writeFileSync } from 'node:fs';

const out = process.env.TOLLGATE_RUSAGE_OUT;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ maxRssKiB: u.maxRSS, cpuMicros: u.userCPUTime + u.systemCPUTime }));
  });
}
