// A small SMTP server on 127.0.0.1 for e2e: enough of RFC 5321 and of AUTH PLAIN and LOGIN (RFC 4954) for
// Keycloak's "test connection" mail, recording each login it is offered. Every login is accepted: the test reads
// which password arrived, it does not need the mail to be refused.
import { createServer, type Server, type Socket } from 'node:net';

/** A login as the client sent it. */
export type SmtpLogin = { user: string; password: string; mechanism: 'PLAIN' | 'LOGIN' };

export type SmtpListener = {
  readonly port: number;
  /** Every login so far, oldest first. */
  readonly logins: SmtpLogin[];
  /** The number of messages accepted (DATA completed). */
  messages(): number;
  close(): Promise<void>;
};

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

function session(socket: Socket, logins: SmtpLogin[], accepted: () => void): void {
  const say = (line: string) => socket.write(`${line}\r\n`);
  let buffer = '';
  let inData = false;
  // AUTH LOGIN asks for the user, then the password, each on its own line.
  let login: { user?: string } | undefined;
  let plainPending = false;
  const line = (text: string) => {
    if (inData) {
      if (text === '.') {
        inData = false;
        accepted();
        say('250 2.0.0 accepted');
      }
      return;
    }
    if (login) {
      if (login.user === undefined) {
        login.user = decode(text);
        say(`334 ${Buffer.from('Password:').toString('base64')}`);
      } else {
        logins.push({ user: login.user, password: decode(text), mechanism: 'LOGIN' });
        login = undefined;
        say('235 2.7.0 authentication successful');
      }
      return;
    }
    if (plainPending) {
      plainPending = false;
      return plain(text);
    }
    const [verb = '', ...args] = text.split(' ');
    switch (verb.toUpperCase()) {
      case 'EHLO':
        say('250-localhost');
        say('250-AUTH PLAIN LOGIN');
        return say('250 8BITMIME');
      case 'HELO':
        return say('250 localhost');
      case 'AUTH': {
        const mechanism = (args[0] ?? '').toUpperCase();
        if (mechanism === 'PLAIN') {
          if (args[1]) return plain(args[1]);
          plainPending = true;
          return say('334 ');
        }
        if (mechanism === 'LOGIN') {
          login = {};
          if (args[1]) return line(args[1]);
          return say(`334 ${Buffer.from('Username:').toString('base64')}`);
        }
        return say('504 5.5.4 mechanism not supported');
      }
      case 'DATA':
        inData = true;
        return say('354 end with <CRLF>.<CRLF>');
      case 'QUIT':
        say('221 2.0.0 bye');
        return void socket.end();
      default: // MAIL, RCPT, RSET, NOOP
        return say('250 2.0.0 ok');
    }
  };
  const plain = (b64: string) => {
    const [, user = '', password = ''] = decode(b64).split('\0');
    logins.push({ user, password, mechanism: 'PLAIN' });
    say('235 2.7.0 authentication successful');
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      const text = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      line(text);
    }
  });
  socket.on('error', () => socket.destroy());
  say('220 localhost ESMTP realmforge-e2e');
}

/** Starts the listener on 127.0.0.1 on a free port. */
export async function smtpListener(): Promise<SmtpListener> {
  const logins: SmtpLogin[] = [];
  let messages = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    session(socket, logins, () => {
      messages += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the SMTP listener has no port');
  return {
    port: address.port,
    logins,
    messages: () => messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
