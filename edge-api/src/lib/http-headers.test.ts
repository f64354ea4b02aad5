import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, workersHeadersFile } from './http-headers.ts';

const directive = (policy: string, name: string) => policy.split('; ').find((text) => text.startsWith(`${name} `));

describe('the Content-Security-Policy', () => {
  it('lets pages connect and load images only from this origin when nothing else is configured', () => {
    const policy = contentSecurityPolicy();
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
    expect(directive(policy, 'img-src')).toBe("img-src 'self' data: blob:");
    expect(directive(policy, 'script-src')).toBe("script-src 'self'");
  });

  it('names the Supabase project and the image hosts by origin, never a whole scheme', () => {
    const policy = contentSecurityPolicy({
      supabaseUrl: 'https://abcd.supabase.co/',
      imageOrigins: ['https://images.example.com/some/path', 'not a url', 'https://abcd.supabase.co'],
    });
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self' https://abcd.supabase.co https://images.example.com");
    expect(directive(policy, 'img-src')).toBe("img-src 'self' data: blob: https://abcd.supabase.co https://images.example.com");
    expect(policy).not.toMatch(/(?:^|\s)https?:(?:\s|;|$)/);
  });

  it('is what the Workers static assets carry', () => {
    const policy = contentSecurityPolicy({ supabaseUrl: 'https://abcd.supabase.co' });
    expect(workersHeadersFile(policy)).toContain(`  Content-Security-Policy: ${policy}\n`);
  });
});
