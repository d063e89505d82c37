-- Claims skip a hook while one of its deliveries is held under a lease (at most one in flight
-- per hook). Held deliveries are few; this index finds them without reading every pending row
-- of a hook whose receiver is down.
CREATE INDEX deliveries_held ON deliveries (hook_id) WHERE status = 'pending' AND lease_until > 0;
