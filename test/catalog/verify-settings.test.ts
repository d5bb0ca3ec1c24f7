import { describe, expect, it } from 'vitest';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';

const file = (verify: string) => `version: 1
services:
  - name: checkout
    channel: checkout-oncall
${verify}
`;

describe('a service\'s verify: settings', () => {
  it('reads the quiet window and each kind of deploy marker', () => {
    const read = (verify: string) => parseCatalogFile(file(verify), 'catalog.yaml').part?.services[0]?.verify;
    expect(read('    verify: { quiet_minutes: 45, deploy: github-deployment, environment: production }')).toEqual({ quietMinutes: 45, deploy: { kind: 'github-deployment', environment: 'production' } });
    expect(read('    verify: { deploy: github-release }')).toEqual({ deploy: { kind: 'github-release' } });
    expect(read('    verify: { deploy: log-line, pattern: "started version" }')).toEqual({ deploy: { kind: 'log-line', pattern: 'started version' } });
    expect(read('    verify: { quiet_minutes: 10 }')).toEqual({ quietMinutes: 10 });
    expect(read('')).toBeUndefined();
  });

  it('names the place and the reason of every wrong setting', () => {
    const problems = (verify: string) => parseCatalogFile(file(verify), 'catalog.yaml').problems.map((p) => `${p.where}: ${p.message}`);
    expect(problems('    verify: { deploy: log-line }')).toEqual(['catalog.yaml: services.0.verify.pattern: a log-line deploy marker needs the pattern of the line']);
    expect(problems('    verify: { deploy: merge, pattern: "x started" }')).toEqual(['catalog.yaml: services.0.verify.pattern: pattern is only read with deploy: log-line']);
    expect(problems('    verify: { deploy: github-release, environment: prod }')).toEqual(['catalog.yaml: services.0.verify.environment: environment is only read with deploy: github-deployment']);
    expect(problems('    verify: { quiet_minutes: 0 }')[0]).toMatch(/services\.0\.verify\.quiet_minutes/);
    expect(problems('    verify: { deploy: nightly }')[0]).toMatch(/services\.0\.verify\.deploy/);
    expect(problems('    verify: { window: 5 }')[0]).toMatch(/services\.0\.verify/);
  });
});
