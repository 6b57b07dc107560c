/**
 * Structured logging: one line per event. JSON lines when stdout is not a terminal (so process supervisors and
 * the tests can parse them), a compact `time LEVEL msg key=value` form for people at a terminal.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose lines all carry `fields` (e.g. `{ component: 'rpc' }`). */
  child(fields: LogFields): Logger;
  readonly level: LogLevel;
  /**
   * true: info and debug lines are dropped, warnings and errors still go out (anvil_setLoggingEnabled). One switch
   * for a logger and every child of it.
   */
  quiet: boolean;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Defaults to JSON unless the stream is a TTY. */
  format?: 'json' | 'pretty';
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Values JSON cannot carry (bigint, Error) become strings so a log call can never throw. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

function prettyValue(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (value instanceof Error) return JSON.stringify(value.stack ?? value.message);
  return JSON.stringify(value, jsonSafe);
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stdout;
  const format = options.format ?? (stream.isTTY ? 'pretty' : 'json');
  const threshold = rank[options.level ?? 'info'];
  const level = options.level ?? 'info';
  let quiet = false;

  const make = (bound: LogFields): Logger => {
    const write = (lvl: LogLevel, msg: string, fields?: LogFields) => {
      if (rank[lvl] < threshold || (quiet && rank[lvl] < rank.warn)) return;
      const time = new Date().toISOString();
      let line: string;
      if (format === 'json') {
        line = JSON.stringify({ time, level: lvl, msg, ...bound, ...fields }, jsonSafe);
      } else {
        line = `${time} ${lvl.toUpperCase().padEnd(5)} ${msg}`;
        for (const [k, v] of Object.entries({ ...bound, ...fields })) line += ` ${k}=${prettyValue(v)}`;
      }
      stream.write(line + '\n');
    };
    return {
      level,
      debug: (msg, fields) => write('debug', msg, fields),
      info: (msg, fields) => write('info', msg, fields),
      warn: (msg, fields) => write('warn', msg, fields),
      error: (msg, fields) => write('error', msg, fields),
      child: (fields) => make({ ...bound, ...fields }),
      get quiet() {
        return quiet;
      },
      set quiet(on: boolean) {
        quiet = on;
      },
    };
  };
  return make({});
}

/** For library use and tests: drops everything. */
export const silentLogger: Logger = createLogger({ level: 'error', stream: { write: () => true } as never });
