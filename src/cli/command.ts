import type { Argv } from 'yargs';

/** Where a command writes; tests pass their own to capture output. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/**
 * One CLI command's code: yargs builder plus a handler that returns the exit code
 * (0 clean, 1 problems found, 2 usage or I/O failure). Handlers print through
 * `io` only and never call process.exit, so they run the same in tests.
 */
export interface Command {
  builder: (y: Argv) => Argv;
  run: (args: Record<string, unknown>, io: Io) => Promise<number>;
}

/**
 * A command as `tollgate --help` lists it. `load` brings in its code (./commands/<name>.ts and what that
 * imports) only when the command is invoked: evaluating every command's modules was most of the CLI's start.
 */
export interface CommandEntry {
  name: string;
  describe: string;
  load: () => Promise<Command>;
}

/** A failure the user caused (bad argument, unreadable path): printed as one line, exit code 2. */
export class UsageError extends Error {}
