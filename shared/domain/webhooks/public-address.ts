import ipaddr from 'ipaddr.js';

/** IANA's IPv6 Address Space registry: only this block is Global Unicast; the rest is reserved or not global. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an IP address may be a partner's public endpoint: an ordinary unicast address, outside every block of
 * IANA's special-purpose address registries (IPv4 and IPv6 Special-Purpose Address Registries, RFC 6890 and its
 * updates: loopback, private, shared 100.64.0.0/10, link-local, documentation, benchmarking, 6to4, Teredo, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48, IPv4-mapped and -translated, …), and outside IPv4 multicast, 240.0.0.0/4 and the
 * broadcast address. An IPv6 address must also lie in 2000::/3, which refuses the deprecated IPv4-compatible form
 * (`::7f00:1`) and every other reserved block. An IPv6 form that carries an IPv4 address is refused whatever the
 * address it carries: a partner's endpoint is reached at that IPv4 address itself. The registries come from
 * `ipaddr.js`'s `range()`, kept by its maintainers. Anything that is not an address in its plain form (dotted
 * decimal, or IPv6 text) is not one a webhook may reach.
 */
export const isPublicAddress = (address: string): boolean => {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address).range() === 'unicast';
  if (!ipaddr.IPv6.isValid(address)) return false;
  const parsed = ipaddr.IPv6.parse(address);
  return parsed.range() === 'unicast' && parsed.match(IPV6_GLOBAL_UNICAST);
};
