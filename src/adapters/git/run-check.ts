/**
 * Runs one check command line under bash, as the process group leader of its own group, with no
 * network where the kernel allows it, an address-space limit (`ulimit -v`), a time limit that
 * kills the whole group, and its output captured up to a bound. The environment is built from
 * nothing: Medic's own secrets (tokens, keys) never reach code from the repository.
 */
import { spawn, spawnSync } from 'node:child_process';

export interface Isolation {
  /** The argv prefix that closes the network (`unshare -n`), empty when none works here. */
  prefix: readonly string[];
  /** What the card and the log say about it. */
  label: string;
}

const NO_ISOLATION: Isolation = { prefix: [], label: 'network not isolated (unshare -n and unshare -rn both failed here); proxy variables cleared' };
let detected: Isolation | undefined;

/**
 * The strongest network isolation this machine grants Medic, tried once per process: a network
 * namespace of its own (root, or CAP_SYS_ADMIN), else one inside a user namespace (unprivileged
 * where the kernel allows user namespaces), else none — said so, never pretended.
 */
export function detectIsolation(): Isolation {
  if (detected) return detected;
  const candidates: Isolation[] = [
    { prefix: ['unshare', '-n'], label: 'no network (network namespace)' },
    { prefix: ['unshare', '-rn'], label: 'no network (user and network namespace)' },
  ];
  detected = candidates.find((c) => spawnSync(c.prefix[0] ?? '', [...c.prefix.slice(1), 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0) ?? NO_ISOLATION;
  return detected;
}

export interface CheckCommandInput {
  command: string;
  cwd: string;
  timeoutMs: number;
  memoryMb: number;
  env: Record<string, string>;
  isolation: Isolation;
  /** Output kept in memory; the rest is counted, not stored (default 64 KiB). */
  maxOutputBytes?: number;
  /** Aborting kills the group as a timeout does. */
  signal?: AbortSignal;
}

export interface CheckCommandRun {
  exitCode?: number;
  /** The signal that ended it, when one did (SIGKILL after a timeout). */
  signal?: string;
  timedOut: boolean;
  output: string;
  droppedBytes: number;
  durationMs: number;
}

// `$1` is the limit in KiB and `$2` the command line: passed as arguments, never spliced into the script.
const SCRIPT = 'ulimit -v "$1" || { echo "medic: could not set the memory limit (ulimit -v $1 KiB)"; exit 125; }; exec bash -c "$2"';
// A process that left the group (setsid) may keep the pipes open after the command ended.
const PIPE_GRACE_MS = 1_000;

export function runCheckCommand(input: CheckCommandInput): Promise<CheckCommandRun> {
  const maxBytes = input.maxOutputBytes ?? 65_536;
  const started = performance.now();
  const argv = [...input.isolation.prefix, 'bash', '-c', SCRIPT, 'medic-check', String(input.memoryMb * 1024), input.command];
  return new Promise((resolve) => {
    const child = spawn(argv[0] ?? 'bash', argv.slice(1), { cwd: input.cwd, env: input.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let kept = 0;
    let droppedBytes = 0;
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let done = false;
    const take = (chunk: Buffer) => {
      const room = maxBytes - kept;
      if (room > 0) chunks.push(chunk.subarray(0, room));
      kept += Math.min(room, chunk.length);
      droppedBytes += Math.max(0, chunk.length - Math.max(room, 0));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const finish = (spawnError?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
      const output = Buffer.concat(chunks).toString('utf8') + (spawnError ? `\n${spawnError.message}` : '');
      resolve({
        ...(exit?.code !== null && exit?.code !== undefined ? { exitCode: exit.code } : {}),
        ...(exit?.signal ? { signal: exit.signal } : {}),
        ...(spawnError ? { exitCode: 127 } : {}),
        timedOut, output, droppedBytes, durationMs: Math.round(performance.now() - started),
      });
    };
    const onAbort = () => {
      timedOut = true;
      killGroup();
    };
    const timer = setTimeout(onAbort, input.timeoutMs);
    input.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => finish(error));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the command left running in its group ends with it.
      killGroup();
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, PIPE_GRACE_MS).unref();
    });
    child.on('close', () => finish());
  });
}

/** Variables that locate toolchains and caches, never credentials: kept so `go`, `mvn` and `python` find theirs. */
const TOOLCHAIN = /^(PATH|HOME|USER|LOGNAME|LANG|LC_[A-Z]+|TZ|TMPDIR|JAVA_HOME|GOPATH|GOROOT|GOCACHE|GOMODCACHE|GOFLAGS|M2_HOME|MAVEN_HOME|GRADLE_USER_HOME|PYENV_ROOT|PYENV_VERSION|VIRTUAL_ENV|CONDA_PREFIX)$/;

/**
 * The check's environment: the toolchain variables of Medic's own environment and nothing else
 * (no proxy, no token), `CI=true`, and Medic's `node_modules` — its `.bin` last on PATH and the
 * directory itself as MEDIC_NODE_MODULES — so a TypeScript service can be compiled offline.
 */
export function checkEnvironment(env: NodeJS.ProcessEnv, medicNodeModules: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && TOOLCHAIN.test(key)) out[key] = value;
  out.PATH = [out.PATH ?? '/usr/local/bin:/usr/bin:/bin', ...(medicNodeModules ? [`${medicNodeModules}/.bin`] : [])].join(':');
  if (medicNodeModules) out.MEDIC_NODE_MODULES = medicNodeModules;
  out.CI = 'true';
  return out;
}
