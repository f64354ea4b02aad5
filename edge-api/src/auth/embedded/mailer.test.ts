import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpMailer } from './mailer.ts';

/** A bare SMTP receiver (RFC 5321's happy path, no TLS): what a relay would be handed. */
function smtpReceiver(): Promise<{ server: Server; port: number; received: { from: string; to: string[]; data: string }[] }> {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 queued\r\n');
          continue;
        }
        const line = buffer.indexOf('\r\n');
        if (line < 0) return;
        const command = buffer.slice(0, line);
        buffer = buffer.slice(line + 2);
        const verb = command.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') current.from = command;
        if (verb === 'RCPT') current.to.push(command);
        if (verb === 'DATA') inData = true;
        if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'DATA' ? '354 go on\r\n' : '250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, received })));
}

let receiver: Awaited<ReturnType<typeof smtpReceiver>>;
beforeAll(async () => {
  receiver = await smtpReceiver();
});
afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));

describe('SMTP_URL set', () => {
  it('hands each message to the SMTP server, from MAIL_FROM to the recipient, with its subject and link', async () => {
    const mailer = await smtpMailer(`smtp://127.0.0.1:${receiver.port}`, 'Shop <no-reply@shop.example>');
    await mailer.send({
      to: 'ana@example.test',
      subject: 'Reset your password',
      text: 'Open this link:\nhttp://localhost/auth/v1/verify?token=abc',
      link: 'unused',
    });
    expect(receiver.received).toHaveLength(1);
    const [mail] = receiver.received;
    expect(mail!.from).toContain('<no-reply@shop.example>');
    expect(mail!.to).toEqual(['RCPT TO:<ana@example.test>']);
    expect(mail!.data).toMatch(/^Subject: Reset your password$/m);
    expect(mail!.data).toContain('http://localhost/auth/v1/verify?token=abc');
  });
});
