/**
 * The one filter every code-search candidate passes, whether lexical search or a stack frame
 * found it: a source file of the configured languages, selected by the globs, not vendored,
 * generated or built, not a test, spec, fixture or mock, and not a protected file.
 */
import { createGlobFilter, DEFAULT_LANGUAGES, extensionsFor, hasExtension, isExcludedPath } from './file-rules.js';
import { protectedPathReason } from './protected-paths.js';
import { createTestMatcher, DEFAULT_TEST_GLOBS } from './test-files.js';

export interface CandidateRules {
  /** Languages to search (keys of LANGUAGE_EXTENSIONS); default all. */
  languages?: readonly string[];
  /** Include globs, `!glob` to exclude; default everything. */
  globs?: readonly string[];
  /** Test, spec, fixture and mock files (MEDIC_CODE_TEST_GLOBS); default DEFAULT_TEST_GLOBS. */
  testGlobs?: readonly string[];
  /** Protected files the operator allows as fix targets (MEDIC_FIX_ALLOW_PROTECTED). */
  allowProtected?: readonly string[];
  /** Medic's action policy file, relative to the repository when it lives there. */
  policyFile?: string;
}

export interface CandidateFilter {
  isCandidate(file: string): boolean;
  isTest(file: string): boolean;
}

export function createCandidateFilter(rules: CandidateRules = {}): CandidateFilter {
  const extensions = extensionsFor(rules.languages?.length ? rules.languages : DEFAULT_LANGUAGES);
  const selected = createGlobFilter(rules.globs ?? []);
  const isTest = createTestMatcher(rules.testGlobs?.length ? rules.testGlobs : DEFAULT_TEST_GLOBS);
  return {
    isTest,
    isCandidate: (file) =>
      hasExtension(file, extensions) && selected(file) && !isExcludedPath(file) && !isTest(file) && protectedPathReason(file, { allow: rules.allowProtected, policyFile: rules.policyFile }) === undefined,
  };
}
