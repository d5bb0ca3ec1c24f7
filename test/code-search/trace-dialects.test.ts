import { describe, expect, it } from 'vitest';
import { parseFrameLine } from '../../src/domain/stack-frames.js';

describe('frame dialects', () => {
  it("reads RSpec's failure backtrace", () => {
    // https://github.com/castwide/solargraph/pull/727
    expect(parseFrameLine("     # ./lib/solargraph/type_checker.rb:546:in `block in without_ignored'")).toMatchObject({ file: './lib/solargraph/type_checker.rb', line: 546, fn: 'without_ignored', language: 'ruby' });
  });

  it('reads a .NET iterator frame with its state machine', () => {
    // https://github.com/jellyfin/jellyfin/pull/5691
    const line = '   at Emby.Server.Implementations.ApplicationHost.StartEntryPoints(IEnumerable`1 entryPoints, Boolean isBeforeStartup)+MoveNext() in D:\\a\\1\\s\\Emby.Server.Implementations\\ApplicationHost.cs:line 541';
    expect(parseFrameLine(line)).toMatchObject({ file: 'D:\\a\\1\\s\\Emby.Server.Implementations\\ApplicationHost.cs', line: 541, fn: 'StartEntryPoints', language: 'dotnet' });
  });

  it('reads PHP locations inside a phar and inside quoted text', () => {
    // https://github.com/composer/composer/commit/e5c7835d575e35349fc25dc2e201cee10f05ad12
    expect(parseFrameLine('Fatal error: Uncaught ArgumentCountError: array_merge() does not accept unknown named parameters in phar:///path/to/composer.phar/src/Composer/DependencyResolver/DefaultPolicy.php:84')).toMatchObject({ file: 'phar:///path/to/composer.phar/src/Composer/DependencyResolver/DefaultPolicy.php', line: 84, language: 'php' });
    // https://github.com/composer/composer/pull/10904
    expect(parseFrameLine('Composer\\Command\\InitCommand::parseAuthorString(): Argument #1 ($author) must be of type string, null given, called in phar:///composer.phar/src/Composer/Command/InitCommand.php on line 345')).toMatchObject({ file: 'phar:///composer.phar/src/Composer/Command/InitCommand.php', line: 345 });
    // https://github.com/matomo-org/matomo/pull/16482
    expect(parseFrameLine('fix `Uncaught exception: Error: Call to a member function getSegmentArchivesToInvalidateForNewSegments() on null in core/CronArchive.php:818`')).toMatchObject({ file: 'core/CronArchive.php', line: 818 });
  });

  it("reads the location Node prints above an uncaught exception's source line", () => {
    // https://github.com/postmanlabs/npm-cli-login/issues/7
    expect(parseFrameLine('/var/lib/jenkins/workspace/jobname/nvm/versions/node/v0.12.10/lib/node_modules/npm-cli-login/lib/login.js:29')).toMatchObject({ file: '/var/lib/jenkins/workspace/jobname/nvm/versions/node/v0.12.10/lib/node_modules/npm-cli-login/lib/login.js', line: 29, language: 'node', inApp: false });
    expect(parseFrameLine('see lib/login.js:29 for details')).toBeUndefined();
  });
});
