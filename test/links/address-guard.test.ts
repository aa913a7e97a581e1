import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress, urlRefusal } from '../../src/resources/links/address-guard.ts';

/** [address, the refused range, or 'allowed']. */
const table: [string, string][] = [
  // Public unicast passes.
  ['93.184.215.14', 'allowed'],
  ['8.8.8.8', 'allowed'],
  ['1.1.1.1', 'allowed'],
  ['2606:4700:4700::1111', 'allowed'],
  ['2a00:1450:4001:82a::200e', 'allowed'],
  ['::ffff:8.8.8.8', 'allowed'],
  // Loopback.
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  // Private (RFC 1918) and carrier-grade NAT.
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.1', 'private'],
  ['192.168.1.1', 'private'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:a00:1', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  // The edges just outside those ranges are public.
  ['172.15.255.255', 'allowed'],
  ['172.32.0.0', 'allowed'],
  ['100.63.255.255', 'allowed'],
  ['100.128.0.0', 'allowed'],
  ['11.0.0.0', 'allowed'],
  // Link-local and unique-local.
  ['169.254.0.1', 'linkLocal'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fec0::1', 'deprecatedSiteLocal'],
  // Cloud metadata, named apart.
  ['169.254.169.254', 'metadata'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['192.0.0.192', 'metadata'],
  // Multicast, unspecified, broadcast.
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  // Documentation, benchmarking, reserved.
  ['192.0.2.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  // IPv6 forms that carry an IPv4 address inside.
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::a00:1', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  ['64:ff9b::a9fe:a9fe', 'rfc6052'],
  ['2002:a00:1::1', '6to4'],
  ['2001:0:4136:e378::1', 'teredo'],
  // Not addresses at all.
  ['example.com', 'invalid'],
  ['', 'invalid'],
  ['999.1.1.1', 'invalid'],
];

describe('address classification', () => {
  for (const [address, expected] of table) {
    it(`${address || '(empty)'} is ${expected}`, () => {
      const verdict = classifyAddress(address);
      assert.equal(verdict.allowed ? 'allowed' : verdict.range, expected);
      if (!verdict.allowed) assert.ok(verdict.reason.length > 0);
    });
  }
});

describe('URL shape', () => {
  const urls: [string, RegExp | null][] = [
    ['https://example.com/a', null],
    ['http://example.com:8080/a', null],
    ['https://example.com:8443/', null],
    ['ftp://example.com/file', /Only http and https/],
    ['file:///etc/passwd', /Only http and https/],
    ['javascript:alert(1)', /Only http and https/],
    ['https://user:secret@example.com/', /user name or password/],
    ['https://user@example.com/', /user name or password/],
    ['http://example.com:25/', /Port 25/],
    ['http://example.com:6667/', /Port 6667/],
    ['https://example.com:22/', /Port 22/],
    ['http://example.com:0/', /Port 0/],
  ];
  for (const [url, refusal] of urls) {
    it(`${url} is ${refusal ? 'refused' : 'allowed'}`, () => {
      const got = urlRefusal(new URL(url));
      if (refusal === null) assert.equal(got, null);
      else assert.match(got ?? '', refusal);
    });
  }
});
