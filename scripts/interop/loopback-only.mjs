// Preloaded into the @ethereumjs/client process (`node --import`): its RLPx server and discv4 socket bind
// 0.0.0.0 with no flag to change it, and our tests listen on loopback only. Every listen/bind on "all
// interfaces" is moved to 127.0.0.1 before it happens.
import dgram from 'node:dgram';
import net from 'node:net';

const LOOPBACK = '127.0.0.1';
const anyHost = (host) => host === undefined || host === null || host === '' || host === '0.0.0.0' || host === '::';
const isPort = (value) => typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first, second] = args;
  if (first !== null && typeof first === 'object' && !Array.isArray(first) && ('port' in first || 'host' in first)) {
    if (anyHost(first.host)) args[0] = { ...first, host: LOOPBACK };
  } else if (isPort(first) && (typeof second !== 'string' || anyHost(second))) {
    args = [first, LOOPBACK, ...args.slice(typeof second === 'string' ? 2 : 1)];
  }
  return listen.apply(this, args);
};

const bind = dgram.Socket.prototype.bind;
dgram.Socket.prototype.bind = function (...args) {
  const [first, second] = args;
  if (first !== null && typeof first === 'object') {
    if (anyHost(first.address)) args[0] = { ...first, address: LOOPBACK };
  } else if (isPort(first) && (typeof second !== 'string' || anyHost(second))) {
    args = [first, LOOPBACK, ...args.slice(typeof second === 'string' ? 2 : 1)];
  }
  return bind.apply(this, args);
};
