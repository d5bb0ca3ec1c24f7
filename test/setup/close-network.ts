/**
 * The network is closed in tests: any connection to a non-loopback address fails loudly, so a
 * test can never reach a real Slack, Splunk, OpenAI, Qdrant or GitHub by accident.
 */
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/;
// eslint-disable-next-line @typescript-eslint/unbound-method -- re-bound with apply() below
const original = net.Socket.prototype.connect;

function hostOf(args: unknown[]): string | undefined {
  const [first, second] = args;
  if (first && typeof first === 'object' && !Array.isArray(first)) {
    const options = first as { host?: string; path?: string };
    if (options.path) return undefined; // unix socket
    return options.host ?? 'localhost';
  }
  if (typeof first === 'number') return typeof second === 'string' ? second : 'localhost';
  return undefined;
}

net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
  const host = hostOf(Array.isArray(args[0]) ? args[0] : args);
  if (host !== undefined && !LOOPBACK.test(host)) {
    throw new Error(`Tests may only connect to loopback; blocked a connection to ${host}`);
  }
  return (original as (...a: unknown[]) => net.Socket).apply(this, args);
};
