// Preloaded (node --import) by the copy-store test: kills this process with SIGKILL (no cleanup, as a crash or the OOM
// killer would) right after copy-store reports its first committed batch of memories, so the next run has to resume.
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  const written = write(chunk, ...rest);
  if (String(chunk).startsWith('copy-store memories')) process.kill(process.pid, 'SIGKILL');
  return written;
};
