// Loaded (--import) into a process whose peak memory is measured: as it exits, it writes its peak
// resident set size (process.resourceUsage().maxRSS, in KiB) to the file PEAK_RSS_FILE names.
import { writeFileSync } from 'node:fs';

const file = process.env.PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
