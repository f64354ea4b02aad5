import { describe, expect, it } from 'vitest';
import { clientIpFrom } from './client-ip.ts';

describe('clientIpFrom', () => {
  it('ignores X-Forwarded-For from a peer that is not a configured proxy', () => {
    expect(clientIpFrom('203.0.113.9', '1.2.3.4', [])).toBe('203.0.113.9');
    expect(clientIpFrom('::ffff:203.0.113.9', '1.2.3.4', ['10.0.0.1'])).toBe('203.0.113.9');
  });

  it('takes the nearest untrusted hop when the peer is a configured proxy', () => {
    expect(clientIpFrom('::ffff:10.0.0.1', 'spoofed, 198.51.100.7', ['10.0.0.1'])).toBe('198.51.100.7');
    expect(clientIpFrom('10.0.0.1', '198.51.100.7, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('198.51.100.7');
    expect(clientIpFrom('10.0.0.1', undefined, ['10.0.0.1'])).toBe('10.0.0.1');
  });
});
