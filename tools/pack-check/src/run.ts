/**
 * Child processes for the pack check: argument arrays (no shell), output captured, a non-zero
 * exit rejected with the command and everything it printed.
 */
import { execFile } from 'node:child_process';

export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Default 180 s. */
  readonly timeoutMs?: number;
}

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command args` in `cwd`; rejects with both output streams when it fails or times out. */
export function run(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 180_000,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(
              `${command} ${args.join(' ')} (in ${options.cwd}) failed: ${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
              { cause: error },
            ),
          );
          return;
        }
        resolve({ stdout, stderr });
      },
    );
  });
}
