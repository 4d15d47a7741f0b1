import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may never be sent on AWS: private, loopback, link-local (the instance metadata service at
 * 169.254.169.254 and fd00:ec2::254 among them), shared, reserved and multicast ranges (an IPv4 address written as IPv6, `::ffff:a.b.c.d`, is judged by the
 * IPv4 ranges: BlockList maps it).
 */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  REFUSED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  REFUSED.addSubnet(network, prefix, 'ipv6');

/** Whether an address a webhook's host resolved to is one no delivery may reach. */
export const isRefusedAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 0) return true;
  return REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
};
