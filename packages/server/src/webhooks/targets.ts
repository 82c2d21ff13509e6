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
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (zone dropped, dotted tail folded in), or null. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] && dotted[2]) {
    if (isIP(dotted[2]) !== 4) return null;
    const [a, b, c, d] = dotted[2].split('.').map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (h: string | undefined) => (h ? h.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const groups = [...head, ...Array<string>(fill).fill('0'), ...tail].map((g) =>
    /^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN,
  );
  return groups.length === 8 && groups.every((g) => !Number.isNaN(g)) ? groups : null;
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The IPv4 address an IPv6 address stands for, where the network would carry it to that IPv4 host:
 * IPv4-mapped (::ffff:0:0/96), NAT64's well-known prefix (64:ff9b::/96, RFC 6052) and 6to4
 * (2002::/16, the relay's IPv4 in bits 16-47). Those get the IPv4 rules, so 64:ff9b::8.8.8.8 is as
 * public as 8.8.8.8 and 64:ff9b::127.0.0.1 is loopback.
 */
export function embeddedIpv4(groups: readonly number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1, g2);
  return null;
}

/**
 * Ranges refused whole, whatever follows the prefix: IPv4-compatible addresses (::/96, deprecated
 * by RFC 4291 and still routed to the IPv4 host by some stacks, so ::a9fe:a9fe could reach the
 * metadata address), the rest of NAT64's 64:ff9b::/32 (64:ff9b:1::/48 is local-use NAT64, RFC 8215,
 * whose IPv4 position depends on the operator's prefix length; the remainder is unassigned) and
 * Teredo (2001::/32, which also tunnels to an IPv4 address). None of them is a genuine public host.
 */
function isRefusedTunnel(groups: readonly number[]): boolean {
  const [g0, g1, g2, g3, g4, g5] = groups as [number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return true;
  if (g0 === 0x64 && g1 === 0xff9b) return true;
  if (g0 === 0x2001 && g1 === 0) return true;
  return false;
}

/** Whether an address may not be a target: true for anything not a valid IP literal too. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    const groups = ipv6Groups(address);
    if (!groups) return true;
    const inner = embeddedIpv4(groups);
    if (inner) return PRIVATE.check(inner, 'ipv4');
    if (isRefusedTunnel(groups)) return true;
    return PRIVATE.check(address.replace(/%.*$/, ''), 'ipv6');
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
 * that resolves to an internal address (DNS rebinding) is not reached either. `resolve` is the
 * system resolver; tests pass their own.
 */
export function guardedLookup(allowPrivate: boolean, resolve: typeof dnsLookup = dnsLookup) {
  return (
    hostname: string,
    options: object,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
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
