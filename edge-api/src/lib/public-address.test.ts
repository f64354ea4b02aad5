import { describe, expect, it } from 'vitest';
import { ipLiteral, isPublicAddress } from './public-address.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.1',
    '::',
    '::1',
    'fd00::1',
    'fc12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    // 6to4 of 127.0.0.1 and 10.0.0.1, and Teredo (the attacker's pass of issue 30 got these through).
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::127.0.0.1',
    'not an address',
    '1.2.3',
    '256.1.1.1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'takes %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('tells IP literals in a URL hostname from names', () => {
    expect(ipLiteral('[::1]')).toBe('::1');
    expect(ipLiteral('10.0.0.1')).toBe('10.0.0.1');
    expect(ipLiteral('example.com')).toBeUndefined();
  });
});
