/**
 * Compile-time test (checked by `npm run typecheck`): the declarations generated into
 * schema/types/ from the JSON Schema agree with the TypeBox `Static<>` types.
 */
import type { ErrorBody, Event, LookupResult, SubdomainEntry } from '../../src/schema/index.js'
import type { Error as GeneratedError } from '../../schema/types/error.js'
import type { Event as GeneratedEvent } from '../../schema/types/event.js'
import type { LookupResult as GeneratedLookupResult } from '../../schema/types/lookup-result.js'
import type { Subdomains as GeneratedSubdomains } from '../../schema/types/subdomains.js'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const agree = <T extends true>(value: T) => value

agree<Same<Event, GeneratedEvent>>(true)
agree<Same<LookupResult, GeneratedLookupResult>>(true)
// lookup-result.d.ts imports Event from event.d.ts: the very same type, not a copy.
agree<Same<NonNullable<GeneratedLookupResult['Services']>[number], GeneratedEvent>>(true)
agree<Same<SubdomainEntry[], GeneratedSubdomains>>(true)
agree<Same<ErrorBody, GeneratedError>>(true)

// The check is not vacuous: a type that differs in one member does not agree.
type Broken = Omit<Event, 'port'> & { port: number }
agree<Same<Broken, GeneratedEvent> extends false ? true : false>(true)
