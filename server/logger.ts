import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string = process.env.MNEMO_LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: 'mnemo', level });
}
