import { addressRefusal, addressScope, type AddressScope } from './address-policy';

describe('addressScope', () => {
  const cases: [string, AddressScope][] = [
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['::1.2.3.4', 'reserved'],
    ['example.com', 'invalid'],
    ['', 'invalid'],
  ];

  it.each(cases)('%s is %s', (address, scope) => {
    expect(addressScope(address)).toBe(scope);
  });

  it.each([
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
  ])('IPv6 %s standing for an IPv4 address is judged as that address: %s', (address, scope) => {
    expect(addressScope(address)).toBe(scope);
  });
});

describe('addressRefusal', () => {
  it('lets live deliveries reach public addresses only', () => {
    expect(addressRefusal('8.8.8.8', 'live')).toBeUndefined();
    expect(addressRefusal('2606:4700:4700::1111', 'live')).toBeUndefined();
    expect(addressRefusal('127.0.0.1', 'live')).toBe('address 127.0.0.1 is loopback');
    expect(addressRefusal('::1', 'live')).toBe('address ::1 is loopback');
    expect(addressRefusal('10.0.0.1', 'live')).toBe('address 10.0.0.1 is private');
  });

  it('lets sandbox deliveries reach this machine as well, and nothing else inside the network', () => {
    expect(addressRefusal('8.8.8.8', 'sandbox')).toBeUndefined();
    expect(addressRefusal('127.0.0.1', 'sandbox')).toBeUndefined();
    expect(addressRefusal('::ffff:127.0.0.1', 'sandbox')).toBeUndefined();
    expect(addressRefusal('::1', 'sandbox')).toBeUndefined();
    expect(addressRefusal('192.168.0.10', 'sandbox')).toBe('address 192.168.0.10 is private');
    expect(addressRefusal('0.0.0.0', 'sandbox')).toBe('address 0.0.0.0 is unspecified');
  });

  it.each(['live', 'sandbox'] as const)('refuses metadata, link-local, multicast, reserved and non-addresses in %s mode', (mode) => {
    expect(addressRefusal('169.254.169.254', mode)).toBe('address 169.254.169.254 is a cloud metadata endpoint');
    expect(addressRefusal('fe80::1', mode)).toBe('address fe80::1 is link-local');
    expect(addressRefusal('224.0.0.1', mode)).toBe('address 224.0.0.1 is multicast');
    expect(addressRefusal('240.0.0.1', mode)).toBe('address 240.0.0.1 is reserved');
    expect(addressRefusal('::ffff:10.0.0.1', mode)).toBe('address ::ffff:10.0.0.1 is private');
    expect(addressRefusal('localhost', mode)).toBe('address localhost is not an IP address');
  });
});
