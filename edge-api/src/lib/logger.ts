export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

import { currentRequestId } from './request-context.ts';

/**
 * One JSON line per event, with its level and, inside a request, the request's id (`X-Request-Id`).
 * Callers never pass passwords, tokens or credentials.
 */
export function consoleLogger(): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>) => {
    const requestId = currentRequestId();
    console[level === 'error' ? 'error' : 'log'](JSON.stringify({ level, message, ...(requestId && { requestId }), ...fields }));
  };
  return {
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
