// Tests of the Makefile's build targets, read through `make -n` (nothing is built): the
// development server never writes into the release build's dist/ that the tests and
// `size` read, and PUBLIC_URL reaches trunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dryRun = (target, env = {}) =>
  execFileSync('make', ['-n', '--no-print-directory', target], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' })
    .split('\n')
    .find((l) => l.startsWith('trunk '));
const distOf = (line) => /--dist\s+(\S+)/.exec(line)?.[1] ?? 'dist';

test('make serve builds into a folder of its own, apart from the release build', () => {
  const serve = dryRun('serve');
  const release = dryRun('build-release');
  assert.match(serve, /^trunk serve /);
  assert.equal(distOf(release), 'dist');
  assert.notEqual(distOf(serve), distOf(release), `make serve writes into ${distOf(serve)}`);
  assert.notEqual(distOf(serve), distOf(dryRun('build-subpath')));
});

test('PUBLIC_URL sets the public URL of the release build (default /)', () => {
  assert.match(dryRun('build-release'), /--public-url "\/"/);
  assert.match(dryRun('build-release', { PUBLIC_URL: '/shapemaze/' }), /--public-url "\/shapemaze\/"/);
  assert.match(dryRun('build-subpath'), /--public-url \/shapemaze\//);
});
