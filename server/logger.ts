import pino from 'pino';
import { redactSecrets } from './redact.ts';

export type Logger = pino.Logger;

/**
 * JSON lines to `destination` (default: the process's standard output, written by pino's own fast stream).
 * Every line is redacted before it is written (server/redact.ts): whatever a line carries (an error message
 * that echoes a variable, an outside service's answer, a stack), a secret never reaches the log.
 */
export function createLogger(
  level: string = process.env.MNEMO_LOG_LEVEL ?? 'info',
  destination?: { write(line: string): unknown },
): Logger {
  const options: pino.LoggerOptions = { name: 'mnemo', level, hooks: { streamWrite: (line) => redactSecrets(line) } };
  return destination ? pino(options, destination) : pino(options);
}
