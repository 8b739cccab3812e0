// Preloaded (node --import) into a tollgate CLI child: reports its peak resident memory on exit,
// which node:child_process does not give the parent.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nTOLLGATE_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
