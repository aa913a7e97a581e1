import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress, specialRanges } from '../../src/resources/links/address-guard.ts';

/**
 * One row per block of the guard's table: an address inside it (the block's last address where
 * that differs from its first, so a mask one bit short fails), and a public neighbour just outside
 * it where the block has one. Judged by classifyAddress alone: no byte is sent to any of them.
 */
const rows: Record<string, { inside: string[]; outside?: string }> = {
  '169.254.169.254/32': { inside: ['169.254.169.254', '::ffff:169.254.169.254'] },
  '169.254.170.2/32': { inside: ['169.254.170.2'] },
  '168.63.129.16/32': { inside: ['168.63.129.16', '::ffff:168.63.129.16'], outside: '168.63.129.17' },
  '100.100.100.200/32': { inside: ['100.100.100.200'] },
  '192.0.0.192/32': { inside: ['192.0.0.192'] },
  'fd00:ec2::254/128': { inside: ['fd00:ec2::254'] },
  '0.0.0.0/8': { inside: ['0.0.0.0', '0.255.255.255'], outside: '1.0.0.0' },
  '10.0.0.0/8': { inside: ['10.0.0.1', '10.255.255.255'], outside: '11.0.0.0' },
  '100.64.0.0/10': { inside: ['100.64.0.0', '100.127.255.255'], outside: '100.128.0.0' },
  '127.0.0.0/8': { inside: ['127.0.0.1', '127.255.255.255'], outside: '128.0.0.0' },
  '169.254.0.0/16': { inside: ['169.254.0.1', '169.254.255.255'], outside: '169.255.0.0' },
  '172.16.0.0/12': { inside: ['172.16.0.0', '172.31.255.255'], outside: '172.32.0.0' },
  '192.0.0.0/24': { inside: ['192.0.0.0', '192.0.0.9', '192.0.0.255'], outside: '192.0.1.0' },
  '192.0.2.0/24': { inside: ['192.0.2.0', '192.0.2.255'], outside: '192.0.3.0' },
  '192.31.196.0/24': { inside: ['192.31.196.1', '192.31.196.255'], outside: '192.31.197.0' },
  '192.52.193.0/24': { inside: ['192.52.193.1', '192.52.193.255'], outside: '192.52.194.0' },
  '192.88.99.0/24': { inside: ['192.88.99.1', '192.88.99.255'], outside: '192.88.100.0' },
  '192.168.0.0/16': { inside: ['192.168.0.0', '192.168.255.255'], outside: '192.169.0.0' },
  '192.175.48.0/24': { inside: ['192.175.48.1', '192.175.48.255'], outside: '192.175.49.0' },
  '198.18.0.0/15': { inside: ['198.18.0.0', '198.19.255.255'], outside: '198.20.0.0' },
  '198.51.100.0/24': { inside: ['198.51.100.0', '198.51.100.255'], outside: '198.51.101.0' },
  '203.0.113.0/24': { inside: ['203.0.113.0', '203.0.113.255'], outside: '203.0.114.0' },
  '224.0.0.0/4': { inside: ['224.0.0.1', '239.255.255.255'], outside: '223.255.255.255' },
  '255.255.255.255/32': { inside: ['255.255.255.255'] },
  '240.0.0.0/4': { inside: ['240.0.0.0', '255.255.255.254'] },
  '::/128': { inside: ['::'] },
  '::1/128': { inside: ['::1'] },
  '::/96': { inside: ['::2', '::ffff:ffff', '::8.8.8.8'] },
  '64:ff9b::/96': { inside: ['64:ff9b::808:808', '64:ff9b::ffff:ffff'], outside: '2606:4700::1' },
  '64:ff9b:1::/48': { inside: ['64:ff9b:1::1', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'] },
  '100::/64': { inside: ['100::1', '100::ffff:ffff:ffff:ffff'] },
  '100:0:0:1::/64': { inside: ['100:0:0:1::1'] },
  '2001::/32': { inside: ['2001::1', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'] },
  '2001:2::/48': { inside: ['2001:2::1', '2001:2:0:ffff:ffff:ffff:ffff:ffff'] },
  '2001::/23': {
    inside: ['2001:1::1', '2001:4:112::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
    outside: '2001:200::1',
  },
  '2001:db8::/32': { inside: ['2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], outside: '2001:db9::1' },
  '2002::/16': { inside: ['2002:a00:1::1', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: '2003::1' },
  '2620:4f:8000::/48': { inside: ['2620:4f:8000::1'], outside: '2620:4f:8001::1' },
  '3fff::/20': { inside: ['3fff::1', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: '3fff:1000::1' },
  '5f00::/16': { inside: ['5f00::1'] },
  'fc00::/7': { inside: ['fc00::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'] },
  'fe80::/10': { inside: ['fe80::1', 'fe80::1%eth0', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'] },
  'fec0::/10': { inside: ['fec0::1', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'] },
  'ff00::/8': { inside: ['ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'] },
};

describe('the address guard refuses every special-purpose block of its table', () => {
  it('every row of the table has a test row here, and no test row names a block the table lacks', () => {
    assert.deepEqual(Object.keys(rows).sort(), specialRanges.map((row) => row.cidr).sort());
  });

  for (const row of specialRanges) {
    const sample = rows[row.cidr];
    it(`${row.cidr}: ${row.reason}`, () => {
      assert.ok(sample, `no test row for ${row.cidr}`);
      for (const address of sample.inside) {
        const verdict = classifyAddress(address);
        assert.equal(verdict.allowed, false, `${address} is refused`);
        if (!verdict.allowed) assert.equal(verdict.range, row.range, `${address} is named ${row.range}`);
      }
      if (sample.outside !== undefined) {
        assert.deepEqual(classifyAddress(sample.outside), { allowed: true }, `${sample.outside} is public`);
      }
    });
  }

  it('IPv6 outside global unicast (2000::/3) is refused even where no block names it', () => {
    for (const address of ['4000::1', '8000::1', '1::1']) {
      assert.equal(classifyAddress(address).allowed, false, address);
    }
    assert.deepEqual(classifyAddress('2a00:1450:4001:82a::200e'), { allowed: true });
  });
});
