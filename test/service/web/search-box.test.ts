/** What the search box's text leads to (src/service/web/search-box.ts). */
import { describe, expect, it } from 'vitest'
import { boxTarget } from '../../../src/service/web/search-box.js'

describe('the search box', () => {
  it.each([
    ['192.0.2.1', { kind: 'host', ip: '192.0.2.1', port: '' }],
    ['192.0.2.0/24', { kind: 'query', text: 'ip:192.0.2.0/24', read: '192.0.2.0/24' }],
    ['2001:db8::/32', { kind: 'query', text: 'ip:2001:db8::/32', read: '2001:db8::/32' }],
    ['AS64500', { kind: 'query', text: 'asn:64500', read: 'AS64500' }],
    ['as0064500', { kind: 'query', text: 'asn:64500', read: 'as0064500' }],
    ['192.0.2.0/33', { kind: 'query', text: '192.0.2.0/33' }],
    ['AS99999999999', { kind: 'query', text: 'AS99999999999' }],
    ['  2001:DB8:0::1 ', { kind: 'host', ip: '2001:db8::1', port: '' }],
    ['192.0.2.1:8080', { kind: 'host', ip: '192.0.2.1', port: '8080' }],
    ['192.0.2.1:080', { kind: 'host', ip: '192.0.2.1', port: '80' }],
    ['[2001:db8::1]:443', { kind: 'host', ip: '2001:db8::1', port: '443' }],
    ['https://192.0.2.1:8443/login?next=/', { kind: 'host', ip: '192.0.2.1', port: '8443' }],
    ['http://[2001:db8::1]/', { kind: 'host', ip: '2001:db8::1', port: '' }],
    ['https://192.0.2.1/', { kind: 'host', ip: '192.0.2.1', port: '' }],
    ['https://WWW.Example.COM/path#x', { kind: 'domain', name: 'www.example.com' }],
    ['ftp://files.example.org:2121', { kind: 'domain', name: 'files.example.org' }],
    ['example.com', { kind: 'domain', name: 'example.com' }],
    ['Example.com.', { kind: 'domain', name: 'example.com' }],
    ['example.com:8443', { kind: 'domain', name: 'example.com' }],
  ] as const)('%s → its page', (text, target) => {
    expect(boxTarget(text)).toEqual(target)
  })

  it.each([
    'nginx',
    'port:443',
    'host:example.com',
    '+plugin:GitConfigHttpPlugin +severity:critical',
    'ip:192.0.2.0/24 -port:22',
    '192.0.2.1:99999',
    '1.2.3',
    '"example.com"',
    '*',
    'https://',
    'http://exa mple.com/',
  ])('%s → a query', (text) => {
    expect(boxTarget(text)).toEqual({ kind: 'query', text: text.trim() })
  })
})
