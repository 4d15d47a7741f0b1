import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../../shared/domain/webhooks/public-address';

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'shared address space'],
    ['100.127.255.255', 'shared address space'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local: the instance metadata service'],
    ['172.31.0.1', 'private'],
    ['192.0.0.9', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'limited broadcast'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible: carries 127.0.0.1'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['64:ff9b::7f00:1', 'NAT64 well-known prefix'],
    ['64:ff9b::808:808', 'NAT64 well-known prefix, even of a public address'],
    ['64:ff9b:1::a00:1', 'NAT64 local-use prefix'],
    ['100::1', 'discard-only'],
    ['2001::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['2002::1', '6to4'],
    ['2002:7f00:1::1', '6to4, carrying 127.0.0.1'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'segment routing'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local: the instance metadata service'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local, with a zone'],
    ['ff02::1', 'multicast'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['not an address', '', '127.1', '0x7f000001', '1.2.3', '[::1]'])(
    'refuses %j: not an address in its plain form',
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );

  it.each(['93.184.216.34', '8.8.8.8', '100.63.255.255', '100.128.0.0', '223.255.255.255', '2606:2800:220:1::1'])(
    'accepts %s, a public address',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});
