import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../../src/code-search/memory-repository.js';
import { preferNamed } from '../../src/code-search/map-frames.js';
import { rankFiles } from '../../src/code-search/search-code.js';
import { parseFrameLine } from '../../src/domain/stack-frames.js';

const repoOf = (files: string[]) => createMemoryRepository(Object.fromEntries(files.map((f) => [f, ''])));
const top = async (files: string[], text: string) => (await rankFiles(repoOf(files), { text })).map((r) => r.file);

describe('Rust panics', () => {
  it('reads both panic forms, with Windows separators', () => {
    // https://github.com/helix-editor/helix/pull/15208
    expect(parseFrameLine("thread 'main' panicked at helix-term/src/ui/prompt.rs:769:55:")).toMatchObject({ file: 'helix-term/src/ui/prompt.rs', line: 769, language: 'rust', inApp: true });
    // https://github.com/nushell/nushell/pull/8086
    expect(parseFrameLine("thread 'main' panicked at 'index out of bounds: the len is 0 but the index is 0', crates\\nu-command\\src\\filters\\rename.rs:110:15")).toMatchObject({ file: 'crates\\nu-command\\src\\filters\\rename.rs', line: 110, language: 'rust' });
  });

  it('takes the toolchain and the Cargo registry for library code', () => {
    expect(parseFrameLine('             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs:72:14')).toMatchObject({ inApp: false, language: 'rust' });
    expect(parseFrameLine("thread 'main' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/nu-protocol-0.89.0/src/signature.rs:650:9:")).toMatchObject({ inApp: false });
  });

  it('ranks the file a panic names', async () => {
    // https://github.com/nushell/nushell/pull/8086
    const files = ['crates/nu-command/src/filters/rename.rs', 'crates/nu-command/src/filters/lines.rs', 'crates/nu-protocol/src/value/mod.rs'];
    expect((await top(files, "thread 'main' panicked at 'index out of bounds: the len is 0 but the index is 0', crates\\nu-command\\src\\filters\\rename.rs:110:15"))[0]).toBe('crates/nu-command/src/filters/rename.rs');
  });
});

