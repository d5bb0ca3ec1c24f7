/**
 * Where a listener waits between its ack and its follow-up work (use-case, card, ephemeral).
 * One waiter goes on per turn of the event loop, in arrival order, so between any two follow-ups
 * starting the loop polls for I/O again and acks the requests that arrived meanwhile: under a
 * burst of clicks Slack's 3-second ack deadline is what it enforces, the follow-up message is not.
 *
 * The queue is per process on purpose: it orders work on this process's one event loop.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  scheduled = false;
  const next = waiting.shift();
  if (waiting.length > 0) schedule();
  next?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(releaseOne);
}

export function afterAck(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/** Follow-ups not yet started, for tests and diagnostics. */
export function waitingAfterAck(): number {
  return waiting.length;
}
