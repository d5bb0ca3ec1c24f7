import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileLogSource } from '../../src/adapters/file-logs/file-log-source.js';
import { buildSplunkRow } from '../loopback/splunk-server.js';
import { startSplunkFixture } from '../splunk/support/fixtures.js';
import { CONTRACT_BASE_MS, describeLogSourceContract, type ContractRecord } from './log-source.contract.js';

const stackOf = (r: ContractRecord) => (r.frames ? [`Error: ${r.message}`, ...r.frames.map((f) => `    ${f}`)].join('\n') : undefined);

describeLogSourceContract('files', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'medic-contract-files-'));
  const source = createFileLogSource({ dir, correlationFields: ['txn_id', 'orderNumber', 'requestId'] });
  return {
    source,
    async append(records) {
      const lines = records.map((r) => JSON.stringify({ time: r.time, level: r.level, service: r.service, message: r.message, txn_id: r.txn, sessionId: r.session, stack: stackOf(r) }));
      await appendFile(join(dir, 'app.jsonl'), lines.map((l) => `${l}\n`).join(''));
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

describeLogSourceContract('splunk over the loopback server', async () => {
  const fx = await startSplunkFixture();
  fx.clock.now = CONTRACT_BASE_MS / 1000 + 60;
  let cd = 0;
  return {
    source: fx.source,
    async append(records) {
      for (const r of records) {
        // Indexed now, whatever the event's own time: index time only moves forward.
        fx.clock.now = Math.max(fx.clock.now, Math.ceil(Date.parse(r.time) / 1000)) + 1;
        const header = `${r.time} ${r.level} [${r.service}] ${r.message}${r.txn ? ` txn_id=${r.txn}` : ''}`;
        const fields: Record<string, string> = { level: r.level, service: r.service, message: r.message };
        if (r.txn) fields.txn_id = r.txn;
        if (r.session) fields.sessionId = r.session;
        fx.server.rows.push(buildSplunkRow({ cd: `40:${++cd}`, time: r.time, indexTime: fx.clock.now, raw: [header, stackOf(r)].filter(Boolean).join('\n'), fields }));
      }
    },
    close: () => fx.close(),
  };
});
