import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/deploy-server.md's files, tested as far as a machine without systemd running allows (decision 117).
const root = resolve(import.meta.dirname, '../..');
const unitFile = join(root, 'deploy/storefront.service');
const caddyFile = join(root, 'deploy/Caddyfile');

/** The unit's settings, section by section; a key given twice keeps every value. */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      sections[section] ??= {};
      continue;
    }
    const at = line.indexOf('=');
    expect(at, `a line of ${section} without "=": ${line}`).toBeGreaterThan(0);
    ((sections[section] ??= {})[line.slice(0, at)] ??= []).push(line.slice(at + 1));
  }
  return sections;
}

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

describe('the systemd unit (deploy/storefront.service)', () => {
  it('runs what `npm start` runs, on the pinned Node, in the app folder, and stops it with SIGTERM first', async () => {
    const unit = parseUnit(await readFile(unitFile, 'utf8'));
    const service = unit.Service!;
    const workingDirectory = service.WorkingDirectory![0]!;
    expect(workingDirectory).toBe('/srv/storefront');
    // package.json's start, with npm's `node` (node_modules/.bin, the Node 24 devDependency) spelled out.
    const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: { start: string }; devDependencies: { node: string } };
    const start = packageJson.scripts.start.split(' ');
    expect(start[0]).toBe('node');
    expect(service.ExecStart).toEqual([[`${workingDirectory}/node_modules/.bin/node`, ...start.slice(1)].join(' ')]);
    expect(packageJson.devDependencies.node).toMatch(/^\^24\./);
    // That command's files exist in this checkout, and that node is the pinned one.
    const node = join(root, 'node_modules/.bin/node');
    for (const file of start.slice(1).filter((arg) => !arg.startsWith('-'))) expect(existsSync(join(root, file)), file).toBe(true);
    expect(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout).toMatch(/^v24\./);
    // SIGTERM to the app alone (it stops its Postgres itself within 10 s); what is left after 20 s is killed.
    expect(service.KillSignal).toEqual(['SIGTERM']);
    expect(service.KillMode).toEqual(['mixed']);
    expect(Number(service.TimeoutStopSec![0])).toBeGreaterThan(10);
    expect(service.Restart).toEqual(['always']);
    expect(service.User).toEqual(['storefront']);
    expect(unit.Install!.WantedBy).toEqual(['multi-user.target']);
  });

  it('passes `systemd-analyze verify` with its paths pointed at this checkout', async (context) => {
    if (!has('systemd-analyze')) return context.skip();
    const dir = await mkdtemp(join(tmpdir(), 'unit-'));
    try {
      // The service user is made by the recipe (useradd); here the unit runs as whoever runs the tests.
      const local = (await readFile(unitFile, 'utf8'))
        .replaceAll('/srv/storefront', root)
        .replace(/^User=.*$/m, 'User=root')
        .replace(/^Group=.*$/m, 'Group=root');
      await writeFile(join(dir, 'storefront.service'), local);
      const verified = spawnSync('systemd-analyze', ['verify', join(dir, 'storefront.service')], { encoding: 'utf8' });
      expect(verified.status, verified.stderr).toBe(0);
      expect(verified.stderr).not.toMatch(/storefront\.service/);
      // And it does fail a unit whose command is not there.
      await writeFile(join(dir, 'storefront.service'), local.replace(/node_modules\/\.bin\/node/, 'node_modules/.bin/no-such-node'));
      expect(spawnSync('systemd-analyze', ['verify', join(dir, 'storefront.service')], { encoding: 'utf8' }).status).not.toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the Caddy site (deploy/Caddyfile)', () => {
  it('is valid for the Caddy Debian ships (caddy validate)', (context) => {
    // CI installs caddy (.ci/run); elsewhere the check runs when it is there.
    if (!has('caddy')) {
      if (process.env.CI) throw new Error('caddy is not installed: apt-get install -y caddy');
      return context.skip();
    }
    const validated = spawnSync('caddy', ['validate', '--config', caddyFile, '--adapter', 'caddyfile'], { encoding: 'utf8' });
    expect(validated.status, validated.stderr).toBe(0);
    expect(validated.stdout + validated.stderr).toContain('Valid configuration');
  });

  it('proxies to the port the app listens on, and keeps /metrics off the internet', async () => {
    const text = await readFile(caddyFile, 'utf8');
    expect(text).toMatch(/^\s*reverse_proxy 127\.0\.0\.1:8787 \{$/m);
    // Idle connections to the app end before its 5 s keep-alive timeout does (decision 115).
    expect(text).toMatch(/^\s*keepalive 4s$/m);
    expect(text).toMatch(/^\s*@metrics path \/metrics /m);
    expect(text).toMatch(/^\s*respond @metrics 404$/m);
  });
});
