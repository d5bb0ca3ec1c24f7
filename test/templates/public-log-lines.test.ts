/**
 * The three ways a miner mistakes one failure for several, or several for one, shown on real log
 * lines quoted in public GitHub issues and repositories (the source of each is next to it). None
 * of these lines comes from the Loghub systems.
 */
import { describe, expect, it } from 'vitest';
import { maskMessage } from '../../src/domain/templates/mask-message.js';
import { kindOf, TokenKind } from '../../src/domain/templates/token-kind.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';

function finalGroups(messages: string[]): string[] {
  const miner = createTemplateMiner();
  const ids = messages.map((m) => miner.add(m).groupId);
  return ids.map((id) => miner.lookup(id)?.groupId ?? id);
}

describe('structured tokens inside the message are one value each', () => {
  it('masks an RFC 1123 date, weekday and month names included, as one value', () => {
    // https://github.com/pbatard/libwdi/issues/94 (wget -d response headers)
    expect(maskMessage('Date: Tue, 22 Aug 2017 10:42:02 GMT')).toEqual(['Date:', '<*>']);
    expect(maskMessage('Last-Modified: Tue, 18 Apr 2017 19:10:54 GMT')).toEqual(['Last-Modified:', '<*>']);
    // https://github.com/rockdaboot/wget2/issues/256 (wget2 --debug)
    expect(maskMessage('20.002213.085 expires: Wed, 19 Jan 2022 16:25:03 GMT')).toEqual(['<*>', 'expires:', '<*>']);
  });

  it('puts logins on different days, written as ctime dates, in one family', () => {
    const groups = finalGroups([
      'Last login: Thu Sep 17 22:32:11 2015 from 000.000.000.000', // https://github.com/Russell91/sshrc/issues/53
      'Last login: Mon Jul 25 10:51:55 2016 from 192.168.1.2', // https://github.com/Russell91/sshrc/pull/70
    ]);
    expect(new Set(groups).size).toBe(1);
  });

  it('puts connections to different host names and addresses in one family', () => {
    const groups = finalGroups([
      'Connecting to zadig.akeo.ie (zadig.akeo.ie)|192.159.65.198|:80... connected.', // https://github.com/pbatard/libwdi/issues/94
      'Connecting to alpha.wallhaven.cc (alpha.wallhaven.cc)|104.28.20.70|:443... connected.', // https://github.com/macearl/Wallhaven-Downloader/issues/13
      'Connecting to localhost (localhost)|127.0.0.1|:80... connected.', // https://github.com/silverwind/droppy/issues/175
    ]);
    expect(new Set(groups).size).toBe(1);
  });

  it('masks an empty key= value as the field it is: OUT= and OUT=weave are one field', () => {
    // https://github.com/wazuh/wazuh-ruleset/issues/645
    const empty = maskMessage('[UFW BLOCK] IN=eth0 OUT= MAC=00:15:5d:e6:a2:01:2a:a3:c6:42:b1:90:08:00 SRC=172.25.230.143 DST=172.25.230.141 LEN=214 TOS=0x00 PREC=0x00 TTL=128 ID=43131 PROTO=UDP SPT=53540 DPT=1514 LEN=194');
    // https://github.com/weaveworks/weave/issues/450
    const valued = maskMessage('[UFW BLOCK] IN=weave OUT=weave PHYSIN=vethwepl8172 PHYSOUT=vethwepl24506 SRC=10.0.20.1 DST=10.0.20.254 LEN=60 TOS=0x00 PREC=0x00 TTL=64 ID=38255 DF PROTO=TCP SPT=36452 DPT=5432 WINDOW=43690 RES=0x00 SYN URGP=0');
    expect(empty[3]).toBe('OUT=<*>');
    expect(valued[3]).toBe(empty[3]);
  });
});

describe('optional groups do not split a family', () => {
  it('joins a size with and without its parenthesised human-readable form', () => {
    // wget prints " (%s)" after the length only from 1024 bytes on: "Length: %s" then, if size >= 1024,
    // " (%s)" (wget's source as quoted in happyhappiness/logSurvey, data/crawl/wget/old_hunk_228.cpp).
    const groups = finalGroups([
      'Length: 4550656 (4.3M) [application/octet-stream]', // https://github.com/sjlleo/netflix-verify/issues/26
      // The same wget session's next download, quoted in public picoCTF "reverse_cipher" write-ups.
      'Length: 24 [application/octet-stream]',
    ]);
    expect(new Set(groups).size).toBe(1);
    // https://github.com/wpscanteam/wpscan/issues/10
    expect(maskMessage('Length: 5077697265 (4,7G) [text/plain]')).toEqual(['Length:', '<*>', '[text/plain]']);
  });

  it('joins a bounded value with an exact one: time<1ms beside time=9ms', () => {
    const groups = finalGroups([
      'Reply from 10.0.0.1: bytes=32 time<1ms TTL=64', // https://github.com/tailscale/tailscale/pull/13655
      'Reply from 192.168.1.1: bytes=32 time=9ms TTL=64', // https://github.com/point-source/dart_ping/issues/35
      'Reply from 1.1.1.1: bytes=32 time=25ms TTL=53', // https://github.com/Calinou/lagraph/issues/1
    ]);
    expect(new Set(groups).size).toBe(1);
  });
});

describe('closed vocabularies stay constants', () => {
  it('keeps lifecycle transitions apart however often each is seen', () => {
    // https://github.com/etf-validator/etf-webapp/issues/11
    const lines = ['Changed state from CREATED to INITIALIZING', 'Changed state from INITIALIZING to INITIALIZED', 'Setting state to CREATED'];
    const groups = finalGroups(Array.from({ length: 12 }, (_, i) => lines[i % lines.length] as string));
    expect(new Set(groups).size).toBe(3);
  });

  it('keeps the direction of a frame apart: < and > are layout, never a variable', () => {
    // https://github.com/rockdaboot/wget2/issues/337 (wget2 --debug)
    const groups = finalGroups(['16.192911.121 [FRAME 0] > SETTINGS', '16.192911.152 [FRAME 0] < SETTINGS', '16.192911.152 [FRAME 0] > SETTINGS', '16.192911.152 [FRAME 0] < SETTINGS']);
    expect(groups[0]).toBe(groups[2]);
    expect(groups[1]).toBe(groups[3]);
    expect(groups[0]).not.toBe(groups[1]);
  });

  it('reads a quoted request method as a word, so methods need the evidence of many rare values to merge', () => {
    // https://github.com/fossar/selfoss/issues/1427 (nginx error log): request: "GET /update HTTP/1.1"
    const tokens = maskMessage('upstream timed out (110: Connection timed out) while reading response header from upstream, client: 192.168.17.1, server: localhost, request: "GET /update HTTP/1.1", upstream: "fastcgi://127.0.0.1:9000", host: "192.168.17.128"');
    const method = tokens.find((t) => t.startsWith('"G')) as string;
    expect(method).toBe('"GET');
    expect(kindOf(method)).toBe(TokenKind.Word);
    expect(kindOf('"/update')).toBe(TokenKind.Value);
  });
});
