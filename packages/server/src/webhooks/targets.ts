import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../errors.ts';

/** Loopback, private, link-local, CGNAT, unspecified and multicast ranges: never targets in production. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return PRIVATE.check(mapped[1], 'ipv4');
    return PRIVATE.check(address, 'ipv6');
  }
  return true;
}

/**
 * A subscription's URL: https with a hostname that is not a literal private address, unless the
 * operator allows private targets (development, tests). Names are checked again at delivery time.
 */
export function checkTargetUrl(raw: string, allowPrivate: boolean, field = 'url'): void {
  const url = new URL(raw);
  const refuse = (message: string) => new ApiError('validation_failed', message, [{ field, issue: 'invalid_value', message }]);
  if (url.username || url.password) throw refuse('The URL must not carry credentials.');
  if (allowPrivate) return;
  if (url.protocol !== 'https:') throw refuse('The URL must use https.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host))) {
    throw refuse('The URL must point to a public address.');
  }
}

/**
 * A DNS lookup for the dispatcher's requests that refuses private addresses, so a public name
 * that resolves to an internal address (DNS rebinding) is not reached either.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: object,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = (addresses as LookupAddress[]).filter((a) => allowPrivate || !isPrivateAddress(a.address));
      if (list.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves only to private addresses`), { code: 'EPRIVATE' });
        return callback(refused, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
