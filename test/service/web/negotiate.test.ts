import { describe, expect, it } from 'vitest'
import { prefersHtml } from '../../../src/service/http/negotiate.js'
import { daysOpen } from '../../../src/service/web/index.js'
import { BROWSER_ACCEPT } from './http-get.js'

describe('prefersHtml', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['application/json, text/plain, */*', false], // axios
    ['text/html, application/json', false], // a tie keeps the API's JSON
    ['text/html;q=0.9, application/json', false],
    ['text/*, application/json;q=0.5', true],
    ['text/html', true],
    ['TEXT/HTML; charset=utf-8', true],
    [BROWSER_ACCEPT, true], // Chromium
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true], // Firefox
    ['text/html;q=0, */*', false],
    ['text/html;q=bogus, application/json;q=0.1', false],
    ['application/json;q=0.2, text/html;q=0.3', true],
    ['*/*;q=0.5, text/html;q=0.1', false], // the specific range decides for text/html
  ])('%j → %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected)
  })
})

describe('daysOpen', () => {
  it.each([
    ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 0],
    ['2024-01-01T00:00:00Z', '2024-01-01T23:59:59.999999999Z', 0],
    ['2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', 1],
    ['2024-02-28T12:00:00Z', '2024-03-01T12:00:00Z', 2],
    ['2023-02-28T12:00:00Z', '2023-03-01T12:00:00Z', 1],
    ['2020-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 1461],
    ['2024-01-02T00:00:00Z', '2024-01-01T00:00:00Z', 0],
    ['not a time', '2024-01-01T00:00:00Z', 0],
  ])('%s → %s: %i', (first, last, days) => {
    expect(daysOpen(first, last)).toBe(days)
  })
})
