/**
 * The baseline for `npm run bench`: a bare `node:http` server doing the least a JSON-RPC server must do: read
 * the body, parse it, answer a JSON result with the request's id. Prints `{"port":N}` once listening.
 */
import { createServer } from 'node:http';

const result = JSON.stringify(`svc-node/v0.0.0/${process.platform}-${process.arch}/node${process.versions.node}`);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown };
    const json = `{"jsonrpc":"2.0","id":${JSON.stringify(body.id)},"result":${result}}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
