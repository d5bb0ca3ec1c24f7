import type { CliCommand } from '../command.js';
import type { BootMedic } from '../boot-medic.js';
import { readArgs } from '../read-args.js';
import { terminalIo } from '../terminal-output.js';
import { IncidentState, type Incident } from '../../domain/incident.js';
import { plainStatusWord } from '../../presenters/status-words.js';
import { isAwaitingVerification } from '../../domain/verification.js';

const OPEN_STATES = IncidentState.options.filter((state) => state !== 'closed');

/** "incidents      2 Awaiting approval · 1 Branch pushed": open incidents in the card's status words. */
export function presentIncidentTally(open: readonly Incident[]): string {
  const counts = new Map<string, number>();
  for (const incident of open) counts.set(plainStatusWord(incident), (counts.get(plainStatusWord(incident)) ?? 0) + 1);
  const tally = [...counts].map(([word, n]) => `${n} ${word}`).join(' · ');
  return `${'incidents'.padEnd(20)}${tally || 'none open'}`;
}

/** "verification        2 awaiting · 1 awaiting merge · 1 watching (inc-1, inc-2)": fixes still watched after their push. */
export function presentVerificationTally(incidents: readonly Incident[]): string {
  const awaiting = incidents.filter((incident) => isAwaitingVerification(incident.verification));
  if (awaiting.length === 0) return `${'verification'.padEnd(20)}none awaiting`;
  const counts = new Map<string, number>();
  for (const incident of awaiting) {
    const stage = incident.verification!.status.replace(/_/g, ' ');
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
  }
  const ids = awaiting.slice(0, 10).map((incident) => incident.id).join(', ') + (awaiting.length > 10 ? ', …' : '');
  return `${'verification'.padEnd(20)}${awaiting.length} awaiting · ${[...counts].map(([stage, n]) => `${n} ${stage}`).join(' · ')} (${ids})`;
}

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
        io.stderr.write(`usage: medic ${this.usage}\n`);
        return 2;
      }
      return boot(io, async ({ medic, redisUrl, embeddedRedis }) => {
        const checks = await medic.checks();
        const redis = checks.find((c) => c.name === 'redis');
        if (redis) redis.adapter = embeddedRedis ? `embedded redis-server at ${redisUrl}` : `redis at ${redisUrl.replace(/\/\/[^@]*@/, '//***@')}`;
        for (const check of checks) {
          io.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name.padEnd(14)} ${check.adapter}\n      ${check.detail}\n`);
        }
        const open = await medic.store.list({ states: OPEN_STATES, limit: 1_000 });
        io.stdout.write(`\n${presentIncidentTally(open)}\n${presentVerificationTally(open)}\n`);
        const failed = checks.filter((c) => !c.ok).length;
        io.stdout.write(failed === 0 ? '\nAll services work.\n' : `\n${failed} service(s) need attention.\n`);
        return failed === 0 ? 0 : 1;
      }, { prepare: true });
    },
  };
}
