/** The answer of our ingest extension, POST /admin/events (docs/service.md); the service's `IngestReport` has this shape. */
import Type, { type Static } from 'typebox'

export const IngestIssue = Type.Object(
  {
    code: Type.String({ title: 'Code', description: 'Stable problem code, such as `missing_member` or `bad_json`, as `l9kit validate` reports them.' }),
    pointer: Type.String({ title: 'Pointer', description: 'JSON pointer (RFC 6901) into the document; empty for the whole document.' }),
    message: Type.String({ title: 'Message', description: 'One sentence a person can act on.' }),
  },
  { title: 'Ingest problem', description: 'Why a record was refused (more members may follow: rule, expected, found).' },
)

export const IngestRejected = Type.Object(
  {
    line: Type.Integer({ title: 'Line', description: 'Line of the record in the body (1-based).', minimum: 1 }),
    errors: Type.Array(IngestIssue, { title: 'Errors', description: 'Every problem of the record.' }),
  },
  { title: 'Rejected record', description: 'A record the store refused, by its line.' },
)

export const IngestAnswer = Type.Object(
  {
    accepted: Type.Integer({ title: 'Accepted', description: 'New events stored.', minimum: 0 }),
    duplicates: Type.Integer({ title: 'Duplicates', description: 'Events already stored (same fingerprint), counted but not stored twice.', minimum: 0 }),
    rejected: Type.Array(IngestRejected, { title: 'Rejected', description: 'Records refused, with their problems; nothing is dropped silently.' }),
  },
  { title: 'Ingest report', description: 'Answer of POST /admin/events.' },
)

export type IngestAnswer = Static<typeof IngestAnswer>

export const DeletedEvents = Type.Object(
  { deleted: Type.Integer({ title: 'Deleted', description: 'Events deleted: those whose `tags` held the tag.', minimum: 0 }) },
  { title: 'Deleted events', description: 'Answer of DELETE /admin/events?tag=….' },
)

export type DeletedEvents = Static<typeof DeletedEvents>
