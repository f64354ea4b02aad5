import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { refusal, takeRefusals } from './no-network.ts';

describe('no network outside the tests own servers (issue 34 item 5)', () => {
  it('refuses a request to another host before it leaves, and names it for the test to fail on', async () => {
    await expect(fetch('https://example.com/')).rejects.toThrow(/reach no network \(https:\/\/example\.com is not this machine\)/);
    await expect(fetch(new Request('http://auth.test/auth/v1/token', { method: 'POST' }))).rejects.toThrow(TypeError);
    // Taken here, or this test would fail in the guard's afterEach, as any test making such a request does.
    expect(takeRefusals()).toEqual([
      'GET https://example.com/: https://example.com is not this machine',
      'POST http://auth.test/auth/v1/token: http://auth.test is not this machine',
    ]);
  });

  it("lets a request to the test's own server on this machine through", async () => {
    const server = createServer((_, res) => res.end('own'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as { port: number };
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('own');
      expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe('own');
    } finally {
      server.close();
    }
  });

  it("refuses the simulated page's own origin, where no test serves anything", () => {
    expect(refusal(new URL('http://localhost:3000/api/orders'), 'http://localhost:3000')).toMatch(/page's origin/);
    expect(refusal(new URL('http://localhost:41234/api/orders'), 'http://localhost:3000')).toBeUndefined();
    expect(refusal(new URL('data:text/plain,hi'), undefined)).toBeUndefined();
  });
});
