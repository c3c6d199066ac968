// Loaded (--import) into every app process the bench starts: if the bench itself is killed outright, its
// app processes are handed to init, so they stop themselves (SIGTERM, their own graceful stop) instead of
// running on with nobody to stop them.
const bench = process.ppid;
setInterval(() => {
  if (process.ppid !== bench) process.kill(process.pid, 'SIGTERM');
}, 500).unref();
