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
    .find((l) => /^(trunk|scripts\/site\.sh) /.test(l));
// scripts/site.sh MODE DIST PUBLIC_URL
const distOf = (line) => line.split(/\s+/)[2];
const urlOf = (line) => line.split(/\s+/)[3];

test('make serve builds into a folder of its own, apart from the release build', () => {
  const serve = dryRun('serve');
  const release = dryRun('build-release');
  assert.match(serve, /^scripts\/site\.sh debug /);
  assert.match(dryRun('build-release'), /^scripts\/site\.sh release /);
  assert.equal(distOf(release), 'dist');
  assert.notEqual(distOf(serve), distOf(release), `make serve writes into ${distOf(serve)}`);
  assert.notEqual(distOf(serve), distOf(dryRun('build-subpath')));
});

test('PUBLIC_URL sets the public URL of the release build (default /)', () => {
  assert.equal(urlOf(dryRun('build-release')), '"/"');
  assert.equal(urlOf(dryRun('build-release', { PUBLIC_URL: '/shapemaze/' })), '"/shapemaze/"');
  assert.equal(urlOf(dryRun('build-subpath')), '/shapemaze/');
});
