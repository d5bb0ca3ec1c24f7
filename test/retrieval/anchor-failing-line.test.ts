import { describe, expect, it } from 'vitest';
import { parseStackTrace } from '../../src/domain/stack-trace.js';
import { anchorLine, isSyntheticFrame, sourceTextOf, traceSourceLines } from '../../src/retrieval/anchor-failing-line.js';

describe('the line a frame names', () => {
  it("reads the source text Python prints under each frame, and Node's above an uncaught error", () => {
    // borgbackup/borg#5201, as the reporter pasted it (paths snipped by the reporter).
    const python = ['Traceback (most recent call last):', '  File "[snip]/borg/crypto/key.py", line 713, in sanity_check', "    with open(filename, 'rb') as fd:", "FileNotFoundError: [Errno 2] No such file or directory: '[snip]/newborgkey'"].join('\n');
    const sources = traceSourceLines(python);
    const frame = parseStackTrace(python).frames[0]!;
    expect(sourceTextOf(sources, frame)).toBe("with open(filename, 'rb') as fd:");
    const node = traceSourceLines('/srv/app/lib/login.js:29\n    const user = body.user.name;\n                           ^\n\nTypeError: x');
    expect([...node]).toEqual([['login.js:29', 'const user = body.user.name;']]);
    // A frame followed by the next frame or the exception carries no text.
    expect(traceSourceLines('  File "a.py", line 3, in f\n  File "b.py", line 4, in g\nValueError: x').size).toBe(0);
  });

  it('takes the reported line when it holds the text, else the nearest line that does, else the number', () => {
    const content = ['a = 1', 'b = f(a)', '', 'c = 2', 'b = f(a)', ''].join('\n');
    expect(anchorLine(content, 5, 'b = f(a)')).toBe(5);
    expect(anchorLine(content, 4, '  b  =  f(a)')).toBe(5);
    expect(anchorLine(content, 3, 'b = f(a)')).toBe(2);
    expect(anchorLine(content, 4, 'not in the file')).toBe(4);
    expect(anchorLine(content, 40)).toBeUndefined();
  });

  it("treats Go's package initializer, eval'd code and generated files as no line", () => {
    const go = parseStackTrace('panic: x\n\ngoroutine 1 [running]:\nexample.com/app/config.init()\n\t/src/app/config/config.go:3 +0x1d\nexample.com/app/config.init.0()\n\t/src/app/config/config.go:9 +0x1d').frames;
    expect(go.map(isSyntheticFrame)).toEqual([true, false]);
    expect(isSyntheticFrame({ file: 'api/v1/service.pb.go', line: 3, inApp: true, language: 'go' })).toBe(true);
    expect(isSyntheticFrame({ file: 'eval at run (/srv/app/x.js:1:1)', line: 1, inApp: true, language: 'node' })).toBe(true);
    expect(isSyntheticFrame({ file: 'src/Forms/Main.Designer.cs', line: 3, inApp: true, language: 'dotnet' })).toBe(true);
    expect(isSyntheticFrame({ file: 'src/app/config.go', fn: 'load', line: 3, inApp: true, language: 'go' })).toBe(false);
  });
});
