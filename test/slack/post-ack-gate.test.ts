import { describe, expect, it } from 'vitest';
import { afterAck, waitingAfterAck } from '../../src/adapters/slack/post-ack-gate.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the post-ack gate', () => {
  it('lets one follow-up start per turn of the event loop, in arrival order', async () => {
    const started: string[] = [];
    const all = ['a', 'b', 'c'].map((name) => afterAck().then(() => started.push(name)));
    expect(waitingAfterAck()).toBe(3);
    await turn();
    expect(started).toEqual(['a']);
    await turn();
    expect(started).toEqual(['a', 'b']);
    await Promise.all(all);
    expect(started).toEqual(['a', 'b', 'c']);
    expect(waitingAfterAck()).toBe(0);
  });

  it('lets I/O that completes in between run before the next follow-up starts', async () => {
    const order: string[] = [];
    const { createServer } = await import('node:net');
    const server = createServer((socket) => socket.end('x'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const { connect } = await import('node:net');
    // Many follow-ups queued first, then a reply arrives: it is read before the queue drains.
    const followUps = Array.from({ length: 200 }, (_, i) => afterAck().then(() => order.push(`f${i}`)));
    const io = new Promise<void>((resolve) => connect(port, '127.0.0.1').on('data', () => { order.push('io'); resolve(); }));
    await Promise.all([...followUps, io]);
    server.close();
    expect(order.indexOf('io')).toBeLessThan(order.length - 1);
  });
});
