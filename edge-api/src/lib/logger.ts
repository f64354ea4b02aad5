export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One JSON line per event. Callers never pass passwords, tokens or credentials. */
export function consoleLogger(): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>) =>
    console[level === 'error' ? 'error' : 'log'](JSON.stringify({ level, message, ...fields }));
  return {
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
