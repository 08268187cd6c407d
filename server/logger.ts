import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines to `destination` (default: the process's standard output, written by pino's own fast stream). */
export function createLogger(
  level: string = process.env.MNEMO_LOG_LEVEL ?? 'info',
  destination?: { write(line: string): unknown },
): Logger {
  return destination ? pino({ name: 'mnemo', level }, destination) : pino({ name: 'mnemo', level });
}
