import { describe, expect, it } from 'vitest';
import { checkTargetUrl, embeddedIpv4, guardedLookup, ipv6Groups, isPrivateAddress } from './targets.ts';

/**
 * The address rule of every outbound request (webhooks, notification channels, red-team targets):
 * IPv6 forms that carry an IPv4 address to its host get the IPv4 rules; tunnels whose IPv4 position
 * cannot be known are refused whole.
 */

describe('ipv6Groups', () => {
  it('expands compressed, dotted and zoned forms', () => {
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('64:ff9b::127.0.0.1')).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0x7f00, 1]);
    expect(ipv6Groups('2002:7f00:1::')).toEqual([0x2002, 0x7f00, 1, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('refuses what is not an address', () => {
    for (const bad of ['1::2::3', '1:2:3', '1:2:3:4:5:6:7:8:9', '::g', '::1.2.3.256', '12345::']) expect(ipv6Groups(bad)).toBeNull();
  });
});

describe('embeddedIpv4', () => {
  it('reads the IPv4 of mapped, NAT64 and 6to4 addresses', () => {
    const of = (a: string) => embeddedIpv4(ipv6Groups(a) as number[]);
    expect(of('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(of('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(of('2002:0a00:0001::1')).toBe('10.0.0.1');
    expect(of('2001:db8::1')).toBeNull();
  });
});

describe('isPrivateAddress', () => {
  it('refuses the IPv4 private ranges and their IPv4-mapped forms', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe'])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('refuses NAT64 (64:ff9b::/96) addresses of private IPv4 hosts', () => {
    for (const a of [
      '64:ff9b::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '64:ff9b::10.0.0.1',
      '64:ff9b::c0a8:101',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('refuses local-use NAT64 (64:ff9b:1::/48) and the rest of 64:ff9b::/32 whatever they embed', () => {
    for (const a of ['64:ff9b:1::808:808', '64:ff9b:1:7f00:1::', '64:ff9b:0:0:1::', '64:ff9b:ffff::1'])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('refuses IPv4-compatible addresses (::/96) whole', () => {
    for (const a of ['::a9fe:a9fe', '::169.254.169.254', '::7f00:1', '::127.0.0.1', '::808:808', '::', '::1'])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('refuses 6to4 (2002::/16) addresses of private IPv4 hosts', () => {
    for (const a of ['2002:7f00:1::', '2002:7f00:0001::1', '2002:a9fe:a9fe::', '2002:0a00:0001:1::1', '2002::', '2002:c0a8:0101::'])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('refuses Teredo (2001::/32), site-local and discard-only addresses', () => {
    for (const a of ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::1', 'fec0::1', '100::1']) expect(isPrivateAddress(a), a).toBe(true);
  });

  it('lets public addresses through, including NAT64 and 6to4 forms of public IPv4 hosts', () => {
    for (const a of ['8.8.8.8', '2606:4700:4700::1111', '64:ff9b::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:4860:4860::8888'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses what is not an IP literal', () => {
    expect(isPrivateAddress('example.com')).toBe(true);
    expect(isPrivateAddress('')).toBe(true);
  });
});

describe('checkTargetUrl', () => {
  it('refuses bracketed IPv6 literals that reach private IPv4 hosts, in the form URL parsing leaves them', () => {
    for (const url of [
      'https://[64:ff9b::127.0.0.1]/hook',
      'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'https://[::a9fe:a9fe]/',
      'https://[2002:7f00:1::]/',
      'https://[64:ff9b:1::a00:1]/',
    ])
      expect(() => checkTargetUrl(url, false), url).toThrow('public address');
    expect(() => checkTargetUrl('https://[64:ff9b::8.8.8.8]/hook', false)).not.toThrow();
  });
});

describe('guardedLookup: a public name that resolves to an embedded private address', () => {
  /** A resolver answering every name with `addresses`, the shape dns.lookup gives with `all`. */
  const resolver = (addresses: string[]) =>
    ((_host: string, _options: object, cb: (err: null, list: { address: string; family: number }[]) => void) =>
      cb(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      )) as unknown as Parameters<typeof guardedLookup>[1];
  const lookUp = (addresses: string[], all = false) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup(false, resolver(addresses))('rebind.example.com', { all }, (err, address) => resolve({ err, address })),
    );

  it('is refused when every address is NAT64, 6to4 or IPv4-compatible to a private host', async () => {
    const r = await lookUp(['64:ff9b::a9fe:a9fe', '2002:7f00:1::', '::a9fe:a9fe', '64:ff9b:1::a00:1']);
    expect(r.err?.code).toBe('EPRIVATE');
  });

  it('keeps only the public addresses otherwise', async () => {
    expect((await lookUp(['64:ff9b::7f00:1', '64:ff9b::808:808'])).address).toBe('64:ff9b::808:808');
    expect((await lookUp(['::a9fe:a9fe', '8.8.8.8'], true)).address).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });
});
