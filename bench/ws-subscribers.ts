/**
 * Child process of bench/logs-rpc.ts: opens N WebSocket connections to a node, each with one subscription
 * (half newHeads, half logs of one of the given addresses, round robin), prints `ready` once all are
 * confirmed and `received <n>` once told on stdin `wait <n> <timeoutMs>` (n notifications arrived, or the time
 * ran out), so the subscribers' own CPU is not counted in the node's process. Notifications are counted, not parsed.
 *   npx tsx bench/ws-subscribers.ts <wsUrl> <count> <address,address,...>
 */
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const [url, countText, addressList] = process.argv.slice(2);
const addresses = addressList.split(',');
const count = Number(countText);
let received = 0;
const NOTIFICATION = Buffer.from('"method":"eth_subscription"');
let confirmed = 0;
const sockets: WebSocket[] = [];
for (let i = 0; i < count; i++) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.on('message', (data: Buffer) => {
    // Told apart by the method near the start rather than parsed: this process stands in for remote clients,
    // and on a 2-core machine every cycle it spends is one the node's threads may wait for. (The contents
    // are checked by the tests; here only the count matters.)
    const at = data.indexOf(NOTIFICATION);
    if (at !== -1 && at < 64) {
      received++;
      answerWait();
    } else if (++confirmed === count) process.stdout.write('ready\n');
  });
  const params = i % 2 === 0 ? ['newHeads'] : ['logs', { address: addresses[(i >> 1) % addresses.length] }];
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params }));
  sockets.push(ws);
}
/** Answers `wait <n> <timeoutMs>` with `received <count>` once `n` notifications have arrived (or at the timeout). */
let waiting: { readonly expected: number; readonly timer: NodeJS.Timeout } | undefined;
function answerWait(): void {
  if (waiting === undefined || received < waiting.expected) return;
  clearTimeout(waiting.timer);
  waiting = undefined;
  process.stdout.write(`received ${received}\n`);
}
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, expected, timeoutMs] = line.split(' ');
  if (command === 'exit') {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
  if (command === 'wait') {
    const timer = setTimeout(() => {
      waiting = undefined;
      process.stdout.write(`received ${received}\n`);
    }, Number(timeoutMs));
    waiting = { expected: Number(expected), timer };
    answerWait();
  }
});
