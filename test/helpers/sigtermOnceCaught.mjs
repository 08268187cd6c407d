// Preloaded (node --import) by a CLI test: sends SIGTERM to this process as soon as it listens for it, and says
// on stderr whether the data folder existed by then (it does not while the server's modules are still loading).
import { existsSync } from 'node:fs';

const timer = setInterval(() => {
  if (process.listenerCount('SIGTERM') === 0) return;
  clearInterval(timer);
  process.stderr.write(`SIGTERM sent; the data folder existed: ${existsSync(process.env.MNEMO_DATA_DIR ?? '')}\n`);
  process.kill(process.pid, 'SIGTERM');
}, 1);
timer.unref();
