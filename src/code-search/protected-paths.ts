/**
 * Files Medic never proposes to change unless the operator allows them by glob
 * (MEDIC_FIX_ALLOW_PROTECTED): CI configuration and workflows, package manifests and lockfiles,
 * build scripts and every file a build, lint, test runner or git hook executes (a tool's
 * `*.config.*`, task files, `.husky/`, `scripts/`), git's own files and Medic's policy. A fix there
 * changes how the service is built, checked, released or governed, not the code that failed, and
 * it runs on CI and developer machines with their credentials.
 */
import { globToRegExp, matchesAnyGlob } from './file-rules.js';

const PROTECTED_GLOBS: readonly { glob: string; what: string }[] = [
  { glob: '**/.github/**', what: 'CI configuration' },
  { glob: '**/{.gitlab-ci.yml,.travis.yml,azure-pipelines.yml,bitbucket-pipelines.yml,appveyor.yml,Jenkinsfile,.drone.yml,cloudbuild.yaml}', what: 'CI configuration' },
  { glob: '**/{.circleci,.buildkite,.gitlab,.azure-pipelines,.woodpecker}/**', what: 'CI configuration' },
  { glob: '**/.git*', what: "a git file" },
  { glob: '**/{package.json,pyproject.toml,setup.py,setup.cfg,Pipfile,go.mod,go.work,Cargo.toml,pom.xml,Gemfile,composer.json,*.gemspec,*.csproj,*.fsproj,*.vbproj,*.sln,Directory.Build.props,Directory.Packages.props,packages.config,deno.json}', what: 'a package manifest' },
  { glob: '**/requirements*.{txt,in}', what: 'a package manifest' },
  { glob: '**/{package-lock.json,npm-shrinkwrap.json,yarn.lock,pnpm-lock.yaml,bun.lockb,poetry.lock,Pipfile.lock,uv.lock,go.sum,Cargo.lock,Gemfile.lock,composer.lock,packages.lock.json,gradle.lockfile,*.lock}', what: 'a lockfile' },
  { glob: '**/{build.gradle,build.gradle.kts,settings.gradle,settings.gradle.kts,gradlew,gradlew.bat,mvnw,mvnw.cmd,build.xml,Makefile,makefile,GNUmakefile,*.mk,CMakeLists.txt,Rakefile,Taskfile.yml,Taskfile.yaml,justfile,Justfile,.justfile,BUILD,BUILD.bazel,WORKSPACE,Dockerfile,*.Dockerfile,Containerfile,docker-compose*.yml,docker-compose*.yaml,compose.yml,compose.yaml,Procfile}', what: 'a build script' },
  { glob: '**/{webpack,rollup,vite,esbuild,babel,jest,vitest,tsup,eslint,next,nuxt,svelte,astro,remix,playwright,cypress,postcss,tailwind,prettier,stylelint,commitlint,lint-staged,turbo}.config.*', what: 'a build script' },
  { glob: '**/{.eslintrc,.eslintrc.*,.babelrc,.babelrc.*,.prettierrc.*,.lintstagedrc,.lintstagedrc.*,karma.conf.*,Gruntfile.*,gulpfile.*,Gulpfile.*,dangerfile.*,Dangerfile,noxfile.py,tox.ini,conftest.py,.pre-commit-config.yaml,lefthook.yml,lefthook.yaml,.lefthook.yml,.lefthook.yaml}', what: 'a build script' },
  { glob: '**/{.husky,.githooks,scripts}/**', what: 'a build script' },
  { glob: '**/{tsconfig,jsconfig}*.json', what: 'a build script' },
  { glob: '**/{.env,.env.*,.medic/**,data/policy/**}', what: "Medic's or the deployment's configuration" },
];

const COMPILED = PROTECTED_GLOBS.map(({ glob, what }) => ({ re: globToRegExp(glob), what }));

/**
 * Why `file` may not be a fix target, or undefined when it may. `allow` holds the operator's
 * globs; `policyFile` is Medic's own action policy wherever it lives.
 */
export function protectedPathReason(file: string, options: { allow?: readonly string[]; policyFile?: string } = {}): string | undefined {
  const hit = COMPILED.find(({ re }) => re.test(file)) ?? (options.policyFile && file === options.policyFile ? { what: "Medic's action policy" } : undefined);
  if (!hit) return undefined;
  if (options.allow?.length && matchesAnyGlob(options.allow)(file)) return undefined;
  return `${file} is ${hit.what}; Medic does not change it unless MEDIC_FIX_ALLOW_PROTECTED allows it`;
}
