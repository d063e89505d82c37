/** `l9kit conform` in-process against the fake servers of test/conformance. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { schemaDocument } from '../../src/schema/index.js'
import { start as startSuffixMatch } from '../conformance/broken/domain-suffix-match.js'
import { start as startLookAlikes } from '../conformance/broken/hook-suffix-match.js'
import { FAKE_DOMAIN } from '../conformance/fake/data.js'
import { FAKE_ADMIN_TOKEN, FAKE_PRO_KEY } from '../conformance/fake/hooks.js'
import { FAKE_KEY, FAKE_LACKS, type Fake, startFake } from '../conformance/fake/server.js'
import { childrenNamed, parseXml } from '../conformance/junit-tree.js'
import { running } from '../support/running.js'
import { runCli } from '../support/streams.js'
import { testTempDir } from '../support/temp.js'

async function withServer<T>(server: Promise<Fake>, use: (url: string) => Promise<T>): Promise<T> {
  const fake = await server
  try {
    return await use(fake.url)
  } finally {
    await fake.close()
  }
}

const args = (url: string, ...more: string[]) => ['conform', '--base-url', url, '--api-key', FAKE_KEY, '--domain', FAKE_DOMAIN, '--rate', 'auto', '--seed', '7', ...(more.includes('--exclude-checks') ? [] : ['--exclude-checks', FAKE_LACKS.join(',')]), ...more]

describe('l9kit conform', () => {
  it('passes a conforming server: one line per check, then the count; exit 0; keys never printed', async () => {
    const r = await withServer(startFake(), (url) => runCli(args(url)))
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^l9kit conform http:\/\/127\.0\.0\.1:\d+ \(seed 7, rate auto, 10 examples per check\)\n/)
    expect(r.stdout).toContain('PASS  lookup-shape: ')
    expect(r.stdout).toMatch(/^writes off \(they need --allow-writes and --admin-token\): skipping hook-delivered, hook-severity-floor, .*hook-signature-valid, search-complete, created-readable, deleted-gone$/m)
    expect(r.stdout).toMatch(/^SKIP {2}hook-delivered: .*\n +needs --allow-writes \(with --pro-key, --admin-token and --hook-receiver\): the hook checks write to the server: /m)
    expect(r.stdout).toMatch(/\n37 passed, 0 failed, 13 skipped \(\d+ requests in [\d.]+ s, seed 7\)\n$/)
    expect(r.stdout + r.stderr).not.toContain(FAKE_KEY)
  })

  it('reports a failure with its smallest example and replay command; exit 1; writes JUnit and JSON reports', async () => {
    const dir = testTempDir('l9kit-conform-')
    const junit = join(dir, 'report.xml')
    const json = join(dir, 'report.json')
    const r = await withServer(startSuffixMatch(), (url) => runCli(args(url, '--report', `junit:${junit}`, '--report', `json:${json}`)))
    expect(r.code).toBe(1)
    const failure = r.stdout.split('\n').findIndex((l) => l.startsWith('FAIL  domain-events-match-domain: '))
    expect(failure).toBeGreaterThan(0)
    const block = r.stdout.split('\n').slice(failure, failure + 12).join('\n')
    expect(block).toContain('has host "notexample.com", which is neither example.com nor below it')
    expect(block).toContain('smallest failing input: ')
    expect(block).toContain('request: GET /')
    expect(block).toMatch(/replay: l9kit conform --base-url http:\/\/127\.0\.0\.1:\d+ --domain example\.com --checks domain-events-match-domain --seed 7/)
    expect(r.stdout).toMatch(/\n36 passed, 1 failed, 13 skipped /)

    const suite = childrenNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite')[0]!
    expect(suite.attributes).toMatchObject({ tests: '50', failures: '1', skipped: '13', errors: '0' })
    const failed = childrenNamed(suite, 'testcase').filter((c) => childrenNamed(c, 'failure').length > 0)
    expect(failed.map((c) => c.attributes.name)).toEqual(['domain-events-match-domain'])

    const report = JSON.parse(readFileSync(json, 'utf8'))
    const valid = new Ajv2020({ strict: true }).compile(schemaDocument('conform-report'))
    expect(valid(report), JSON.stringify(valid.errors)).toBe(true)
    expect(report.summary).toEqual({ passed: 36, failed: 1, skipped: 13, errors: 0 })
    expect(JSON.stringify(report)).not.toContain(FAKE_KEY)
  })

  it('with --pro-key, --admin-token, --hook-receiver and --allow-writes runs the hook checks: passes a correct hook API, fails a broken one', async () => {
    const hookArgs = (url: string) => args(url, '--pro-key', FAKE_PRO_KEY, '--admin-token', FAKE_ADMIN_TOKEN, '--hook-receiver', '--allow-writes', '--hook-wait', '5000')
    const good = await withServer(startFake(), (url) => runCli(hookArgs(url)))
    // The fake has no DELETE /admin/events: the run says what it left there, and that fails it (exit 1) though every check passed.
    expect(good.code, good.stdout).toBe(1)
    expect(good.stderr).toMatch(/^l9kit conform: the run could not remove what it wrote \(\d+ clean-ups failed; see the notes above\)$/m)
    expect(good.stdout).toMatch(/^note: the 16 test events tagged l9kit-conform:c\w+ stay on the server \(hosts under c\w+-\*\.test, addresses in 192\.0\.2\.0\/24, 203\.0\.113\.0\/24 and 2001:db8::\/32\): DELETE \/admin\/events\?tag= answered 404 Not Found; delete them with the server's own tools$/m)
    expect(good.stdout).toMatch(/^PASS {2}hook-delivered: .* \(\d+ expected deliveries to 5 hooks\)$/m)
    expect(good.stdout).toMatch(/\n49 passed, 0 failed, 1 skipped \(/)
    expect(good.stdout + good.stderr).not.toContain(FAKE_ADMIN_TOKEN)
    const bad = await withServer(startLookAlikes(), (url) => runCli(hookArgs(url)))
    expect(bad.code).toBe(1)
    expect(bad.stdout).toMatch(/^FAIL {2}hook-look-alikes: .*\n +hook \S+ \(min_severity \w+, event_types [\w,]+\) received event \d+ \(\w+ \w* ?on notc\w+-watch\.test, [\d.]+\), whose host only looks like the watched domain$/m)
    expect(bad.stdout).toMatch(/\n48 passed, 1 failed, 1 skipped \(/)
  })

  it('with the hook options passes the hook checks against l9kit serve (its built-in demo keys and admin token)', async () => {
    const serve = running(['serve', '--port', '0'])
    try {
      const base = await serve.url()
      const pro = /^ +pro +api-key: (\S+)/m.exec(serve.stdout.text)![1]!
      const admin = /Bearer (\S+)/.exec(serve.stdout.text)![1]!
      const hookChecks = (await runCli(['conform', '--list-checks'])).stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('hook-'))
      expect(hookChecks.length).toBeGreaterThanOrEqual(9)
      const r = await runCli(['conform', '--base-url', base!, '--pro-key', pro, '--admin-token', admin, '--hook-receiver', '--allow-writes', '--rate', 'auto', '--seed', '7', '--checks', hookChecks.join(',')])
      expect(r.code, r.stdout).toBe(0)
      expect(r.stdout).toMatch(/^note: wrote 16 test events tagged l9kit-conform:c\w+; deleted 16 with DELETE \/admin\/events\?tag=l9kit-conform:c\w+$/m)
      expect(r.stdout).toMatch(new RegExp(`\\n${hookChecks.length} passed, 0 failed \\(`))
      expect(r.stdout + r.stderr).not.toContain(admin)
    } finally {
      await serve.stop()
    }
  })

  it('runs only the checks asked for, and leaves out the excluded ones', async () => {
    const r = await withServer(startFake(), (url) =>
      runCli(args(url, '--checks', 'lookup-shape,unknown-resource-404,no-5xx', '--exclude-checks', 'no-5xx')),
    )
    expect(r.code).toBe(0)
    expect(r.stdout.match(/^(PASS|FAIL|SKIP)/gm)).toHaveLength(2)
    expect(r.stdout).toMatch(/\n2 passed, 0 failed \(/)
  })

  it('with --stateless skips the checks that need state, each with its reason, and asks only about the given names', async () => {
    const dir = testTempDir('l9kit-conform-')
    const json = join(dir, 'report.json')
    const r = await withServer(startFake(), (url) => runCli(args(url, '--stateless', '--report', `json:${json}`)))
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^l9kit conform http:\/\/127\.0\.0\.1:\d+ \(stateless, seed 7, /)
    expect(r.stdout).toMatch(/^known: 1 domain \(example\.com\); no IP addresses$/m)
    const results = JSON.parse(readFileSync(json, 'utf8')).checks as { id: string; status: string; message?: string; requests: number }[]
    const stateful = ['unknown-resource-empty', 'wrong-key-refused', 'rate-limit-header', 'rate-limit-reason', 'rate-limit-wait']
    for (const id of stateful) {
      const result = results.find((x) => x.id === id)!
      expect(result).toMatchObject({ status: 'skipped', requests: 0 })
      expect(result.message).toMatch(/^not for a stateless server \(--stateless\): /)
    }
    expect(results.filter((x) => x.id.startsWith('hook-')).every((x) => x.message?.startsWith('not for a stateless server'))).toBe(true)
    expect(results.filter((x) => x.status === 'passed').map((x) => x.id)).toContain('subdomains-of-domain')
    expect(r.stdout).toMatch(/\n18 passed, 0 failed, 32 skipped \(/)
    const list = await runCli(['conform', '--list-checks'])
    expect(list.stdout.match(/^ {6}needs state \(skipped with --stateless\): /gm)).toHaveLength(stateful.length + 9 + 2 + 3 + 5 + 8 + 3) // the hook checks; plugin-found and plugin-unknown; the three live checks; the five bulk checks; eight search checks (search-count among them); unsupported-method, created-readable, deleted-gone
  })

  it('exits 2 with one line when the server cannot be reached', async () => {
    const fake = await startFake()
    const url = fake.url
    await fake.close()
    const r = await runCli(['conform', '--base-url', url, '--rate', 'auto'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^l9kit conform: cannot use http:\/\/127\.0\.0\.1:\d+: GET .*ECONNREFUSED\n$/)
    expect(r.stderr).not.toContain('    at ')
  })

  it.each([
    [['conform'], '--base-url is required'],
    [['conform', '--base-url', 'ftp://x'], 'must be an http:// or https:// URL'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--rate', 'fast'], '--rate must be requests per second'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--rate', '0/s'], '--rate must be requests per second'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--seed', 'x'], '--seed must be an integer'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--max-examples', '0'], '--max-examples must be a positive integer'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--report', 'xml:out.xml'], '--report must be junit:FILE, json:FILE or har:FILE'],
    [['conform', '--replay', 'x.har'], '--replay FILE and --check ID go together'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--checks', 'nope'], "unknown check 'nope'"],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--hook-receiver'], '--hook-receiver needs --pro-key'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--hook-receiver', '--pro-key', 'k'], '--hook-receiver needs --admin-token'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--hook-wait', '0'], '--hook-wait must be a positive integer'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--stateless', '--hook-receiver', '--pro-key', 'k', '--admin-token', 't'], '--hook-receiver and --stateless exclude each other'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--stateless', '--allow-writes'], '--allow-writes and --stateless exclude each other'],
    [['conform', '--base-url', 'http://127.0.0.1:1', '--bogus'], "Unknown option '--bogus'"],
  ])('exits 2 on bad options: %j', async (argv, message) => {
    const r = await runCli(argv)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('lists the checks and describes every option in --help', async () => {
    const list = await runCli(['conform', '--list-checks'])
    expect(list.code).toBe(0)
    expect(list.stdout).toContain('  rate-limit-header\n')
    expect(list.stdout).toMatch(/^Rate limit \(429\) \(rate-limit\):\n {2}rate-limit-header\n/m)
    expect(list.stdout).toMatch(/^Generic checks from the OpenAPI document \(schema\/openapi\.json\) \(openapi\):\n {2}param-constraints\n/m)
    expect(list.stdout).toContain('specification: ')
    const help = await runCli(['conform', '--help'])
    for (const option of ['--base-url', '--api-key', '--pro-key', '--checks', '--exclude-checks', '--seed', '--max-examples', '--rate', '--report', '--hook-receiver', '--admin-token', '--allow-writes', '--hook-wait', '--domain', '--ip', '--stateless', '--max-response-time', '--replay', '--check', 'har:FILE']) {
      expect(help.stdout).toContain(option)
    }
  })
})
