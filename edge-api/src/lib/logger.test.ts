import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestId } from '../middleware/request-id.ts';
import { consoleLogger } from './logger.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const linesOf = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);

describe('the console logger', () => {
  it('writes one JSON line per event with its level, naming the request under way in every line of it', async () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const logger = consoleLogger();
    const app = new Hono().use('*', requestId).get('/work', async (c) => {
      logger.info('started', { step: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.error('went wrong later');
      return c.text('done');
    });
    const [first, second] = await Promise.all([app.request('/work', { headers: { 'x-request-id': 'proxy-id-0001' } }), app.request('/work')]);
    logger.warn('outside any request');
    const secondId = second.headers.get('x-request-id');
    expect(first.headers.get('x-request-id')).toBe('proxy-id-0001');
    expect(linesOf(out)).toEqual([
      { level: 'info', message: 'started', requestId: 'proxy-id-0001', step: 1 },
      { level: 'info', message: 'started', requestId: secondId, step: 1 },
      { level: 'warn', message: 'outside any request' },
    ]);
    expect(linesOf(err)).toEqual([
      { level: 'error', message: 'went wrong later', requestId: 'proxy-id-0001' },
      { level: 'error', message: 'went wrong later', requestId: secondId },
    ]);
  });
});
