/**
 * Test, spec, fixture and mock files: never fix candidates (the bug is in the code a test calls),
 * but a failing test still says where to look — its subject (`ParserTest` → `Parser`) and its
 * package. The globs are the default of MEDIC_CODE_TEST_GLOBS.
 */
import { matchesAnyGlob } from './file-rules.js';

export const DEFAULT_TEST_GLOBS: readonly string[] = [
  '**/{test,tests,__tests__,__mocks__,spec,specs,testdata,testing,fixture,fixtures,mocks,e2e}/**',
  '**/*.{test,spec,e2e,mock}.{ts,tsx,mts,cts,js,jsx,mjs,cjs}',
  '**/{test_*,*_test,conftest}.py',
  '**/*_test.go',
  '**/{mock_*,*_mock}.{go,py}',
  '**/*_spec.rb',
  '**/{*Test,*Tests,*TestCase,*IT,*Spec,Test*,*Mock,Mock*}.{java,kt,cs,scala,groovy}',
  '**/*{Test,Tests,Spec}.php',
];

export function createTestMatcher(globs: readonly string[] = DEFAULT_TEST_GLOBS): (file: string) => boolean {
  return matchesAnyGlob(globs);
}

const SUBJECT_PATTERNS: RegExp[] = [
  /^(.+?)(?:TestCase|Tests?|IT|Spec)$/, // ParserTest, ParserTests, CartSpec
  /^Test(.+)$/, // TestTextBuffer
  /^test_(.+)$/, // test_parser.py
  /^(.+?)_(?:test|spec)$/, // parser_test.go, cart_spec.rb
  /^(.+?)\.(?:test|spec)$/, // parser.test.ts
];

/** The name of the file a test file exercises, by the usual naming conventions; lower-cased. */
export function testSubjectStem(testFile: string): string | undefined {
  const name = testFile.slice(testFile.lastIndexOf('/') + 1);
  const dot = name.indexOf('.');
  const stem = dot > 0 && /\.(test|spec)\./.test(name) ? name.slice(0, name.search(/\.(test|spec)\./) + 5) : dot > 0 ? name.slice(0, name.lastIndexOf('.')) : name;
  for (const re of SUBJECT_PATTERNS) {
    const subject = re.exec(stem)?.[1];
    if (subject && subject.length >= 2) return subject.toLowerCase();
  }
  return undefined;
}
