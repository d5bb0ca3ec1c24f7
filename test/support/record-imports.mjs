// `node --import ./test/support/record-imports.mjs …`: appends every module URL the process loads
// (one per line) to the file named by MEDIC_RECORD_IMPORTS, for tests of a command's module graph.
import { register } from 'node:module';
import process from 'node:process';
import { URL } from 'node:url';

register(new URL('./record-imports-hooks.mjs', import.meta.url), { data: { file: process.env.MEDIC_RECORD_IMPORTS } });