describe('installed copies of the repository', () => {
  it('maps a single-file module installed at the root of site-packages, and only by its whole name there', async () => {
    // https://github.com/astral-sh/uv/pull/6996 (the repository's `_virtualenv.py`, installed into a virtualenv)
    const trace = [
      'Error processing line 1 of /tmp/tmp.ENwqZ0oeyb/lib/python3.6/site-packages/_virtualenv.pth:',
      '  Traceback (most recent call last):',
      '    File "~/.pyenv/versions/3.6.15/lib/python3.6/site.py", line 168, in addpackage',
      '      exec(line)',
      '    File "<string>", line 1, in <module>',
      '    File "/tmp/tmp.ENwqZ0oeyb/lib/python3.6/site-packages/_virtualenv.py", line 3',
      '      from __future__ import annotations',
      '  SyntaxError: future feature annotations is not defined',
    ].join('\n');
    expect(await top(['crates/uv-virtualenv/src/_virtualenv.py', 'crates/uv-virtualenv/src/lib.rs', 'python/uv/__init__.py'], trace)).toEqual(['crates/uv-virtualenv/src/_virtualenv.py']);
    // Inside a package the package's name must match too: another project's `models.py` is not the repository's.
    const other = '  File "/venv/lib/python3.11/site-packages/requests/models.py", line 1021, in raise_for_status\n    raise HTTPError(http_error_msg, response=self)';
    expect(await top(['app/models.py', 'app/views.py'], other)).not.toContain('app/models.py');
  });

  it('maps a gem of the repository by the path below the gem', async () => {
    // https://github.com/rubocop/rubocop-ast/commit/b0bf2f2e73d1bb893c9fbb0fc169b1466fca4f3a
    const files = ['lib/rubocop/ast/node/send_node.rb', 'lib/rubocop/ast/traversal.rb', 'lib/rubocop/ast/node.rb'];
    const ranked = await top(files, [
      "undefined method `source' for nil:NilClass",
      "/home/pocke/.gem/ruby/2.4.0/gems/rubocop-0.51.0/lib/rubocop/ast/node/send_node.rb:40:in `stabby_lambda?'",
      "/home/pocke/.gem/ruby/2.4.0/gems/rubocop-0.51.0/lib/rubocop/cop/style/empty_block_parameter.rb:31:in `on_block'",
      "/home/pocke/.gem/ruby/2.4.0/gems/rubocop-0.51.0/lib/rubocop/ast/traversal.rb:12:in `walk'",
    ].join('\n'));
    expect(ranked.slice(0, 2)).toEqual(['lib/rubocop/ast/node/send_node.rb', 'lib/rubocop/ast/traversal.rb']);
  });

  it('maps a Composer package of the repository', async () => {
    // https://github.com/vimeo/psalm/pull/6716
    const files = ['src/Psalm/CodeLocation.php', 'src/Psalm/Codebase.php'];
    expect(await top(files, 'fix Uncaught ValueError: strrpos(): Argument #3 ($offset) must be contained in argument #1 ($haystack) in /var/www/html/vendor/vimeo/psalm/src/Psalm/CodeLocation.php:301')).toEqual(['src/Psalm/CodeLocation.php']);
  });

  it('maps an npm package whose file sits at the repository root', async () => {
    // https://github.com/npm/hosted-git-info/issues/49
    const files = ['git-host.js', 'index.js', 'git-host-info.js'];
    expect((await top(files, 'TypeError: this[method] is not a function\nat GitHost.toString (node_modules/hosted-git-info/git-host.js:154:22)'))[0]).toBe('git-host.js');
  });

  it('maps a wheel installed into a tool environment', async () => {
    const files = ['beets/util/deprecation.py', 'beets/util/__init__.py', 'beetsplug/fetchart.py'];
    const ranked = await top(files, [
      'Traceback (most recent call last):',
      '  File "/Users/x/.local/share/uv/tools/beets/lib/python3.14/site-packages/beets/util/deprecation.py", line 60, in __getattr__',
      '    raise AttributeError(name)',
      'AttributeError: x',
    ].join('\n'));
    expect(ranked[0]).toBe('beets/util/deprecation.py');
  });

  it("never reads a dependency's frames as the project's while the project has frames of its own", async () => {
    const files = ['src/app.js', 'lib/router/index.js'];
    const ranked = await top(files, 'TypeError: x\n    at handle (/srv/shop/node_modules/express/lib/router/index.js:284:7)\n    at main (/srv/shop/src/app.js:10:3)');
    expect(ranked).toEqual(['src/app.js']);
  });

  it("breaks a tie by the frame's package name", () => {
    const matches = [{ file: 'crates/nu-cmd/src/signature.rs', segments: 2 }, { file: 'crates/nu-protocol/src/signature.rs', segments: 2 }];
    const frame = { file: '/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/nu-protocol-0.89.0/src/signature.rs' };
    expect(preferNamed(frame, matches)).toEqual([matches[1]]);
    expect(preferNamed({ file: '/x/other-1.0.0/src/signature.rs' }, matches)).toEqual(matches);
  });
});

describe('JVM module frames', () => {
  it('reads a frame whose module carries a version', async () => {
    // https://github.com/JabRef/jabref/pull/10840
    const line = '\tat org.jabref@100.0.0/org.jabref.logic.pdf.search.PdfIndexer.close(PdfIndexer.java:299)';
    expect(parseFrameLine(line)).toMatchObject({ file: 'org/jabref/logic/pdf/search/PdfIndexer.java', line: 299, language: 'java' });
    const files = ['src/main/java/org/jabref/logic/pdf/search/PdfIndexer.java', 'src/main/java/org/jabref/logic/pdf/search/PdfIndexerManager.java'];
    const ranked = await top(files, ['java.lang.NullPointerException: Cannot invoke "org.apache.lucene.index.IndexWriter.close()" because "this.indexWriter" is null', line, '\tat org.jabref@100.0.0/org.jabref.logic.pdf.search.PdfIndexerManager.shutdownIndexer(PdfIndexerManager.java:74)'].join('\n'));
    expect(ranked[0]).toBe('src/main/java/org/jabref/logic/pdf/search/PdfIndexer.java');
  });
});
