import type { CliCommand } from '../command.js';
import type { BootMedic } from '../boot-medic.js';
import { readArgs } from '../read-args.js';
import { terminalIo } from '../terminal-output.js';

/** `doctor`: each configured service — reachable, authenticated, which adapter — and what to fix. */
export function createDoctorCommand(boot: BootMedic): CliCommand {
  return {
    name: 'doctor',
    usage: 'doctor',
    summary: 'check every configured service and say what works and what does not',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, {});
      if (typeof parsed === 'number') return parsed;
      if (parsed.positionals.length > 0) {
        io.stderr.write(`Usage: npm run medic -- ${this.usage}\n`);
        return 2;
      }
      return boot(io, async ({ medic, redisUrl, embeddedRedis }) => {
        const checks = await medic.checks();
        const redis = checks.find((c) => c.name === 'redis');
        if (redis) redis.adapter = embeddedRedis ? `embedded redis-server at ${redisUrl}` : `redis at ${redisUrl.replace(/\/\/[^@]*@/, '//***@')}`;
        for (const check of checks) {
          io.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name.padEnd(14)} ${check.adapter}\n      ${check.detail}\n`);
        }
        const failed = checks.filter((c) => !c.ok).length;
        io.stdout.write(failed === 0 ? '\nAll services work.\n' : `\n${failed} service(s) need attention.\n`);
        return failed === 0 ? 0 : 1;
      }, { prepare: true });
    },
  };
}
